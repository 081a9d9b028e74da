package dev.jtecs.schedule;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.event.ArchetypeCreated;
import dev.jtecs.event.OnDespawn;
import dev.jtecs.event.OnSpawn;
import dev.jtecs.mutation.PartitionConflicts;
import dev.jtecs.mutation.PartitionDimension;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.snapshot.SnapshotOptions;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.DoubleColumn;
import dev.jtecs.storage.EntityObserver;
import dev.jtecs.storage.IntColumn;
import dev.jtecs.testing.WorldState;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Parallel systems: grouping by read and write sets, worker threads, per-worker command buffers applied in system
 * order, failures, and byte-identical results for 1, 2, 3 and 8 threads with random pauses.
 */
class ParallelSystemsTest {
    static final ScalarComponent.OfDouble POS = Components.scalar("test.par.Pos", 0.0);
    static final ScalarComponent.OfDouble VEL = Components.scalar("test.par.Vel", 1.0);
    static final ScalarComponent.OfInt HP = Components.scalar("test.par.Hp", 10);
    static final ScalarComponent.OfInt AGE = Components.scalar("test.par.Age", 0);
    static final TagComponent CALM = Components.tag("test.par.Calm");
    static final TagComponent ALERT = Components.tag("test.par.Alert");
    static final TagComponent PANIC = Components.tag("test.par.Panic");
    static final TagComponent MARKED = Components.tag("test.par.Marked");
    static final PartitionDimension MOOD = PartitionDimension.variants("par.mood", CALM, ALERT, PANIC);
    static final PartitionDimension MARK = PartitionDimension.presence("par.mark", MARKED);

    /** What one run leaves: the full state dump, a binary snapshot and the event log. */
    record Outcome(String state, byte[] binary, List<String> events) {}

    @Test
    void theSameWorkloadGivesIdenticalStateSnapshotsAndEventsOnOneTwoThreeAndEightThreads() {
        for (long seed : new long[] {1, 7, 20261202}) {
            Outcome one = run(1, seed, true);
            for (int threads : new int[] {2, 3, 8}) {
                Outcome other = run(threads, seed, true);
                assertEquals(one.state(), other.state(), threads + " threads, seed " + seed);
                assertArrayEquals(one.binary(), other.binary(), threads + " threads, seed " + seed);
                assertEquals(one.events(), other.events(), threads + " threads, seed " + seed);
            }
            assertTrue(one.events().size() > 100, "the workload spawns, despawns and moves: " + one.events().size());
        }
    }

    @Test
    void theParallelResultIsTheResultOfTheSameSystemsRunOneAfterAnotherWithDeferredCommands() {
        Outcome parallel = run(3, 5, false);
        Outcome sequential = runSequentialTwin(5);
        // the dumps differ only in the list of registered systems (four parallel ones, or the one twin)
        assertEquals(withoutSystems(sequential.state()), withoutSystems(parallel.state()));
        assertTrue(parallel.state().contains("systems=[move, age, hurt, cull]"));
        assertEquals(sequential.events(), parallel.events());
    }

    private static String withoutSystems(String state) {
        return state.replaceFirst("systems=\\[[^]]*]", "systems=?");
    }

