package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.systems.BuiltinSystems;
import dev.jtecs.component.Components;
import dev.jtecs.component.TagComponent;
import dev.jtecs.random.Xoshiro128;
import dev.jtecs.schedule.FixedOverload;
import dev.jtecs.schedule.FixedTiming;
import dev.jtecs.schedule.Phase;
import dev.jtecs.schedule.PhaseDefinition;
import dev.jtecs.schedule.PhaseGroup;
import dev.jtecs.schedule.Phases;
import dev.jtecs.schedule.RunIf;
import dev.jtecs.schedule.ScheduleCycleException;
import dev.jtecs.schedule.Scheduler;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.schedule.SystemInfo;
import dev.jtecs.state.StatePolicy;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The examples of {@code docs/systems.md}. */
class SystemsGuideTest {
    static final TagComponent ENEMY = Components.tag("docs.systems.Enemy");

    record Gravity(float y) {}

    // ---------------------------------------------------------------- the frame

    @Test
    void aFrameRunsPhasesInOrder() {
        try (World world = World.create(WorldConfig.defaults().timestep(0.25))) {
            // begin-example
            List<String> log = new ArrayList<>();
            world.addSystem(SystemConfig.named("game.Input").phase(Phases.PRE_UPDATE)
                    .run((dt, w) -> log.add("input " + dt)));
            world.addSystem(SystemConfig.named("game.Physics").phase(Phases.FIXED_UPDATE)
                    .run((dt, w) -> log.add("physics " + dt)));
            world.addSystem(SystemConfig.named("game.Draw").phase(Phases.RENDER)
                    .run((dt, w) -> log.add("draw " + dt)));
            world.addSystem(SystemConfig.named("game.Load").phase(Phases.STARTUP)
                    .run((dt, w) -> log.add("load " + dt)));

            world.startup();
            world.update(0.5); // two fixed steps of 0.25 fit in this frame
            assertEquals(List.of("load 0.0", "input 0.5", "physics 0.25", "physics 0.25", "draw 0.5"), log);
            // end-example
        }
    }

    // ---------------------------------------------------------------- order

    @Test
    void orderWithinAPhase() {
        try (World world = World.create()) {
            BuiltinSystems.remove(world); // the listings below show this sample's systems only
            // begin-example
            List<String> log = new ArrayList<>();
            world.addSystem(SystemConfig.named("game.Move").after("game.Steer").run((dt, w) -> log.add("move")));
            world.addSystem(SystemConfig.named("game.Score").run((dt, w) -> log.add("score")));
            world.addSystem(SystemConfig.named("game.Steer").run((dt, w) -> log.add("steer")));
            world.addSystem(SystemConfig.named("game.Hud").phase(Phases.RENDER).before("game.Move")
                    .run((dt, w) -> log.add("hud"))); // another phase: this edge is ignored

            world.update(1 / 60.0);
            assertEquals(List.of("score", "steer", "move", "hud"), log);
            assertEquals(List.of("game.Score", "game.Steer", "game.Move", "game.Hud"),
                    world.listSystems().stream().map(SystemInfo::name).toList());
            // end-example
        }
    }

    @Test
    void aCycleIsReportedBeforeAnythingRuns() {
        try (World world = World.create()) {
            // begin-example
            world.addSystem(SystemConfig.named("a").after("b").run((dt, w) -> {}));
            world.addSystem(SystemConfig.named("b").after("a").run((dt, w) -> {}));
            world.addSystem(SystemConfig.named("c").after("b").run((dt, w) -> {}));

            ScheduleCycleException cycle = assertThrows(ScheduleCycleException.class, () -> world.update(0.1));
            assertEquals(Phases.UPDATE, cycle.phase());
            assertEquals(List.of("a", "b", "c"), cycle.blocked()); // c is not on the cycle, but waits on it
            assertThrows(ScheduleCycleException.class, world::listSystems);

            world.removeSystem("b"); // disabling would not help: disabled systems keep their edges
            world.update(0.1);
            // end-example
        }
    }

    @Test
    void changesDuringADispatch() {
        try (World world = World.create()) {
            BuiltinSystems.remove(world); // the listings below show this sample's systems only
            // begin-example
            List<String> log = new ArrayList<>();
            world.addSystem(SystemConfig.named("editor").run((dt, w) -> {
                log.add("editor");
                w.setSystemEnabled("sleepy", false);                       // at once
                w.addSystem(SystemConfig.named("newcomer").phase(Phases.LAST)
                        .run((d, x) -> log.add("newcomer")));             // from the next update on
                w.removeSystem("editor");                                 // at once; this run continues
            }));
            world.addSystem(SystemConfig.named("sleepy").phase(Phases.POST_UPDATE).run((dt, w) -> log.add("sleepy")));

            world.update(0.1);
            assertEquals(List.of("editor"), log);
            world.update(0.1);
            assertEquals(List.of("editor", "newcomer"), log);
            assertEquals(List.of(new SystemInfo("sleepy", Phases.POST_UPDATE, 0, false, false),
                    new SystemInfo("newcomer", Phases.LAST, 1, true, false)), world.listSystems());
            // end-example
        }
    }

