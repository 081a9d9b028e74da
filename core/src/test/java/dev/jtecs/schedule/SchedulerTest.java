package dev.jtecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.systems.BuiltinSystems;
import dev.jtecs.component.Components;
import dev.jtecs.component.TagComponent;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import dev.jtecs.world.WorldStats;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The default scheduler, driven through its world the way users drive it. */
class SchedulerTest {
    static final TagComponent MARKER = Components.tag("test.schedule.Marker");
    static final TagComponent ECHO = Components.tag("test.schedule.Echo");

    private World world = withoutBuiltins(World.create());
    private final List<String> log = new ArrayList<>();

    @AfterEach
    void close() {
        world.close();
    }

    /** These tests list and count systems: a world keeps only the ones a test adds. */
    private static World withoutBuiltins(World world) {
        BuiltinSystems.remove(world);
        return world;
    }

    /** A system that appends its name (and dt when asked) to the log. */
    private String add(String name, Phase phase, String... after) {
        return world.addSystem(SystemConfig.named(name).phase(phase).after(after).run((dt, w) -> log.add(name)));
    }

    private List<String> names() {
        return world.listSystems().stream().map(SystemInfo::name).toList();
    }

    private List<String> takeLog() {
        List<String> copy = List.copyOf(log);
        log.clear();
        return copy;
    }

    // ---------------------------------------------------------------- phases and the frame

    @Test
    void updateRunsTheFramePhasesInOrderWithTheirDt() {
        world = World.create(WorldConfig.defaults().timestep(0.25));
        for (Phase phase : Phases.PREDEFINED) {
            world.addSystem(SystemConfig.named(phase.name()).phase(phase).run((dt, w) -> log.add(phase + "@" + dt)));
        }
        world.update(0.625);
        assertEquals(List.of("First@0.625", "PreUpdate@0.625",
                "FixedPreUpdate@0.25", "FixedUpdate@0.25", "FixedPostUpdate@0.25",
                "FixedPreUpdate@0.25", "FixedUpdate@0.25", "FixedPostUpdate@0.25",
                "Update@0.625", "PostUpdate@0.625", "Last@0.625",
                "PreRender@0.625", "Render@0.625", "PostRender@0.625"), takeLog());
        world.startup();
        assertEquals(List.of("PreStartup@0.0", "Startup@0.0", "PostStartup@0.0"), takeLog());
        world.shutdown();
        assertEquals(List.of("PreShutdown@0.0", "Shutdown@0.0", "PostShutdown@0.0"), takeLog());
        world.update(0.125); // 0.125 left over + 0.125: exactly one fixed step
        assertEquals(8 + 3, takeLog().size());
        assertEquals(3, world.fixedStepCount());
    }

    @Test
    void runPhaseRunsLeavesTreesAndGroupsOnce() {
        add("u", Phases.UPDATE);
        add("r", Phases.RENDER);
        add("f", Phases.FIXED_UPDATE);
        world.registerPhase(PhaseDefinition.leaf("game.Ai"));
        add("ai", Phase.of("game.Ai"));
        world.registerPhase(PhaseDefinition.tree("game.Sim", "game.Ai", "Render", "Update"));
        world.runPhase(Phase.of("game.Sim"), 0.5);
        assertEquals(List.of("ai", "r", "u"), takeLog());
        world.runPhase(PhaseGroup.FIXED_UPDATE);
        assertEquals(List.of("f"), takeLog());
        world.runPhase(PhaseGroup.ALL, 1);
        assertEquals(List.of("f", "u", "r"), takeLog(), "registry order: fixed phases sit before Update");
        world.update(0);
        assertEquals(List.of("u", "r"), takeLog(), "custom phases never join the frame on their own");
        IllegalArgumentException unknown =
                assertThrows(IllegalArgumentException.class, () -> world.runPhase(Phase.of("nope")));
        assertEquals("phase nope is not registered in this world", unknown.getMessage());
    }

    @Test
    void customPhasesRunFromASystemOfTheFrame() {
        world.registerPhase(PhaseDefinition.leaf("game.Physics"));
        add("step", Phase.of("game.Physics"));
        world.addSystem(SystemConfig.named("driver").phase(Phases.UPDATE).run((dt, w) -> {
            log.add("driver");
            w.runPhase(Phase.of("game.Physics"), dt);
            log.add("driver-end");
        }));
        world.update(0.1);
        assertEquals(List.of("driver", "step", "driver-end"), takeLog());
    }

    @Test
    void aDisabledPhaseRunsNothingAndEvaluatesNoCondition() {
        RunIfTest.Probe probe = new RunIfTest.Probe(true);
        world.addSystem(SystemConfig.named("gated").phase(Phases.RENDER).runIf(probe).run((dt, w) -> log.add("g")));
        add("u", Phases.UPDATE);
        world.disablePhase(PhaseGroup.RENDER);
        assertFalse(world.isPhaseEnabled(Phases.RENDER));
        world.update(0.1);
        assertEquals(List.of("u"), takeLog());
        assertEquals(0, probe.evaluations);
        world.enablePhase(Phases.RENDER);
        assertTrue(world.isPhaseEnabled(Phases.RENDER));
        world.update(0.1);
        assertEquals(List.of("u", "g"), takeLog());
        assertEquals(1, probe.evaluations);
        assertThrows(IllegalArgumentException.class, () -> world.disablePhase(Phase.of("nope")));
        assertThrows(IllegalArgumentException.class, () -> world.isPhaseEnabled(Phase.of("nope")));
    }

