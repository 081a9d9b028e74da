package dev.jtecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.systems.BuiltinSystems;
import dev.jtecs.random.Xoshiro128;
import dev.jtecs.state.StatePolicy;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Timer semantics evaluated directly (no dispatch), with deliberately uneven dt. */
class RunIfTest {
    /** Evaluates a condition once per dt and records the answers as a string of 1s and 0s. */
    private static String trace(RunIf condition, double... dts) {
        StringBuilder out = new StringBuilder();
        for (double dt : dts) {
            out.append(condition.test(dt, null, "s") ? '1' : '0');
        }
        return out.toString();
    }

    /** Counts its evaluations and answers as told. */
    static final class Probe implements RunIf {
        int evaluations;
        boolean answer;

        Probe(boolean answer) {
            this.answer = answer;
        }

        @Override
        public boolean test(double dt, World world, String systemName) {
            evaluations++;
            return answer;
        }
    }

    @Test
    void everyKeepsExcessTimeButFiresAtMostOncePerEvaluation() {
        // interval 2: 0.5 (0.5), 1 (1.5), 0.75 (2.25: fire, 0.25 left), 5 (5.25: fire, 3.25), 0 (fire, 1.25),
        // 0 (no), 0.75 (2: fire, 0)
        assertEquals("0011101", trace(RunIf.every(2), 0.5, 1.0, 0.75, 5, 0, 0, 0.75));
        assertEquals("1111", trace(RunIf.every(0.25), 0.25, 0.25, 0.25, 0.25));
    }

    @Test
    void everyStateIsPerInstanceAndSharedWhenReused() {
        RunIf shared = RunIf.every(1);
        assertEquals("0", trace(shared, 0.5));
        assertEquals("1", trace(shared, 0.5), "the second evaluation sees the first one's time");
        assertEquals("0", trace(RunIf.every(1), 0.5), "a fresh instance starts from zero");
    }

    @Test
    void jitteredIntervalsStartUnjitteredThenDrawFromTheGenerator() {
        long seed = 314L;
        System.out.println("RunIfTest.jitteredIntervalsStartUnjitteredThenDrawFromTheGenerator seed=" + seed);
        Timers.Every every = (Timers.Every) RunIf.every(1.0, 0.5, new Xoshiro128(seed));
        Xoshiro128 expected = new Xoshiro128(seed);
        assertEquals(1.0, every.interval(), "the first interval is the base interval");
        assertFalse(every.test(0.75, null, "s"));
        assertTrue(every.test(0.5, null, "s"));
        double next = 1.0 + 0.5 * (2 * expected.nextDouble() - 1);
        assertEquals(next, every.interval());
        assertEquals(0.25, every.elapsed(), 1e-15);
        for (int i = 0; i < 200; i++) {
            double before = every.interval();
            double elapsed = every.elapsed();
            boolean fired = every.test(before - elapsed, null, "s"); // exactly enough time to fire
            assertTrue(fired, "i=" + i);
            assertEquals(1.0 + 0.5 * (2 * expected.nextDouble() - 1), every.interval(), 1e-12);
            assertTrue(every.interval() >= 0.5 && every.interval() <= 1.5, "interval=" + every.interval());
        }
    }

    /** A jitter of zero keeps every interval at the base and draws nothing from the generator. */
    @Test
    void aJitterOfZeroDrawsNothing() {
        Xoshiro128 generator = new Xoshiro128(27);
        Timers.Every every = (Timers.Every) RunIf.every(0.5, 0, generator);
        assertTrue(every.test(0.5, null, "s"));
        assertTrue(every.test(0.5, null, "s"));
        assertEquals(0.5, every.interval());
        assertEquals(new Xoshiro128(27).nextLong(), generator.nextLong(), "the generator was left alone");
    }

    @Test
    void jitterIsClampedToOnePercentOfTheBase() {
        // jitter far above the base: about half the draws land below zero and must clamp to 0.01 * base
        Timers.Every every = (Timers.Every) RunIf.every(2.0, 100.0, new Xoshiro128(5));
        int clamped = 0;
        for (int i = 0; i < 100; i++) {
            assertTrue(every.test(every.interval() - every.elapsed(), null, "s"));
            assertTrue(every.interval() >= 0.02, "interval=" + every.interval());
            if (every.interval() == 0.02) {
                clamped++;
            }
        }
        assertTrue(clamped > 20, "clamped=" + clamped);
    }

    @Test
    void cooldownStartsReadyAndDiscardsExcess() {
        // cooldown 1: fire at once; 0.5, 0.25 (0.75), 0.5 (1.25 fire, excess 0.25 dropped); 0.75, 0.25 (1.0 fire)
        assertEquals("1001010", trace(RunIf.cooldown(1), 5, 0.5, 0.25, 0.5, 0.75, 0.25, 0));
        assertEquals("11", trace(RunIf.cooldown(0), 0, 0));
        // the 3 s dt fires it, but the surplus 2 s does not carry: the next needs a full second again
        assertEquals("1101", trace(RunIf.cooldown(1), 0, 3, 0.5, 0.5));
    }