    // ---------------------------------------------------------------- structural work

    @Test
    void structuralWorkWaitsForABarrier() {
        try (World world = World.create()) {
            // begin-example
            List<String> log = new ArrayList<>();
            long[] enemy = new long[1];
            world.addSystem(SystemConfig.named("game.Spawn").run((dt, w) -> enemy[0] = w.spawn(ENEMY)));
            world.addSystem(SystemConfig.named("game.SameTick").after("game.Spawn")
                    .run((dt, w) -> log.add("same phase: " + w.isAlive(enemy[0]))));
            world.addSystem(SystemConfig.named("game.Later").phase(Phases.POST_UPDATE)
                    .run((dt, w) -> log.add("next phase: " + w.isAlive(enemy[0]))));

            world.update(0.1);
            assertEquals(List.of("same phase: false", "next phase: true"), log);
            // end-example
        }
    }

    @Test
    void commitBarriers() {
        try (World world = World.create()) {
            // begin-example
            List<String> log = new ArrayList<>();
            long[] enemy = new long[2];
            world.addSystem(SystemConfig.named("game.Wave").commitAfter()
                    .run((dt, w) -> enemy[0] = w.spawn(ENEMY)));
            world.addSystem(SystemConfig.named("game.Boss").after("game.Wave").run((dt, w) -> {
                if (w.isAlive(enemy[0])) { // published by Wave's commitAfter
                    enemy[1] = w.spawn(ENEMY);
                    w.enqueueCommit();     // a barrier only when this branch runs...
                    log.add("boss staged, alive now: " + w.isAlive(enemy[1]));
                }
            }));
            world.addSystem(SystemConfig.named("game.Count").after("game.Boss")
                    .run((dt, w) -> log.add("boss alive: " + w.isAlive(enemy[1])))); // ...after Boss returns

            world.update(0.1);
            assertEquals(List.of("boss staged, alive now: false", "boss alive: true"), log);
            // end-example
        }
    }

    @Test
    void aFailingSystemLeavesItsWorkStaged() {
        try (World world = World.create()) {
            // begin-example
            long[] enemy = new long[1];
            world.addSystem(SystemConfig.named("game.Flaky").run((dt, w) -> {
                enemy[0] = w.spawn(ENEMY);
                w.enqueueCommit();
                throw new IllegalStateException("bad data");
            }));

            assertThrows(IllegalStateException.class, () -> world.update(0.1));
            assertFalse(world.isAlive(enemy[0]));   // no barrier ran while the exception left
            assertTrue(world.hasPendingChanges());  // the spawn is still staged
            world.enqueueCommit();                  // outside a system: publishes now
            assertTrue(world.isAlive(enemy[0]));
            // end-example
        }
    }

    // ---------------------------------------------------------------- run conditions

    @Test
    void timers() {
        try (World world = World.create()) {
            BuiltinSystems.remove(world); // the listings below show this sample's systems only
            // begin-example
            List<String> log = new ArrayList<>();
            world.addSystem(SystemConfig.named("every").runIf(RunIf.every(1.0)).run((dt, w) -> log.add("every")));
            world.addSystem(SystemConfig.named("cooldown").runIf(RunIf.cooldown(1.0))
                    .run((dt, w) -> log.add("cooldown")));
            world.addSystem(SystemConfig.named("after").runIf(RunIf.after(1.0)).run((dt, w) -> log.add("after")));

            world.update(0.25);  // cooldown starts ready
            world.update(2.5);   // every: 2.75 s, fires once and keeps 1.75; cooldown fires, drops its excess
            world.update(0.25);  // every: 2.0 s, fires again; cooldown: 0.25 s of 1.0
            world.update(0.25);  // every: 1.25 s, fires again, keeps 0.25; after already ran, and is gone
            assertEquals(List.of("cooldown", "every", "cooldown", "after", "every", "every"), log);
            assertEquals(List.of("every", "cooldown"), world.listSystems().stream().map(SystemInfo::name).toList());
            // end-example
        }
    }