    @Test
    void disablingTheRunningPhaseStopsTheRestOfIt() {
        world.addSystem(SystemConfig.named("stopper").run((dt, w) -> {
            log.add("stopper");
            w.disablePhase(Phases.UPDATE);
        }));
        RunIfTest.Probe probe = new RunIfTest.Probe(true);
        world.addSystem(SystemConfig.named("next").runIf(probe).run((dt, w) -> log.add("next")));
        add("post", Phases.POST_UPDATE);
        world.update(0.1);
        assertEquals(List.of("stopper", "post"), takeLog());
        assertEquals(0, probe.evaluations);
    }

    @Test
    void registeringAPhaseDuringADispatchIsRefused() {
        List<RuntimeException> errors = new ArrayList<>();
        world.addSystem(SystemConfig.named("registrar").run((dt, w) -> {
            try {
                w.registerPhase(PhaseDefinition.leaf("game.Late"));
            } catch (IllegalStateException e) {
                errors.add(e);
            }
        }));
        world.update(0.1);
        assertEquals(1, errors.size());
        assertEquals("registerPhase(game.Late): not allowed while systems are running (from registrar)",
                errors.get(0).getMessage());
        assertThrows(IllegalArgumentException.class, () -> world.isPhaseEnabled(Phase.of("game.Late")),
                "nothing was registered");
        world.registerPhase(PhaseDefinition.leaf("game.Late"));
        assertTrue(world.isPhaseEnabled(Phase.of("game.Late")));
    }