    @Test
    void afterFiresOnceAndRemovesItsSystem() {
        try (World world = World.create()) {
            BuiltinSystems.remove(world); // the listings below show only this test's system
            List<Double> runs = new ArrayList<>();
            world.addSystem(SystemConfig.named("later").run((dt, w) -> runs.add(dt)).runIf(RunIf.after(1.0)));
            world.update(0.5);
            assertEquals(List.of(), runs);
            assertEquals(1, world.listSystems().size());
            world.update(0.625);
            assertEquals(List.of(0.625), runs, "it ran once, in the dispatch that crossed the delay");
            assertEquals(List.of(), world.listSystems(), "and was removed before that run");
            world.update(5);
            assertEquals(List.of(0.625), runs);
        }
    }

    @Test
    void afterNeverFiresTwiceEvenIfItsSystemStays() {
        try (World world = World.create()) {
            RunIf after = RunIf.after(0);
            assertTrue(after.test(0, world, "not-registered"));
            assertFalse(after.test(10, world, "not-registered"));
        }
    }

    @Test
    void combinatorsShortCircuitIncludingSideEffects() {
        Probe no = new Probe(false);
        Probe yes = new Probe(true);
        Probe second = new Probe(true);
        assertFalse(RunIf.both(no, second).test(0, null, "s"));
        assertEquals(0, second.evaluations, "both: false first operand skips the second");
        assertTrue(RunIf.either(yes, second).test(0, null, "s"));
        assertEquals(0, second.evaluations, "either: true first operand skips the second");
        assertTrue(RunIf.both(yes, second).test(0, null, "s"));
        assertFalse(RunIf.either(no, new Probe(false)).test(0, null, "s"));
        assertEquals(1, second.evaluations);
        assertTrue(RunIf.negate(no).test(0, null, "s"));
        assertFalse(RunIf.negate(yes).test(0, null, "s"));
    }

    @Test
    void aSkippedTimerDoesNotAdvance() {
        Probe gate = new Probe(false);
        RunIf every = RunIf.every(1);
        RunIf gated = RunIf.both(gate, every);
        assertEquals("000", trace(gated, 1, 1, 1), "the timer never saw those seconds");
        gate.answer = true;
        assertEquals("01", trace(gated, 0.5, 0.5));
        // operands swapped: the timer runs first and spends its firings while the gate is closed
        Probe closed = new Probe(false);
        RunIf timerFirst = RunIf.both(RunIf.every(1), closed);
        assertEquals("000", trace(timerFirst, 1, 1, 1));
        closed.answer = true;
        assertEquals("01", trace(timerFirst, 0.5, 0.5));
        assertEquals(4, closed.evaluations, "the gate is asked only when the timer fires");
    }

    @Test
    void inStateIsTrueOnlyWhileTheStateIsOnTopOfTheWorldsStack() {
        try (World world = World.create()) {
            RunIf inGame = RunIf.inState("game");
            world.createState("game", StatePolicy.none());
            world.createState("pause", StatePolicy.none());
            assertFalse(inGame.test(0, world, "s"), "empty stack: no state is active");
            world.pushState("game");
            assertTrue(inGame.test(0, world, "s"));
            world.pushState("pause");
            assertFalse(inGame.test(0, world, "s"), "covered: on the stack but not active");
            world.popState();
            assertTrue(inGame.test(0, world, "s"));
            world.popState();
            assertFalse(inGame.test(0, world, "s"));
        }
    }

    @Test
    void inStateGatesASystemAcrossStateChanges() {
        try (World world = World.create()) {
            world.createState("game", StatePolicy.none());
            world.createState("pause", StatePolicy.none());
            List<String> log = new ArrayList<>();
            world.addSystem(SystemConfig.named("sim").runIf(RunIf.inState("game")).run((dt, w) -> log.add("sim")));
            world.addSystem(SystemConfig.named("toggle").after("sim").run((dt, w) -> {
                if ("game".equals(w.peekState())) {
                    w.pushState("pause"); // takes effect for the next evaluation, not retroactively
                } else if (w.peekState() == null) {
                    w.pushState("game");
                }
            }));
            world.update(0.1); // stack empty when sim is asked, then game pushed
            world.update(0.1); // sim runs, then pause pushed
            world.update(0.1); // covered by pause
            assertEquals(List.of("sim"), log);
            assertEquals(List.of("game", "pause"), world.listStates());
        }
    }

    @Test
    void badTimerArgumentsAreRefused() {
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> RunIf.every(0));
        assertEquals("every: interval=0.0 must be positive and finite", zero.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RunIf.every(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> RunIf.every(Double.POSITIVE_INFINITY));
        IllegalArgumentException jitter =
                assertThrows(IllegalArgumentException.class, () -> RunIf.every(1, -0.5, new Xoshiro128(1)));
        assertEquals("every: jitter=-0.5 must be non-negative and finite", jitter.getMessage());
        assertThrows(NullPointerException.class, () -> RunIf.every(1, 0.5, null));
        assertEquals("every: interval=0.0 must be positive and finite", assertThrows(IllegalArgumentException.class,
                () -> RunIf.every(0, 0.5, new Xoshiro128(1))).getMessage(), "the jittered form checks its interval");
        assertThrows(IllegalArgumentException.class, () -> RunIf.after(-1));
        assertEquals("afterFrames: frames=-1 must not be negative",
                assertThrows(IllegalArgumentException.class, () -> RunIf.afterFrames(-1)).getMessage());
        RunIf.afterFrames(0); // no frames to wait: accepted
        assertThrows(IllegalArgumentException.class, () -> RunIf.cooldown(Double.NaN));
        assertThrows(NullPointerException.class, () -> RunIf.both(null, RunIf.every(1)));
        assertThrows(NullPointerException.class, () -> RunIf.inState(null));
    }
}