    @Test
    void combinatorsShortCircuit() {
        try (World world = World.create()) {
            // begin-example
            world.createState("menu", StatePolicy.none());
            world.createState("game", StatePolicy.none());
            world.pushState("menu");
            int[] runs = new int[2];
            world.addSystem(SystemConfig.named("gated")
                    .runIf(RunIf.both(RunIf.inState("game"), RunIf.every(1.0))) // timer pauses outside "game"
                    .run((dt, w) -> runs[0]++));
            world.addSystem(SystemConfig.named("spent")
                    .runIf(RunIf.both(RunIf.every(1.0), RunIf.inState("game"))) // timer keeps running
                    .run((dt, w) -> runs[1]++));

            world.update(0.75); // in the menu: only the timer of "spent" advances
            world.popState();
            world.pushState("game");
            world.update(0.25);
            assertArrayEquals(new int[] {0, 1}, runs); // "spent" had 0.75 s banked from the menu
            world.update(0.75);
            assertArrayEquals(new int[] {1, 1}, runs); // "gated" counted game time only
            // end-example
        }
    }

    @Test
    void jitteredTimers() {
        try (World world = World.create()) {
            // begin-example
            Xoshiro128 stream = world.randomStream("game.ambience");
            List<Double> fired = new ArrayList<>();
            double[] clock = {0};
            world.addSystem(SystemConfig.named("game.Birdsong")
                    .runIf(RunIf.every(2.0, 0.5, stream)) // 2 s, then 1.5 .. 2.5 s apart
                    .run((dt, w) -> fired.add(clock[0])));
            for (int frame = 0; frame < 640; frame++) { // 40 s of 1/16 s frames
                clock[0] += 0.0625;
                world.update(0.0625);
            }
            assertEquals(2.0, fired.get(0)); // the first interval is never jittered
            for (int i = 1; i < fired.size(); i++) {
                double gap = fired.get(i) - fired.get(i - 1);
                assertTrue(gap > 1.4 && gap < 2.6, "gap " + gap); // give or take a frame
            }
            // end-example
        }
    }

    // ---------------------------------------------------------------- fixed step

    @Test
    void fixedStepUnderOverload() {
        // begin-example
        WorldConfig config = WorldConfig.defaults().timestep(0.25).fixedMaxSteps(3);
        try (World dropping = World.create(config);
                World catchingUp = World.create(config.fixedOverload(FixedOverload.ACCUMULATE))) {
            dropping.update(2.0625);   // 8 steps due: 3 run, 5 dropped, 0.0625 s kept
            assertEquals(new FixedTiming(0.25, 0.0625, 3, FixedOverload.DROP, 3, 1.25, 5),
                    dropping.getFixedTiming());
            assertEquals(0.25, dropping.getFixedTiming().alpha()); // a quarter into the next step

            catchingUp.update(2.0625); // 3 run, the rest waits
            catchingUp.update(0);      // 3 more
            catchingUp.update(0);      // the last 2
            assertEquals(8, catchingUp.fixedStepCount());
            assertEquals(0, catchingUp.getFixedTiming().stepsDropped());
        }
        // end-example
    }

    // ---------------------------------------------------------------- custom phases

    @Test
    void customPhasesAndTrees() {
        try (World world = World.create()) {
            // begin-example
            world.registerPhase(PhaseDefinition.leaf("game.Ai"));
            world.registerPhase(PhaseDefinition.leaf("game.Physics"));
            world.registerPhase(PhaseDefinition.tree("game.Simulation", "game.Ai", "game.Physics"));
            List<String> log = new ArrayList<>();
            world.addSystem(SystemConfig.named("think").phase(Phase.of("game.Ai")).run((dt, w) -> log.add("think")));
            world.addSystem(SystemConfig.named("step").phase(Phase.of("game.Physics")).run((dt, w) -> log.add("step")));
            world.addSystem(SystemConfig.named("driver").phase(Phases.UPDATE)
                    .run((dt, w) -> w.runPhase(Phase.of("game.Simulation"), dt)));

            world.update(0.1);
            assertEquals(List.of("think", "step"), log);
            world.disablePhase(Phase.of("game.Ai"));
            world.update(0.1);
            assertEquals(List.of("think", "step", "step"), log);
            assertThrows(IllegalArgumentException.class,
                    () -> world.registerPhase(PhaseDefinition.tree("game.Broken", "game.Missing")));
            // end-example
        }
    }

    // ---------------------------------------------------------------- random streams and resources

    @Test
    void randomStreams() {
        // begin-example
        int[] first;
        try (World world = World.create()) {
            world.seedRandom(42);
            Xoshiro128 loot = world.randomStream("game.loot");
            assertSame(loot, world.randomStream("game.loot"));
            first = IntStream.range(0, 5).map(i -> loot.nextIntInclusive(1, 20)).toArray(); // d20 rolls
            world.seedRandom(42); // restarts the captured generator in place
            assertArrayEquals(first, IntStream.range(0, 5).map(i -> loot.nextIntInclusive(1, 20)).toArray());
        }
        try (World other = World.create()) {
            other.randomStream("game.weather").nextLong(); // other streams never disturb this one
            other.seedRandom(42);
            Xoshiro128 loot = other.randomStream("game.loot");
            assertArrayEquals(first, IntStream.range(0, 5).map(i -> loot.nextIntInclusive(1, 20)).toArray());
        }
        // end-example
    }