    @Test
    void badDtIsRefusedBeforeAnythingRuns() {
        add("u", Phases.FIRST);
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> world.update(-1));
        assertEquals("update: dt=-1.0 must be non-negative and finite", negative.getMessage());
        assertThrows(IllegalArgumentException.class, () -> world.update(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> world.update(Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> world.runPhase(Phases.FIRST, -0.5));
        assertEquals(List.of(), log);
        assertEquals(0, world.getFixedTiming().accumulator());
    }

    // ---------------------------------------------------------------- systems: names, order, inspection

    @Test
    void namesAreExplicitOrGeneratedAndUnique() {
        assertEquals("system#1", world.addSystem(SystemConfig.unnamed().run((dt, w) -> {})));
        assertEquals("system#2", world.addSystem(SystemConfig.named("system#2").run((dt, w) -> {})));
        assertEquals("system#3", world.addSystem(SystemConfig.unnamed().run((dt, w) -> {})), "a taken name is skipped");
        assertEquals(List.of("system#1", "system#2", "system#3"), names());
    }

    @Test
    void aDuplicateNameIsRefusedAndChangesNothing() {
        add("a", Phases.UPDATE);
        add("b", Phases.RENDER);
        List<SystemInfo> before = world.listSystems();
        IllegalArgumentException duplicate = assertThrows(IllegalArgumentException.class,
                () -> world.addSystem(SystemConfig.named("b").phase(Phases.FIRST).run((dt, w) -> {})));
        assertEquals("a system named b is already registered (in phase Render)", duplicate.getMessage());
        assertThrows(IllegalArgumentException.class, () -> world.addSystem(SystemConfig.named("c")),
                "no body");
        IllegalArgumentException tree = assertThrows(IllegalArgumentException.class, () -> {
            world.registerPhase(PhaseDefinition.tree("t", "Update"));
            world.addSystem(SystemConfig.named("c").phase(Phase.of("t")).run((dt, w) -> {}));
        });
        assertEquals("phase t is a tree of [Update]; systems go in leaf phases", tree.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> world.addSystem(SystemConfig.named("c").phase(Phase.of("nope")).run((dt, w) -> {})));
        assertEquals(before, world.listSystems());
        assertEquals(2, world.getStats(null).systems());
        world.update(0);
        assertEquals(List.of("a", "b"), takeLog());
    }

    @Test
    void listSystemsReportsPhasesInRegistryOrderThenDependencyOrder() {
        world.addSystem(SystemConfig.named("draw").phase(Phases.RENDER).run((dt, w) -> {}));
        world.addSystem(SystemConfig.named("move").after("input").runIf(RunIf.every(1)).run((dt, w) -> {}));
        world.addSystem(SystemConfig.named("input").run((dt, w) -> {}));
        world.addSystem(SystemConfig.named("boot").phase(Phases.STARTUP).run((dt, w) -> {}));
        world.setSystemEnabled("draw", false);
        assertEquals(List.of(
                new SystemInfo("boot", Phases.STARTUP, 0, true, false),
                new SystemInfo("input", Phases.UPDATE, 1, true, false),
                new SystemInfo("move", Phases.UPDATE, 2, true, true),
                new SystemInfo("draw", Phases.RENDER, 3, false, false)), world.listSystems());
        assertThrows(UnsupportedOperationException.class, () -> world.listSystems().clear());
    }

    @Test
    void constraintsOrderSystemsWithinOnePhaseOnly() {
        add("c", Phases.UPDATE, "b");
        add("b", Phases.UPDATE, "a", "elsewhere", "ghost");
        add("a", Phases.UPDATE);
        add("elsewhere", Phases.FIRST);
        world.addSystem(SystemConfig.named("early").before("a", "early").run((dt, w) -> log.add("early")));
        world.update(0);
        assertEquals(List.of("elsewhere", "early", "a", "b", "c"), takeLog());
    }

    @Test
    void aCycleFailsTheDispatchBeforeAnythingRunsOrPublishes() {
        add("first", Phases.FIRST);
        add("x", Phases.UPDATE, "y");
        add("y", Phases.UPDATE, "x");
        add("z", Phases.UPDATE, "y");
        world.defer();
        long staged = world.spawn(MARKER);
        ScheduleCycleException cycle = assertThrows(ScheduleCycleException.class, () -> world.update(0.1));
        assertEquals(Phases.UPDATE, cycle.phase());
        assertEquals(List.of("x", "y", "z"), cycle.blocked());
        assertEquals(List.of(), log, "no system ran");
        assertFalse(world.isAlive(staged), "the scope left open was not unwound");
        assertEquals(0, world.getFixedTiming().accumulator(), "the clock did not advance");
        assertThrows(ScheduleCycleException.class, () -> world.listSystems());
        assertThrows(ScheduleCycleException.class, () -> world.runPhase(Phases.FIRST));

        world.setSystemEnabled("y", false);
        assertThrows(ScheduleCycleException.class, () -> world.update(0.1), "disabling does not repair it");
        assertTrue(world.removeSystem("y"));
        world.update(0.1);
        assertEquals(List.of("first", "x", "z"), takeLog());
        assertTrue(world.isAlive(staged));
    }

    @Test
    void replacingABodyKeepsTheSystemsPlaceEdgesConditionAndState() {
        add("a", Phases.UPDATE, "b");
        add("b", Phases.UPDATE);
        world.addSystem(SystemConfig.named("c").phase(Phases.UPDATE).runIf(RunIf.every(2))
                .run((dt, w) -> log.add("c")));
        add("d", Phases.UPDATE);
        world.setSystemEnabled("b", false);
        List<SystemInfo> before = world.listSystems();

        assertTrue(world.replaceSystemBody("b", (dt, w) -> log.add("b2")));
        assertTrue(world.replaceSystemBody("c", (dt, w) -> log.add("c2")));
        assertEquals(before, world.listSystems(), "same names, phases, order, enabled state, conditions");
        world.update(1);
        assertEquals(List.of("a", "d"), takeLog(), "b stays disabled; c keeps its every(2) gate");
        world.setSystemEnabled("b", true);
        world.update(1);
        world.update(1);
        assertEquals(List.of("b2", "a", "c2", "d", "b2", "a", "d"), takeLog(), "a still follows b");
    }

    @Test
    void replacingABodyDuringADispatchTakesEffectWhenTheDispatchReachesIt() {
        world.addSystem(SystemConfig.named("swapper").phase(Phases.UPDATE)
                .run((dt, w) -> w.replaceSystemBody("late", (dt2, w2) -> log.add("late2"))));
        add("late", Phases.UPDATE, "swapper");
        world.update(0);
        assertEquals(List.of("late2"), takeLog());
    }

    @Test
    void replacingTheBodyOfAnUnknownSystemChangesNothing() {
        add("a", Phases.UPDATE);
        assertFalse(world.replaceSystemBody("nope", (dt, w) -> log.add("x")));
        assertThrows(NullPointerException.class, () -> world.replaceSystemBody("a", null));
        world.update(0);
        assertEquals(List.of("a"), takeLog());
    }

    @Test
    void aPipelineWithoutBodySwapsRefusesWithItsName() {
        world = World.create(WorldConfig.defaults().pipelineFactory(RecordingPipeline::new));
        UnsupportedOperationException refused = assertThrows(UnsupportedOperationException.class,
                () -> world.replaceSystemBody(BuiltinSystems.TTL, (dt, w) -> { }));
        assertTrue(refused.getMessage().contains(RecordingPipeline.class.getName()), refused.getMessage());
        assertTrue(refused.getMessage().contains(BuiltinSystems.TTL), refused.getMessage());
    }

    @Test
    void disabledSystemsKeepTheirPlaceAndEdges() {
        add("a", Phases.UPDATE, "b");
        add("b", Phases.UPDATE);
        add("c", Phases.UPDATE);
        assertEquals(List.of("b", "a", "c"), names());
        world.setSystemEnabled("b", false);
        world.update(0);
        assertEquals(List.of("a", "c"), takeLog());
        assertEquals(List.of("b", "a", "c"), names(), "b keeps its slot, and a still follows it");
        assertFalse(world.listSystems().get(0).enabled());
        world.setSystemEnabled("b", true);
        world.update(0);
        assertEquals(List.of("b", "a", "c"), takeLog());
        assertFalse(world.setSystemEnabled("ghost", true));
        assertFalse(world.removeSystem("ghost"));
    }

    @Test
    void aDisabledSystemEvaluatesNoConditionAndCrossesNoBarrier() {
        long[] id = new long[1];
        world.addSystem(SystemConfig.named("spawner").run((dt, w) -> id[0] = w.spawn(MARKER)));
        RunIfTest.Probe probe = new RunIfTest.Probe(true);
        world.addSystem(SystemConfig.named("off").after("spawner").runIf(probe).commitBefore().commitAfter()
                .run((dt, w) -> {}));
        world.addSystem(SystemConfig.named("checker").after("off").run((dt, w) -> log.add("" + w.isAlive(id[0]))));
        world.setSystemEnabled("off", false);
        world.update(0);
        assertEquals(0, probe.evaluations);
        assertEquals(List.of("false"), takeLog(), "no barrier between spawner and checker");
        world.setSystemEnabled("off", true);
        world.update(0);
        assertEquals(1, probe.evaluations);
        assertEquals(List.of("true"), takeLog());
    }

    // ---------------------------------------------------------------- the captured schedule

    @Test
    void additionsWaitForTheNextExternalDispatch() {
        world.addSystem(SystemConfig.named("adder").run((dt, w) -> {
            log.add("adder");
            if (w.listSystems().size() == 1) {
                w.addSystem(SystemConfig.named("late").phase(Phases.LAST).run((d, x) -> log.add("late")));
                w.addSystem(SystemConfig.named("same").after("adder").run((d, x) -> log.add("same")));
                log.add("listed:" + w.listSystems().stream().map(SystemInfo::name).toList());
            }
        }));
        world.update(0);
        assertEquals(List.of("adder", "listed:[adder, same, late]"), takeLog(),
                "listing shows the next schedule; the running one is untouched");
        world.update(0);
        assertEquals(List.of("adder", "same", "late"), takeLog());
    }

    @Test
    void nestedDispatchesReuseTheCapturedSchedule() {
        world.registerPhase(PhaseDefinition.leaf("game.Sub"));
        add("old", Phase.of("game.Sub"));
        world.addSystem(SystemConfig.named("driver").run((dt, w) -> {
            w.addSystem(SystemConfig.unnamed().phase(Phase.of("game.Sub")).run((d, x) -> log.add("new")));
            w.runPhase(Phase.of("game.Sub"));
        }));
        world.update(0);
        assertEquals(List.of("old"), takeLog());
        world.runPhase(Phase.of("game.Sub"));
        assertEquals(List.of("old", "new"), takeLog());
        IllegalStateException nested = assertThrows(IllegalStateException.class, () -> {
            world.addSystem(SystemConfig.named("bad").run((dt, w) -> w.update(dt)));
            world.update(0);
        });
        assertTrue(nested.getMessage().startsWith("update: called while systems are running (from bad)"),
                nested.getMessage());
    }

    @Test
    void removalAndEnablingActAtOnce() {
        world.addSystem(SystemConfig.named("editor").run((dt, w) -> {
            log.add("editor");
            w.removeSystem("doomed");
            w.setSystemEnabled("sleeper", false);
            w.setSystemEnabled("waker", true);
        }));
        add("doomed", Phases.UPDATE);
        add("sleeper", Phases.POST_UPDATE);
        add("waker", Phases.POST_UPDATE);
        world.setSystemEnabled("waker", false);
        world.update(0);
        assertEquals(List.of("editor", "waker"), takeLog());
        assertEquals(List.of("editor", "sleeper", "waker"), names());
    }

    @Test
    void aSystemRemovedAndReAddedDuringADispatchRunsOnlyInItsNewForm() {
        world.addSystem(SystemConfig.named("editor").run((dt, w) -> {
            if (w.removeSystem("target")) {
                w.addSystem(SystemConfig.named("target").run((d, x) -> log.add("new target")));
            }
        }));
        world.addSystem(SystemConfig.named("target").run((dt, w) -> log.add("old target")));
        world.update(0);
        assertEquals(List.of(), takeLog());
        world.setSystemEnabled("editor", false);
        world.update(0);
        assertEquals(List.of("new target"), takeLog());
    }

    // ---------------------------------------------------------------- publication: holds and barriers

    @Test
    void systemsStageStructuralWorkUntilABarrier() {
        long[] spawned = new long[1];
        world.addSystem(SystemConfig.named("spawner").run((dt, w) -> {
            spawned[0] = w.spawn(MARKER);
            log.add("inside:" + w.isAlive(spawned[0]));
        }));
        world.addSystem(SystemConfig.named("sameTick").after("spawner").run((dt, w) -> {
            log.add("same phase:" + w.isAlive(spawned[0]));
        }));
        world.addSystem(SystemConfig.named("nextPhase").phase(Phases.POST_UPDATE).run((dt, w) -> {
            log.add("next phase:" + w.isAlive(spawned[0]));
        }));
        world.update(0);
        assertEquals(List.of("inside:false", "same phase:false", "next phase:true"), takeLog());
        assertEquals(0, world.scopeDepth());
    }

    @Test
    void commitAfterAndCommitBeforePublishBetweenSystems() {
        long[] ids = new long[2];
        world.addSystem(SystemConfig.named("a").commitAfter().runIf((dt, w, n) -> {
            ids[0] = w.spawn(MARKER);
            return false; // commitAfter publishes even when the body is skipped
        }).run((dt, w) -> log.add("a ran")));
        world.addSystem(SystemConfig.named("b").after("a").run((dt, w) -> {
            log.add("b sees a:" + w.isAlive(ids[0]));
            ids[1] = w.spawn(MARKER);
        }));
        world.addSystem(SystemConfig.named("c").after("b").commitBefore().runIf((dt, w, n) -> {
            log.add("c's condition sees b:" + w.isAlive(ids[1]));
            return true;
        }).run((dt, w) -> {}));
        world.update(0);
        assertEquals(List.of("b sees a:true", "c's condition sees b:true"), takeLog());
    }

    /** Wraps a world's dispatch scope to count the barriers that found staged work, i.e. publications. */
    static final class CountingScope implements DispatchScope {
        final DispatchScope inner;
        final World[] world = new World[1];
        int publishingBarriers;

        CountingScope(DispatchScope inner) {
            this.inner = inner;
        }

        @Override
        public void unwind() {
            inner.unwind();
        }

        @Override
        public void hold() {
            inner.hold();
        }

        @Override
        public void release(boolean publish) {
            inner.release(publish);
        }

        @Override
        public void barrier() {
            if (world[0].hasPendingChanges()) {
                publishingBarriers++;
            }
            inner.barrier();
        }

        @Override
        public void checkThread() {
            inner.checkThread();
        }
    }

    @Test
    void enqueueCommitCoalescesIntoOneBarrierAfterTheBody() {
        CountingScope[] counting = new CountingScope[1];
        world = World.create(WorldConfig.defaults().pipelineFactory((w, scope) -> {
            counting[0] = new CountingScope(scope);
            counting[0].world[0] = w;
            return new Scheduler(w, counting[0]);
        }));
        long[] ids = new long[3];
        world.addSystem(SystemConfig.named("producer").run((dt, w) -> {
            for (int i = 0; i < 3; i++) {
                ids[i] = w.spawn(MARKER);
                w.enqueueCommit();
                log.add("mid-body:" + w.isAlive(ids[i]));
            }
        }));
        world.addSystem(SystemConfig.named("consumer").after("producer").run((dt, w) -> {
            log.add("consumer:" + w.isAlive(ids[0]) + w.isAlive(ids[2]));
        }));
        world.update(0);
        assertEquals(List.of("mid-body:false", "mid-body:false", "mid-body:false", "consumer:truetrue"), takeLog());
        assertEquals(1, counting[0].publishingBarriers, "one publication for three requests");
    }

    @Test
    void aRequestFromAFalseConditionPublishesAfterTheSkip() {
        long[] id = new long[1];
        world.addSystem(SystemConfig.named("gate").runIf((dt, w, n) -> {
            id[0] = w.spawn(MARKER);
            w.enqueueCommit();
            return false;
        }).run((dt, w) -> log.add("never")));
        world.addSystem(SystemConfig.named("after").after("gate").run((dt, w) -> log.add("" + w.isAlive(id[0]))));
        world.update(0);
        assertEquals(List.of("true"), takeLog());
    }

    @Test
    void aThrowingSystemDropsItsRequestAndLeavesWorkStaged() {
        long[] id = new long[1];
        world.addSystem(SystemConfig.named("fails").run((dt, w) -> {
            id[0] = w.spawn(MARKER);
            w.enqueueCommit();
            throw new IllegalStateException("boom");
        }));
        add("after", Phases.UPDATE, "fails");
        add("render", Phases.RENDER);
        IllegalStateException boom = assertThrows(IllegalStateException.class, () -> world.update(0));
        assertEquals("boom", boom.getMessage());
        assertEquals(List.of(), takeLog(), "the dispatch stopped at the failure");
        assertFalse(world.isAlive(id[0]), "no barrier while unwinding");
        assertTrue(world.hasPendingChanges());
        assertEquals(0, world.scopeDepth(), "the dispatch released its hold");

        world.enqueueCommit(); // outside a system: publishes at once
        assertTrue(world.isAlive(id[0]));
        world.removeSystem("fails");
        world.update(0);
        assertEquals(List.of("after", "render"), takeLog(), "the world stays usable");
    }

    @Test
    void theNextUpdatePublishesWhatAFailedOneLeftStaged() {
        long[] id = new long[1];
        boolean[] fail = {true};
        world.addSystem(SystemConfig.named("fails").run((dt, w) -> {
            if (fail[0]) {
                id[0] = w.spawn(MARKER);
                throw new IllegalStateException("boom");
            }
        }));
        world.addSystem(SystemConfig.named("probe").phase(Phases.FIRST).run((dt, w) -> {
            if (!fail[0]) {
                log.add("" + w.isAlive(id[0]));
            }
        }));
        assertThrows(IllegalStateException.class, () -> world.update(0));
        fail[0] = false;
        world.update(0);
        assertEquals(List.of("true"), takeLog());
    }

    @Test
    void explicitCommitAndUnwindInsideASystemPublishAtOnce() {
        world.addSystem(SystemConfig.named("committer").run((dt, w) -> {
            long a = w.spawn(MARKER);
            w.commit();
            log.add("after commit:" + w.isAlive(a));
            long b = w.spawn(MARKER);
            w.unwind();
            log.add("after unwind:" + w.isAlive(b));
            long c = w.spawn(MARKER);
            log.add("held again:" + w.isAlive(c));
        }));
        world.update(0);
        assertEquals(List.of("after commit:true", "after unwind:true", "held again:false"), takeLog());
        assertEquals(0, world.scopeDepth());
        assertFalse(world.hasPendingChanges());
    }

    @Test
    void barriersWaitForScopesASystemOpened() {
        long[] id = new long[1];
        world.addSystem(SystemConfig.named("opener").commitAfter().run((dt, w) -> {
            w.defer();
            id[0] = w.spawn(MARKER);
        }));
        world.addSystem(SystemConfig.named("closer").after("opener").run((dt, w) -> {
            log.add("before commit:" + w.isAlive(id[0]));
            w.commit();
            log.add("after commit:" + w.isAlive(id[0]));
        }));
        world.update(0);
        assertEquals(List.of("before commit:false", "after commit:true"), takeLog());
        assertEquals(0, world.scopeDepth());
    }

    @Test
    void publicationCallbacksMayRequestCommitsWithoutRecursion() {
        List<Long> echoes = new ArrayList<>();
        world.newQuery(QueryDescriptor.builder().include(MARKER).onEntitiesAdded((archetype, from, to) -> {
            for (int row = from; row < to; row++) {
                echoes.add(world.spawn(ECHO));
            }
            world.enqueueCommit();
        }).build());
        world.addSystem(SystemConfig.named("spawner").commitAfter().run((dt, w) -> w.spawn(MARKER)));
        world.addSystem(SystemConfig.named("check").after("spawner").run((dt, w) -> {
            log.add("echo alive:" + w.isAlive(echoes.get(0)));
        }));
        world.update(0);
        assertEquals(List.of("echo alive:true"), takeLog());
    }

    @Test
    void updateUnwindsOpenScopesFirstAndClearsDirtyBitsAfter() {
        world.defer();
        long staged = world.spawn(MARKER);
        world.addSystem(SystemConfig.named("first").phase(Phases.FIRST).run((dt, w) -> {
            log.add("staged alive:" + w.isAlive(staged));
        }));
        world.addSystem(SystemConfig.named("extract").phase(Phases.RENDER).run((dt, w) -> {
            log.add("dirty while rendering:" + !w.dirtyArchetypes().isEmpty());
        }));
        world.update(0);
        assertEquals(List.of("staged alive:true", "dirty while rendering:true"), takeLog());
        assertEquals(0, world.scopeDepth());
        assertEquals(List.of(), world.dirtyArchetypes(), "update cleared the dirty bits");
    }

    @Test
    void runPhaseDoesNotClearDirtyBits() {
        world.addSystem(SystemConfig.named("spawner").run((dt, w) -> w.spawn(MARKER)));
        world.runPhase(Phases.UPDATE);
        assertFalse(world.dirtyArchetypes().isEmpty());
    }

    // ---------------------------------------------------------------- fixed timestep

    @Test
    void fixedStepsFollowTheAccumulatorAndDropOverload() {
        world = World.create(WorldConfig.defaults().timestep(0.25).fixedMaxSteps(3));
        int[] steps = new int[1];
        world.addSystem(SystemConfig.named("fixed").phase(Phases.FIXED_UPDATE).run((dt, w) -> steps[0]++));
        world.update(2.0625);
        assertEquals(3, steps[0]);
        FixedTiming timing = world.getFixedTiming();
        assertEquals(new FixedTiming(0.25, 0.0625, 3, FixedOverload.DROP, 3, 1.25, 5), timing);
        WorldStats stats = world.getStats(null);
        assertEquals(1.25, stats.fixedTimeDropped());
        assertEquals(5, stats.fixedStepsDropped());
        world.update(0.1875);
        assertEquals(4, steps[0]);
        assertEquals(4, world.fixedStepCount());
        assertEquals(0.0, world.getFixedTiming().accumulator());
    }

    @Test
    void accumulateOverloadCatchesUpLater() {
        world = World.create(WorldConfig.defaults().timestep(0.25).fixedMaxSteps(3)
                .fixedOverload(FixedOverload.ACCUMULATE));
        int[] steps = new int[1];
        world.addSystem(SystemConfig.named("fixed").phase(Phases.FIXED_UPDATE).run((dt, w) -> steps[0]++));
        world.update(2.0625);
        assertEquals(3, steps[0]);
        assertEquals(1.3125, world.getFixedTiming().accumulator());
        world.update(0);
        world.update(0);
        assertEquals(8, steps[0]);
        assertEquals(new FixedTiming(0.25, 0.0625, 3, FixedOverload.ACCUMULATE, 8, 0, 0), world.getFixedTiming());
    }

    @Test
    void fixedStepsCountEvenWhenTheFixedPhasesAreDisabled() {
        world = World.create(WorldConfig.defaults().timestep(0.5));
        add("fixed", Phases.FIXED_UPDATE);
        world.disablePhase(PhaseGroup.FIXED_UPDATE);
        world.update(1);
        assertEquals(List.of(), takeLog());
        assertEquals(2, world.fixedStepCount());
    }

    @Test
    void nominalFrameTimeIsConfigurable() {
        world = World.create(WorldConfig.defaults().nominalFrameTime(0.5));
        assertEquals(0.5, world.getNominalFrameTime());
        world.setNominalFrameTime(0.25);
        assertEquals(0.25, world.getNominalFrameTime());
        assertThrows(IllegalArgumentException.class, () -> world.setNominalFrameTime(0));
        assertThrows(IllegalArgumentException.class, () -> world.setNominalFrameTime(Double.NaN));
        assertEquals(0.25, world.getNominalFrameTime());
    }

    // ---------------------------------------------------------------- cost and replacement

    @Test
    void aSteadyFrameAllocatesNothing() {
        int[] runs = new int[1];
        for (int i = 0; i < 100; i++) {
            SystemConfig config = SystemConfig.named("s" + i).phase(i % 2 == 0 ? Phases.UPDATE : Phases.FIXED_UPDATE)
                    .run((dt, w) -> runs[0]++);
            if (i % 10 == 0) {
                config = config.runIf(RunIf.both(RunIf.every(0.05), RunIf.negate(RunIf.cooldown(0.2))));
            }
            if (i > 0 && i % 7 == 0) {
                config = config.after("s" + (i - 7));
            }
            world.addSystem(config);
        }
        for (int i = 0; i < 2000; i++) {
            world.update(1 / 60.0);
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().threadId();
        long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < 1000; i++) {
            world.update(1 / 60.0);
        }
        long bytes = threads.getThreadAllocatedBytes(thread) - before;
        assertTrue(runs[0] > 100_000);
        assertTrue(bytes < 1024, "1000 frames of 100 systems allocated " + bytes + " bytes");
    }

    /** A pipeline that records which calls reach it and forwards them to a default scheduler. */
    static final class RecordingPipeline implements Pipeline {
        final List<String> calls = new ArrayList<>();
        final Scheduler inner;

        RecordingPipeline(World world, DispatchScope scope) {
            inner = new Scheduler(world, scope);
        }

        @Override
        public void update(double dt) {
            calls.add("update " + dt);
            inner.update(dt);
        }

        @Override
        public void run(PhaseSelection selection, double dt) {
            calls.add("run " + selection + " " + dt);
            inner.run(selection, dt);
        }

        @Override
        public String addSystem(SystemConfig config) {
            calls.add("addSystem " + config.name());
            return inner.addSystem(config);
        }

        @Override
        public boolean removeSystem(String name) {
            calls.add("removeSystem " + name);
            return inner.removeSystem(name);
        }

        @Override
        public boolean setSystemEnabled(String name, boolean enabled) {
            calls.add("setSystemEnabled " + name + " " + enabled);
            return inner.setSystemEnabled(name, enabled);
        }

        @Override
        public List<SystemInfo> listSystems() {
            calls.add("listSystems");
            return inner.listSystems();
        }

        @Override
        public int systemCount() {
            calls.add("systemCount");
            return inner.systemCount();
        }

        @Override
        public void registerPhase(PhaseDefinition definition) {
            calls.add("registerPhase " + definition.phase());
            inner.registerPhase(definition);
        }

        @Override
        public void enablePhase(PhaseSelection selection) {
            calls.add("enablePhase " + selection);
            inner.enablePhase(selection);
        }

        @Override
        public void disablePhase(PhaseSelection selection) {
            calls.add("disablePhase " + selection);
            inner.disablePhase(selection);
        }

        @Override
        public boolean isPhaseEnabled(Phase phase) {
            calls.add("isPhaseEnabled " + phase);
            return inner.isPhaseEnabled(phase);
        }

        @Override
        public void enqueueCommit() {
            calls.add("enqueueCommit");
            inner.enqueueCommit();
        }

        @Override
        public FixedTiming fixedTiming() {
            calls.add("fixedTiming");
            return inner.fixedTiming();
        }

        @Override
        public long fixedStepCount() {
            calls.add("fixedStepCount");
            return inner.fixedStepCount();
        }

        @Override
        public double fixedTimeDropped() {
            calls.add("fixedTimeDropped");
            return inner.fixedTimeDropped();
        }

        @Override
        public long fixedStepsDropped() {
            calls.add("fixedStepsDropped");
            return inner.fixedStepsDropped();
        }
    }

    @Test
    void aCustomPipelineReceivesEveryCall() {
        world = World.create(WorldConfig.defaults().pipelineFactory(RecordingPipeline::new));
        RecordingPipeline pipeline = assertInstanceOf(RecordingPipeline.class, world.pipeline());
        world.registerPhase(PhaseDefinition.leaf("game.P"));
        world.addSystem(SystemConfig.named("s").phase(Phase.of("game.P")).run((dt, w) -> w.enqueueCommit()));
        world.setSystemEnabled("s", true);
        world.disablePhase(Phases.RENDER);
        world.enablePhase(PhaseGroup.RENDER);
        world.isPhaseEnabled(Phases.RENDER);
        world.runPhase(Phase.of("game.P"), 0.5);
        world.update(0.25);
        world.startup();
        world.shutdown();
        world.listSystems();
        world.getFixedTiming();
        world.fixedStepCount();
        world.getStats(null);
        world.removeSystem("s");
        world.spawn(MARKER);
        world.update(0);
        assertEquals(List.of("addSystem jtecs.SnapshotTransforms", "addSystem jtecs.TTL", // builtins, at creation
                "addSystem jtecs.RelativeTransform2D", "registerPhase game.P", "addSystem s", "setSystemEnabled s true", "disablePhase Render",
                "enablePhase RENDER", "isPhaseEnabled Render", "run game.P 0.5", "enqueueCommit", "update 0.25",
                "run STARTUP 0.0", "run SHUTDOWN 0.0", "listSystems", "fixedTiming", "fixedStepCount",
                "systemCount", "fixedTimeDropped", "fixedStepsDropped", "removeSystem s", "update 0.0"),
                pipeline.calls);
        assertEquals(List.of(), world.dirtyArchetypes(), "the world clears dirty bits after a custom update too");
    }

    @Test
    void theDefaultPipelineIsAScheduler() {
        assertInstanceOf(Scheduler.class, world.pipeline());
        assertSame(PipelineFactory.DEFAULT, WorldConfig.defaults().pipelineFactory());
    }

    @Test
    void aClosedWorldRefusesScheduling() {
        world.close();
        assertThrows(IllegalStateException.class, () -> world.update(0));
        assertThrows(IllegalStateException.class, () -> world.addSystem(SystemConfig.unnamed()));
        assertThrows(IllegalStateException.class, () -> world.listSystems());
    }

    @Test
    void closingTheWorldFromASystemIsRefused() {
        world.addSystem(SystemConfig.named("closer").run((dt, w) -> w.close()));
        add("after", Phases.UPDATE, "closer");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> world.update(0));
        assertTrue(e.getMessage().contains("cannot be closed"), e.getMessage());
        assertFalse(world.isClosed(), "close it after update returns");
        world.removeSystem("closer");
        world.update(0);
        assertEquals(List.of("after"), takeLog());
    }