    /**
     * Four systems: move (reads VEL, writes POS), age (writes AGE, switches the mood partition), hurt (writes HP)
     * and cull (reads HP: conflicts with hurt, so it runs in a group of its own after it), which despawns the dead
     * and spawns a replacement.
     */
    private static List<SystemConfig> workload(Query all, boolean pauses) {
        List<SystemConfig> systems = new ArrayList<>();
        systems.add(SystemConfig.named("move").reads(VEL).writes(POS).parallel(all, (dt, archetypes, commands) -> {
            pause(pauses);
            for (Archetype a : archetypes) {
                DoubleColumn pos = a.get(POS);
                DoubleColumn vel = a.get(VEL);
                for (int row = 0; row < a.count(); row++) {
                    pos.set(row, pos.get(row) + vel.get(row) * dt);
                }
            }
        }));
        systems.add(SystemConfig.named("age").writes(AGE).parallel(all, (dt, archetypes, commands) -> {
            pause(pauses);
            for (Archetype a : archetypes) {
                IntColumn age = a.get(AGE);
                for (int row = 0; row < a.count(); row++) {
                    int now = age.get(row) + 1;
                    age.set(row, now);
                    long id = a.entity(row);
                    if (now % 3 == 0) {
                        commands.setTag(id, a.has(CALM) ? ALERT : a.has(ALERT) ? PANIC : CALM);
                    }
                    if (now % 4 == 0) {
                        if (a.has(MARKED)) {
                            commands.unsetTag(id, MARKED);
                        } else {
                            commands.setTag(id, MARKED);
                        }
                    }
                }
            }
        }));
        systems.add(SystemConfig.named("hurt").reads(AGE).writes(HP).parallel(all, (dt, archetypes, commands) -> {
            pause(pauses);
            for (Archetype a : archetypes) {
                IntColumn hp = a.get(HP);
                for (int row = 0; row < a.count(); row++) {
                    long id = a.entity(row);
                    hp.set(row, hp.get(row) - (int) ((id * 31 + a.get(AGE).get(row)) % 5));
                }
            }
        }));
        systems.add(SystemConfig.named("cull").reads(HP).parallel(all, (dt, archetypes, commands) -> {
            pause(pauses);
            for (Archetype a : archetypes) {
                IntColumn hp = a.get(HP);
                for (int row = 0; row < a.count(); row++) {
                    if (hp.get(row) <= 0) {
                        commands.despawn(a.entity(row));
                        commands.spawn(POS.of(row), VEL.of(2.0), HP.of(12), AGE, CALM);
                    }
                }
            }
        }));
        return systems;
    }

    private static void pause(boolean pauses) {
        if (!pauses) {
            return;
        }
        int r = ThreadLocalRandom.current().nextInt(4);
        if (r == 0) {
            Thread.onSpinWait();
        } else if (r == 1) {
            for (int i = ThreadLocalRandom.current().nextInt(20_000); i > 0; i--) {
                Thread.onSpinWait(); // a longer pause of random length, without giving up the thread
            }
        } else if (r == 2) {
            Thread.yield();
        }
    }

    private static World populated(int threads, long seed, List<String> events) {
        World world = World.create(WorldConfig.defaults().systemThreads(threads)
                .partitionConflicts(PartitionConflicts.HIGHEST_WINS));
        world.declarePartition(MOOD);
        world.declarePartition(MARK);
        world.observe(0, OnSpawn.class, e -> events.add("spawn " + e.entity()));
        world.observe(0, ArchetypeCreated.class, created -> created.archetype().addEntityObserver(
                new EntityObserver() {
                    @Override
                    public void onEntitiesAdded(Archetype archetype, int fromRow, int toRow, Archetype other) {
                        events.add("added " + (toRow - fromRow) + (other == null ? "" : " moved"));
                    }

                    @Override
                    public void onEntitiesRemoved(Archetype archetype, int fromRow, int toRow, Archetype other) {
                        events.add("removed " + (toRow - fromRow) + (other == null ? " despawned" : ""));
                    }
                }));
        java.util.Random random = new java.util.Random(seed);
        for (int i = 0; i < 600; i++) {
            world.spawn(POS.of(random.nextInt(100)), VEL.of(random.nextInt(5)),
                    HP.of(5 + random.nextInt(30)), AGE.of(random.nextInt(3)),
                    random.nextBoolean() ? CALM : ALERT);
        }
        return world;
    }

    private static Outcome run(int threads, long seed, boolean pauses) {
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        try (World world = populated(threads, seed, events)) {
            dev.jtecs.builtin.systems.BuiltinSystems.remove(world);
            world.observe(0, OnDespawn.class, e -> events.add("despawn " + e.entity()));
            Query all = world.newQuery(QueryDescriptor.builder().include(POS, VEL, HP, AGE).build());
            for (SystemConfig system : workload(all, pauses)) {
                world.addSystem(system);
            }
            for (int frame = 0; frame < 12; frame++) {
                world.update(1 / 60.0);
                events.add("frame " + frame);
            }
            return new Outcome(WorldState.of(world, all), world.saveSnapshot(SnapshotOptions.binary()).toByteArray(),
                    List.copyOf(events));
        }
    }