    @Test
    void resources() {
        try (World world = World.create()) {
            // begin-example
            world.resources().put(Gravity.class, new Gravity(-9.8f));
            world.addSystem(SystemConfig.named("game.Fall").phase(Phases.FIXED_UPDATE).run((dt, w) -> {
                Gravity gravity = w.resources().get(Gravity.class); // throws when missing
                assertEquals(-9.8f, gravity.y());
            }));
            world.update(1 / 30.0);
            assertTrue(world.resources().find(String.class).isEmpty());
            // end-example
        }
    }

    @Test
    void replacingTheScheduler() {
        // begin-example
        List<String> seen = new ArrayList<>();
        WorldConfig config = WorldConfig.defaults().pipelineFactory((world, scope) -> {
            Scheduler inner = new Scheduler(world, scope);
            return new LoggingPipeline(inner, seen); // forwards every call, logging its name
        });
        try (World world = World.create(config)) {
            world.addSystem(SystemConfig.named("s").run((dt, w) -> {}));
            world.update(0.1);
            world.disablePhase(PhaseGroup.RENDER);
        }
        // the world registers its three builtin systems through the pipeline too, before yours
        assertEquals(List.of("addSystem", "addSystem", "addSystem", "addSystem", "update", "disablePhase"), seen);
        // end-example
    }

    /** A pipeline that forwards to the default scheduler and logs the calls that reach it. */
    record LoggingPipeline(Scheduler inner, List<String> seen) implements dev.jtecs.schedule.Pipeline {
        @Override
        public void update(double dt) {
            seen.add("update");
            inner.update(dt);
        }

        @Override
        public void run(dev.jtecs.schedule.PhaseSelection selection, double dt) {
            seen.add("run");
            inner.run(selection, dt);
        }

        @Override
        public String addSystem(SystemConfig config) {
            seen.add("addSystem");
            return inner.addSystem(config);
        }

        @Override
        public boolean removeSystem(String name) {
            seen.add("removeSystem");
            return inner.removeSystem(name);
        }

        @Override
        public boolean setSystemEnabled(String name, boolean enabled) {
            seen.add("setSystemEnabled");
            return inner.setSystemEnabled(name, enabled);
        }

        @Override
        public List<SystemInfo> listSystems() {
            seen.add("listSystems");
            return inner.listSystems();
        }

        @Override
        public int systemCount() {
            return inner.systemCount();
        }

        @Override
        public void registerPhase(PhaseDefinition definition) {
            seen.add("registerPhase");
            inner.registerPhase(definition);
        }

        @Override
        public void enablePhase(dev.jtecs.schedule.PhaseSelection selection) {
            seen.add("enablePhase");
            inner.enablePhase(selection);
        }

        @Override
        public void disablePhase(dev.jtecs.schedule.PhaseSelection selection) {
            seen.add("disablePhase");
            inner.disablePhase(selection);
        }

        @Override
        public boolean isPhaseEnabled(Phase phase) {
            seen.add("isPhaseEnabled");
            return inner.isPhaseEnabled(phase);
        }

        @Override
        public void enqueueCommit() {
            seen.add("enqueueCommit");
            inner.enqueueCommit();
        }

        @Override
        public FixedTiming fixedTiming() {
            return inner.fixedTiming();
        }

        @Override
        public long fixedStepCount() {
            return inner.fixedStepCount();
        }

        @Override
        public double fixedTimeDropped() {
            return inner.fixedTimeDropped();
        }

        @Override
        public long fixedStepsDropped() {
            return inner.fixedStepsDropped();
        }
    }

    @Test
    void replacingABodyKeepsItsPlace() {
        try (World world = World.create()) {
            List<String> log = new ArrayList<>();
            // begin-example
            world.addSystem(SystemConfig.named("game.Physics").run((dt, w) -> log.add("physics v1")));
            world.addSystem(SystemConfig.named("game.Camera").run((dt, w) -> log.add("camera")));
            world.setSystemEnabled("game.Camera", false);
            List<SystemInfo> before = world.listSystems();

            assertTrue(world.replaceSystemBody("game.Physics", (dt, w) -> log.add("physics v2")));
            assertEquals(before, world.listSystems()); // same names, phases, order, enabled state
            world.update(0.1);
            assertEquals(List.of("physics v2"), log);
            assertFalse(world.replaceSystemBody("game.Nothing", (dt, w) -> { })); // unknown: nothing changes
            // end-example
        }
    }
}