    // ---------------------------------------------------------------- parallel groups and their barriers

    /** A world with two system threads and no builtin systems, closed by the caller. */
    private static World parallelWorld() {
        return withoutBuiltins(World.create(WorldConfig.defaults().systemThreads(2)));
    }

    private static dev.jtecs.query.Query markers(World w) {
        return w.newQuery(QueryDescriptor.builder().include(MARKER).build());
    }

    /** A parallel system with {@code commitBefore} sees what the systems before it staged, published. */
    @Test
    void aParallelSystemCommittingBeforeSeesWhatWasStagedBeforeIt() {
        try (World w = parallelWorld()) {
            dev.jtecs.query.Query markers = markers(w);
            List<Integer> seen = java.util.Collections.synchronizedList(new ArrayList<>());
            w.addSystem(SystemConfig.named("maker").run((dt, world) -> world.spawn(MARKER)));
            w.addSystem(SystemConfig.named("counter").after("maker").commitBefore()
                    .parallel(markers, (dt, archetypes, commands) -> seen.add(rows(archetypes))));
            w.update(0.1);
            w.update(0.1);
            assertEquals(List.of(1, 2), seen);
        }
    }

    /**
     * A parallel member with {@code commitAfter}, or whose run condition asks for a commit, ends its group with a
     * barrier: the next system sees the group's commands published.
     */
    @Test
    void aParallelGroupEndsWithABarrierWhenAMemberCommitsAfterOrItsConditionAsks() {
        for (boolean byCondition : new boolean[] {false, true}) {
            try (World w = parallelWorld()) {
                dev.jtecs.query.Query markers = markers(w);
                List<Integer> seen = new ArrayList<>();
                SystemConfig spawner = SystemConfig.named("spawner")
                        .parallel(null, (dt, archetypes, commands) -> commands.spawn(MARKER));
                spawner = byCondition ? spawner.runIf((dt, world, name) -> {
                    world.enqueueCommit();
                    return true;
                }) : spawner.commitAfter();
                w.addSystem(spawner);
                w.addSystem(SystemConfig.named("counter").after("spawner")
                        .run((dt, world) -> seen.add(markers.count())));
                w.update(0.1);
                assertEquals(List.of(1), seen, byCondition ? "asked by the run condition" : "commitAfter");
            }
        }
    }

    /** A disabled parallel system between two others is passed over; the two still run, once each, together. */
    @Test
    void aDisabledParallelSystemInAGroupIsPassedOver() {
        try (World w = parallelWorld()) {
            List<String> ran = java.util.Collections.synchronizedList(new ArrayList<>());
            for (String name : List.of("p1", "p2", "p3")) {
                w.addSystem(SystemConfig.named(name).parallel(null, (dt, archetypes, commands) -> ran.add(name)));
            }
            assertTrue(w.setSystemEnabled("p2", false));
            w.update(0.1);
            List<String> sorted = new ArrayList<>(ran);
            java.util.Collections.sort(sorted);
            assertEquals(List.of("p1", "p3"), sorted);
        }
    }

    private static int rows(List<dev.jtecs.storage.Archetype> archetypes) {
        int rows = 0;
        for (dev.jtecs.storage.Archetype archetype : archetypes) {
            rows += archetype.count();
        }
        return rows;
    }
}