    /** The same four bodies, called one after another on the world's thread with their commands applied after. */
    private static Outcome runSequentialTwin(long seed) {
        List<String> events = new ArrayList<>();
        try (World world = populated(1, seed, events)) {
            dev.jtecs.builtin.systems.BuiltinSystems.remove(world);
            world.observe(0, OnDespawn.class, e -> events.add("despawn " + e.entity()));
            Query all = world.newQuery(QueryDescriptor.builder().include(POS, VEL, HP, AGE).build());
            List<SystemConfig> systems = workload(all, false);
            world.addSystem(SystemConfig.named("twin").run((dt, w) -> {
                for (SystemConfig system : systems) {
                    SystemCommands commands = new SystemCommands();
                    List<Archetype> archetypes = all.archetypes().stream().filter(a -> a.count() > 0).toList();
                    system.parallelBody().run(dt, archetypes, commands);
                    for (Archetype a : archetypes) {
                        for (var write : system.writes()) {
                            a.markComponentDirty(write);
                        }
                    }
                    ParallelSystems.applyRange(w, commands, 0, commands.size());
                }
            }));
            for (int frame = 0; frame < 12; frame++) {
                world.update(1 / 60.0);
                events.add("frame " + frame);
            }
            return new Outcome(WorldState.of(world, all), null, List.copyOf(events));
        }
    }

    @Test
    void deterministicSubmissionAppliesWorkerCommandsBySystemThenPositionWhateverFinishesFirst() {
        for (int threads : new int[] {1, 2, 8}) {
            List<Integer> spawned = new ArrayList<>();
            CountDownLatch fastDone = new CountDownLatch(1);
            try (World world = World.create(WorldConfig.defaults().systemThreads(threads))) {
                List<Long> ids = new ArrayList<>();
                world.observe(0, OnSpawn.class, e -> ids.add(e.entity())); // in the order the spawns were applied
                world.addSystem(SystemConfig.named("slow").writes(POS).parallel(null, (dt, a, commands) -> {
                    if (threads > 1) { // with a worker of its own, it finishes after the second system, surely
                        try {
                            if (!fastDone.await(10, TimeUnit.SECONDS)) {
                                throw new IllegalStateException("the second system never ran beside this one");
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    commands.spawn(HP.of(1));
                    commands.spawn(HP.of(2));
                }));
                world.addSystem(SystemConfig.named("fast").writes(VEL).parallel(null, (dt, a, commands) -> {
                    commands.spawn(HP.of(3));
                    fastDone.countDown();
                }));
                world.update(0.1);
                for (long id : ids) {
                    spawned.add(world.get(id, HP));
                }
            }
            assertEquals(List.of(1, 2, 3), spawned, threads + " threads");
        }
    }

    @Test
    void independentSystemsRunAtTheSameTimeOnWorkerThreads() throws Exception {
        CyclicBarrier meet = new CyclicBarrier(2);
        List<Thread> ran = Collections.synchronizedList(new ArrayList<>());
        try (World world = World.create(WorldConfig.defaults().systemThreads(2))) {
            ParallelBody body = (dt, archetypes, commands) -> {
                ran.add(Thread.currentThread());
                try {
                    meet.await(10, TimeUnit.SECONDS); // both must be running at once to pass
                } catch (Exception e) {
                    throw new IllegalStateException("the other system did not run beside this one", e);
                }
            };
            world.addSystem(SystemConfig.named("a").writes(POS).parallel(null, body));
            world.addSystem(SystemConfig.named("b").writes(VEL).parallel(null, body));
            world.update(0.1);
        }
        assertEquals(2, ran.size());
        assertNotSame(ran.get(0), ran.get(1));
        assertFalse(ran.contains(Thread.currentThread()), "bodies never run on the world's thread");
    }

    @Test
    void conflictingSystemsRunInSeparateGroupsSoTheReaderSeesTheWriter() {
        try (World world = World.create(WorldConfig.defaults().systemThreads(8))) {
            for (int i = 0; i < 2_000; i++) {
                world.spawn(POS.of(0), VEL.of(0));
            }
            Query q = world.newQuery(QueryDescriptor.builder().include(POS, VEL).build());
            world.addSystem(SystemConfig.named("write").writes(POS).parallel(q, (dt, archetypes, commands) -> {
                for (Archetype a : archetypes) {
                    for (int row = 0; row < a.count(); row++) {
                        a.get(POS).set(row, a.get(POS).get(row) + 1);
                    }
                }
            }));
            world.addSystem(SystemConfig.named("copy").reads(POS).writes(VEL).parallel(q, (dt, archetypes, c) -> {
                for (Archetype a : archetypes) {
                    for (int row = 0; row < a.count(); row++) {
                        a.get(VEL).set(row, a.get(POS).get(row));
                    }
                }
            }));
            for (int frame = 1; frame <= 20; frame++) {
                world.update(0.1);
                Archetype a = q.archetypes().get(0);
                for (int row = 0; row < a.count(); row++) {
                    assertEquals(frame, a.get(VEL).get(row), 0.0, "copy ran after write");
                }
            }
        }
    }

    @Test
    void declaredWritesAreMarkedDirtyOnTheWorldsThread() {
        try (World world = World.create(WorldConfig.defaults().systemThreads(2))) {
            long id = world.spawn(POS.of(0), VEL.of(0));
            Query q = world.newQuery(QueryDescriptor.builder().include(POS).build());
            List<String> dirtyInLater = new ArrayList<>();
            world.addSystem(SystemConfig.named("w").writes(POS).parallel(q, (dt, archetypes, commands) -> { }));
            world.addSystem(SystemConfig.named("look").phase(Phases.POST_UPDATE)
                    .run((dt, w) -> dirtyInLater.add(w.archetypeOf(id).isComponentDirty(POS) + " "
                            + w.archetypeOf(id).isComponentDirty(VEL))));
            world.update(0.1); // the spawn's values are new this frame: both dirty
            world.update(0.1); // an update ends by clearing every mark: now only the declared write marks
            assertEquals(List.of("true true", "true false"), dirtyInLater);
        }
    }

    @Test
    void aBodyThatCallsTheWorldFailsOnEveryThreadCount() {
        for (int threads : new int[] {1, 4}) {
            try (World world = World.create(WorldConfig.defaults().systemThreads(threads))) {
                world.addSystem(SystemConfig.named("rude").parallel(null, (dt, a, c) -> world.spawn()));
                assertThrows(WrongThreadException.class, () -> world.update(0.1));
                assertEquals(0, world.entityCount());
            }
        }
    }

    @Test
    void theFirstFailureInSystemOrderIsThrownAndOnlyTheCommandsBeforeItApply() {
        try (World world = World.create(WorldConfig.defaults().systemThreads(3))) {
            long a = world.spawn(POS.of(0));
            long b = world.spawn(POS.of(0));
            long c = world.spawn(POS.of(0));
            world.addSystem(SystemConfig.named("s1").writes(POS).parallel(null, (dt, x, cmd) -> cmd.despawn(a)));
            world.addSystem(SystemConfig.named("s2").writes(VEL).parallel(null, (dt, x, cmd) -> {
                cmd.despawn(b);
                throw new IllegalStateException("s2 failed");
            }));
            world.addSystem(SystemConfig.named("s3").writes(HP).parallel(null, (dt, x, cmd) -> {
                cmd.despawn(c);
                throw new IllegalArgumentException("s3 failed");
            }));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> world.update(0.1));
            assertEquals("s2 failed", e.getMessage());
            assertEquals(1, e.getSuppressed().length);
            world.commit();
            world.unwind();
            world.enqueueCommit();
            assertFalse(world.isAlive(a), "s1 came before the failure: applied (published by the next commit)");
            assertTrue(world.isAlive(b) && world.isAlive(c), "the failing system's and later commands are dropped");
            world.removeSystem("s2");
            world.removeSystem("s3");
            world.update(0.1); // the world and its workers stay usable
        }
    }

    @Test
    void commandsOnEntitiesThatDiedMeanwhileAreSkipped() {
        try (World world = World.create(WorldConfig.defaults().systemThreads(2))) {
            long a = world.spawn(POS.of(0));
            world.addSystem(SystemConfig.named("s1").writes(POS).parallel(null, (dt, x, cmd) -> cmd.despawn(a)));
            world.addSystem(SystemConfig.named("s2").writes(VEL).parallel(null, (dt, x, cmd) -> cmd.set(a, HP.of(1))));
            world.update(0.1); // s2's request meets a despawn staged by s1: remove wins
            assertFalse(world.isAlive(a));
            world.update(0.1); // both requests now name a dead entity: skipped
            assertFalse(world.isAlive(a));
        }
    }

    @Test
    void runConditionsAreAskedOnTheWorldsThreadInOrderBeforeTheGroup() {
        List<String> asked = new ArrayList<>();
        List<String> ran = Collections.synchronizedList(new ArrayList<>());
        try (World world = World.create(WorldConfig.defaults().systemThreads(2))) {
            world.addSystem(SystemConfig.named("yes").writes(POS).runIf((dt, w, name) -> {
                asked.add(name + " on " + (Thread.currentThread() == w.owner()));
                return true;
            }).parallel(null, (dt, x, c) -> ran.add("yes")));
            world.addSystem(SystemConfig.named("no").writes(VEL).runIf((dt, w, name) -> {
                asked.add(name + " on " + (Thread.currentThread() == w.owner()));
                return false;
            }).parallel(null, (dt, x, c) -> ran.add("no")));
            world.update(0.1);
        }
        assertEquals(List.of("yes on true", "no on true"), asked);
        assertEquals(List.of("yes"), ran);
    }

    @Test
    void aParallelSystemIsRegisteredOnlyWithItsOwnWorldsQueryAndItsBodyIsNotReplaceable() {
        try (World world = World.create(); World other = World.create()) {
            Query foreign = other.newQuery(QueryDescriptor.builder().include(POS).build());
            assertThrows(IllegalArgumentException.class,
                    () -> world.addSystem(SystemConfig.named("x").parallel(foreign, (dt, a, c) -> { })));
            world.addSystem(SystemConfig.named("p").parallel(null, (dt, a, c) -> { }));
            assertThrows(IllegalArgumentException.class, () -> world.replaceSystemBody("p", (dt, w) -> { }));
        }
    }

    /** Every kind of command a body can give lands once the group is over. */
    @Test
    void everyKindOfCommandLands() {
        try (World world = World.create(WorldConfig.defaults().systemThreads(2))) {
            world.declarePartition(MOOD);
            world.declarePartition(MARK);
            long a = world.spawn(POS.of(0), HP.of(1), CALM, MARKED);
            long b = world.spawn(POS.of(0));
            world.addSystem(SystemConfig.named("all").writes(HP).parallel(null, (dt, x, cmd) -> {
                cmd.set(a, HP.of(5));
                cmd.remove(a, POS);
                cmd.unsetTag(a, MARKED);
                cmd.setTag(a, PANIC);
                cmd.despawn(b);
                cmd.spawn(AGE.of(7));
            }));
            world.update(0.1);
            assertEquals(5, world.get(a, HP));
            assertFalse(world.has(a, POS));
            assertFalse(world.has(a, MARKED));
            assertFalse(world.has(a, CALM), "the mood's other variant gave way");
            assertTrue(world.has(a, PANIC));
            assertFalse(world.isAlive(b));
            assertEquals(2, world.entityCount());
            assertEquals(1, world.newQuery(QueryDescriptor.builder().include(AGE).build()).count());
        }
    }

    /**
     * A group larger than the runner's first room (eight members), then one of exactly eight: every member runs
     * once, and each body is handed only archetypes that hold rows.
     */
    @Test
    void largeGroupsRunEveryMemberAndBodiesSeeOnlyArchetypesWithRows() {
        for (int members : new int[] {11, 8}) {
            try (World world = World.create(WorldConfig.defaults().systemThreads(3))) {
                long gone = world.spawn(POS.of(0), CALM);
                world.spawn(POS.of(0));
                world.despawn(gone); // POS + CALM stays matched, empty
                Query q = world.newQuery(QueryDescriptor.builder().include(POS).build());
                assertEquals(2, q.archetypes().size());
                List<String> seen = Collections.synchronizedList(new ArrayList<>());
                for (int i = 0; i < members; i++) {
                    String name = "m" + i;
                    world.addSystem(SystemConfig.named(name).parallel(q, (dt, archetypes, cmd) -> {
                        for (Archetype archetype : archetypes) {
                            assertTrue(archetype.count() > 0, name + " was handed an empty archetype");
                        }
                        seen.add(name + ":" + archetypes.size());
                    }));
                }
                world.update(0.1);
                List<String> sorted = new ArrayList<>(seen);
                Collections.sort(sorted);
                List<String> expected = new ArrayList<>();
                for (int i = 0; i < members; i++) {
                    expected.add("m" + i + ":1");
                }
                Collections.sort(expected);
                assertEquals(expected, sorted, members + " members");
            }
        }
    }

    /**
     * The first member in system order failing keeps every later member's commands out, and a failure that is not
     * a runtime exception is wrapped in one that names the system.
     */
    @Test
    void aFailingFirstMemberKeepsEveryCommandOutAndACheckedFailureNamesItsSystem() {
        try (World world = World.create(WorldConfig.defaults().systemThreads(2))) {
            long a = world.spawn(POS.of(0));
            world.addSystem(SystemConfig.named("first").writes(POS).parallel(null, (dt, x, cmd) -> {
                throw ParallelSystemsTest.<RuntimeException>sneaky(new java.io.IOException("disk"));
            }));
            world.addSystem(SystemConfig.named("second").writes(VEL).parallel(null, (dt, x, cmd) -> cmd.despawn(a)));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> world.update(0.1));
            assertEquals("parallel system first failed", e.getMessage());
            assertTrue(e.getCause() instanceof java.io.IOException);
            world.commit();
            world.unwind();
            world.enqueueCommit();
            assertTrue(world.isAlive(a), "the member after the failing first one is not applied");
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T sneaky(Throwable t) throws T {
        throw (T) t;
    }

    /** The workers are daemon threads, and closing the world ends them. */
    @Test
    void theWorkersAreDaemonThreadsThatEndWhenTheWorldCloses() throws InterruptedException {
        List<Thread> workers = Collections.synchronizedList(new ArrayList<>());
        World world = World.create(WorldConfig.defaults().systemThreads(2));
        world.addSystem(SystemConfig.named("who").parallel(null, (dt, x, cmd) -> workers.add(Thread.currentThread())));
        world.update(0.1);
        assertEquals(1, workers.size());
        Thread worker = workers.get(0);
        assertTrue(worker.isDaemon());
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (worker.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
            Thread.onSpinWait(); // until it is parked, waiting for the next group: closing must wake it
        }
        world.close();
        worker.join(10_000);
        assertFalse(worker.isAlive(), "closing the world ended its worker");
    }

    /** A query whose every archetype is empty hands its body no archetype at all. */
    @Test
    void aQueryWithOnlyEmptyArchetypesHandsItsBodyNone() {
        try (World world = World.create(WorldConfig.defaults().systemThreads(2))) {
            world.despawn(world.spawn(POS.of(0))); // POS's archetype stays matched, empty
            Query q = world.newQuery(QueryDescriptor.builder().include(POS).build());
            assertEquals(1, q.archetypes().size());
            List<Integer> handed = Collections.synchronizedList(new ArrayList<>());
            world.addSystem(SystemConfig.named("empty").parallel(q, (dt, archetypes, cmd) -> handed.add(
                    archetypes.size())));
            world.update(0.1);
            assertEquals(List.of(0), handed);
        }
    }
}
