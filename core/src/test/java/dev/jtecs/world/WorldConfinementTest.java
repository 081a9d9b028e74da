package dev.jtecs.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.event.OnSpawn;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryCursor;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.schedule.Phases;
import dev.jtecs.schedule.Pipeline;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.testing.Intruder;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Thread confinement: a world, its scheduler, queries, cursors and resources answer only their owner thread;
 * the owner hands the world on explicitly ({@code transferTo}, {@code release}/{@code claim}); archetype and
 * column reads stay open to worker threads.
 */
class WorldConfinementTest {
    record Position(float x, float y) {}

    static final NativeComponent<Position> POSITION = Components.registerNative(Position.class,
            o -> o.name("test.confinement.Position"));
    static final ScalarComponent.OfInt LEVEL = Components.scalar("test.confinement.Level", 1);

    /** World methods any thread may call: immutable settings, the owner hint, the name. */
    private static final Set<String> UNCHECKED = Set.of("owner", "config", "toString", "hashCode", "equals",
            "getClass", "notify", "notifyAll", "wait");

    private final World world = World.create();

    @AfterEach
    void tearDown() {
        world.claim(); // a test may leave the world released
        world.close();
    }

    /** Everything a misplaced call could disturb, as text. */
    private String state() {
        StringBuilder sb = new StringBuilder();
        sb.append("entities=").append(world.entityCount()).append(" pending=").append(world.hasPendingChanges())
                .append(" depth=").append(world.scopeDepth()).append(" archetypes=").append(world.archetypeCount())
                .append(" systems=").append(world.listSystems().size()).append(" states=").append(world.listStates())
                .append(" resources=").append(world.resources().size()).append(" bundles=")
                .append(world.getBundles().keySet()).append(" seed=").append(world.randomSeed())
                .append(" observers=").append(world.hasObservers(0, OnSpawn.class))
                .append(" frame=").append(world.getNominalFrameTime()).append(" closed=").append(world.isClosed());
        world.forEachArchetype(a -> {
            for (int row = 0; row < a.count(); row++) {
                sb.append(' ').append(Entity.toString(a.entity(row))).append('@').append(a.id()).append(':')
                        .append(row);
            }
        });
        return sb.toString();
    }

    private static final java.util.Map<Class<?>, Object> PRIMITIVES = java.util.Map.of(int.class, 1, long.class,
            1L, double.class, 0.5, float.class, 1f, boolean.class, true, byte.class, (byte) 1, short.class,
            (short) 1, char.class, 'x');

    /** Arguments for a reflective call: a harmless value per primitive, {@code null} for references. */
    private static Object[] defaults(Method method) {
        Class<?>[] types = method.getParameterTypes();
        Object[] args = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            args[i] = PRIMITIVES.get(types[i]); // null for every reference parameter
        }
        return args;
    }

    private static List<Method> publicInstanceMethods(Class<?> type, Set<String> excluded) {
        List<Method> methods = new ArrayList<>();
        for (Method method : type.getMethods()) {
            if (!Modifier.isStatic(method.getModifiers()) && !excluded.contains(method.getName())) {
                methods.add(method);
            }
        }
        methods.sort(Comparator.comparing(Method::toString)); // deterministic order
        return methods;
    }

    private void assertWrongThread(Throwable thrown, String what) {
        assertInstanceOf(WrongThreadException.class, thrown, what + " from another thread");
        String message = thrown.getMessage();
        assertTrue(message.contains(world.toString()), what + ": the message names the world: " + message);
        assertTrue(message.contains("'" + Thread.currentThread().getName() + "'"),
                what + ": the message names the owner: " + message);
        assertTrue(message.contains("'intruder'"), what + ": the message names the caller: " + message);
    }

    @Test
    void everyPublicWorldMethodRejectsAnotherThreadAndChangesNothing() throws Exception {
        long id = world.spawn(POSITION.of(new Position(1, 2)));
        world.defer();
        world.spawn(POSITION); // staged: a call that published would show
        String before = state();
        List<Method> methods = publicInstanceMethods(World.class, UNCHECKED);
        assertTrue(methods.size() > 90, "the sweep covers the whole surface: " + methods.size());
        for (Method method : methods) {
            Object[] args = defaults(method);
            Throwable thrown = Intruder.thrownBy(() -> method.invoke(world, args));
            assertWrongThread(thrown, method.toString());
            assertEquals(before, state(), method + " from another thread changed the world");
        }
        assertTrue(world.isAlive(id));
        world.commit();
        assertEquals(2, world.entityCount(), "the owner carries on");
    }

    @Test
    void schedulerRejectsAnotherThread() throws Exception {
        world.addSystem(SystemConfig.named("test.count").phase(Phases.UPDATE).run((dt, w) -> w.spawn(LEVEL)));
        Pipeline pipeline = world.pipeline();
        String before = state();
        for (Method method : publicInstanceMethods(Pipeline.class, UNCHECKED)) {
            Object[] args = defaults(method);
            assertWrongThread(Intruder.thrownBy(() -> method.invoke(pipeline, args)), "Pipeline." + method.getName());
            assertEquals(before, state(), method + " from another thread changed the world");
        }
        assertEquals(0L, pipeline.fixedStepCount());
        world.update(1 / 60.0);
        assertEquals(1, world.entityCount(), "the owner's update runs the system");
    }

    @Test
    void queriesAndCursorsRejectAnotherThread() throws Exception {
        world.spawn(POSITION);
        world.spawn(POSITION, LEVEL);
        Query query = world.newQuery(QueryDescriptor.builder().include(POSITION).build());
        Archetype archetype = world.archetypeOf(world.spawn(POSITION));
        String before = state();
        Set<String> unchecked = Set.of("descriptor", "name", "isTemporary", "belongsTo", "toString", "hashCode",
                "equals", "getClass", "notify", "notifyAll", "wait");
        for (Method method : publicInstanceMethods(Query.class, unchecked)) {
            Object[] args = defaults(method);
            if (method.getParameterCount() == 1 && method.getParameterTypes()[0] == Archetype.class) {
                args[0] = archetype;
            }
            assertWrongThread(Intruder.thrownBy(() -> method.invoke(query, args)), "Query." + method.getName());
            assertEquals(before, state(), method + " from another thread changed the world");
        }
        assertEquals(3, query.count());

        QueryCursor cursor = query.cursor();
        assertEquals(1, world.scopeDepth());
        assertWrongThread(Intruder.thrownBy(cursor::next), "QueryCursor.next");
        assertWrongThread(Intruder.thrownBy(cursor::close), "QueryCursor.close");
        assertEquals(1, world.scopeDepth(), "the cursor's scope is still open");
        assertTrue(cursor.next());
        cursor.close();
        assertEquals(0, world.scopeDepth());
    }

    @Test
    void resourcesRejectAnotherThread() throws Exception {
        Resources resources = world.resources();
        resources.put(String.class, "owned");
        for (Method method : publicInstanceMethods(Resources.class, UNCHECKED)) {
            Object[] args = defaults(method);
            assertWrongThread(Intruder.thrownBy(() -> method.invoke(resources, args)), "Resources." + method.getName());
        }
        assertEquals("owned", resources.get(String.class));
        assertEquals(1, resources.size());
    }

    @Test
    void closeFromAnotherThreadLeavesTheWorldOpen() throws Exception {
        long id = world.spawn(POSITION.of(new Position(3, 4)));
        assertWrongThread(Intruder.thrownBy(world::close), "close");
        assertFalse(world.isClosed());
        assertEquals(new Position(3, 4), world.get(id, POSITION), "native memory is still there");
    }

    @Test
    void transferToHandsTheWorldToAnotherThread() throws Exception {
        long id = world.spawn(POSITION);
        Thread main = Thread.currentThread();
        AtomicReference<Long> spawned = new AtomicReference<>();
        CountDownLatch transferred = new CountDownLatch(1);
        Thread worker = new Thread(() -> {
            try {
                transferred.await();
                spawned.set(world.spawn(LEVEL.of(7)));
                world.set(id, LEVEL.of(3));
                world.transferTo(main); // and back
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "worker");
        worker.start();
        world.transferTo(worker);
        assertSame(worker, world.owner());
        WrongThreadException e = assertThrows(WrongThreadException.class, world::entityCount);
        assertTrue(e.getMessage().contains("'worker'") && e.getMessage().contains("'" + main.getName() + "'"),
                e.getMessage());
        transferred.countDown(); // the latch orders the hand-off before the worker's calls
        worker.join();
        assertSame(main, world.owner());
        assertEquals(7, world.get(spawned.get(), LEVEL));
        assertEquals(3, world.get(id, LEVEL));
    }

    @Test
    void onlyTheOwnerMayHandTheWorldOn() throws Exception {
        Thread main = Thread.currentThread();
        assertWrongThread(Intruder.thrownBy(() -> world.transferTo(Thread.currentThread())), "transferTo");
        assertWrongThread(Intruder.thrownBy(world::release), "release");
        Throwable claimed = Intruder.thrownBy(world::claim);
        assertWrongThread(claimed, "claim");
        assertTrue(claimed.getMessage().startsWith("claim: " + world + " is confined to"), claimed.getMessage());
        Throwable called = Intruder.thrownBy(world::entityCount);
        assertTrue(called.getMessage().startsWith(world + " is confined to"), "no operation to name: "
                + called.getMessage());
        assertSame(main, world.owner());
        assertThrows(NullPointerException.class, () -> world.transferTo(null));
        assertSame(main, world.owner());
    }

    @Test
    void handOffIsRefusedFromRunningSystemsAndCallbacks() {
        Thread main = Thread.currentThread();
        Thread other = new Thread(() -> { }, "other");
        world.addSystem(SystemConfig.named("test.handoff").phase(Phases.UPDATE).run((dt, w) -> w.transferTo(other)));
        IllegalStateException inSystem = assertThrows(IllegalStateException.class, () -> world.update(0));
        assertTrue(inSystem.getMessage().contains("transferTo"), inSystem.getMessage());
        assertSame(main, world.owner());
        world.removeSystem("test.handoff");

        world.newQuery(QueryDescriptor.builder().include(LEVEL).onEntitiesAdded((a, from, to) -> world.release())
                .build());
        IllegalStateException inDrain = assertThrows(IllegalStateException.class, () -> world.spawn(LEVEL));
        assertTrue(inDrain.getMessage().contains("release"), inDrain.getMessage());
        assertSame(main, world.owner());
        assertEquals(1, world.entityCount(), "the row published before its callback threw stays");
    }

    @Test
    void aReleasedWorldAnswersNobodyUntilClaimed() throws Exception {
        long id = world.spawn(POSITION);
        world.release();
        assertNull(world.owner());
        WrongThreadException e = assertThrows(WrongThreadException.class, () -> world.isAlive(id));
        assertTrue(e.getMessage().contains("released"), e.getMessage());

        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Boolean> job = pool.submit(() -> {
                world.claim();
                boolean alive = world.isAlive(id);
                world.spawn(POSITION);
                world.release();
                return alive;
            });
            assertTrue(job.get(10, TimeUnit.SECONDS)); // the future orders the worker's writes before ours
        } finally {
            pool.shutdown();
        }
        world.claim();
        assertSame(Thread.currentThread(), world.owner());
        assertEquals(2, world.entityCount());
        world.claim(); // the owner claiming again: nothing happens
        assertSame(Thread.currentThread(), world.owner());
    }

    @Test
    void exactlyOneOfRacingClaimsWins() throws Exception {
        Thread main = Thread.currentThread();
        world.release();
        int threads = 6;
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger won = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        List<Thread> racers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread racer = new Thread(() -> {
                try {
                    start.await();
                    world.claim();
                    won.incrementAndGet();
                    world.transferTo(main); // the winner hands it back before it ends
                } catch (WrongThreadException e) {
                    refused.incrementAndGet();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "racer-" + i);
            racers.add(racer);
            racer.start();
        }
        start.countDown();
        for (Thread racer : racers) {
            racer.join();
        }
        assertEquals(1, won.get());
        assertEquals(threads - 1, refused.get());
        assertSame(main, world.owner());
    }

    @Test
    void workersReadArchetypesAndColumnsWithoutChecks() throws Exception {
        for (int i = 0; i < 100; i++) {
            world.spawn(POSITION.of(new Position(i, -i)));
        }
        Archetype archetype = world.archetypeOf(world.spawn(POSITION.of(new Position(100, -100))));
        FloatColumn x = archetype.get(POSITION.floatField("x"));
        double[] sum = new double[1];
        assertNull(Intruder.thrownBy(() -> {
            for (int row = 0; row < archetype.count(); row++) {
                sum[0] += x.get(row);
            }
        }));
        assertEquals(5050.0, sum[0]);
    }

    @Test
    void theMessageSaysHowToHandTheWorldOver() throws Exception {
        Throwable thrown = Intruder.thrownBy(() -> world.spawn(POSITION));
        assertWrongThread(thrown, "spawn");
        assertTrue(thrown.getMessage().contains("transferTo") && thrown.getMessage().contains("claim"),
                thrown.getMessage());
        assertTrue(Arrays.asList(thrown.getMessage().split(" ")).contains(world.toString()), thrown.getMessage());
    }

    @Test
    void aClosedWorldStillAnswersOnlyItsOwner() throws Exception {
        World closed = World.create();
        closed.close();
        assertThrows(IllegalStateException.class, closed::entityCount);
        assertInstanceOf(WrongThreadException.class, Intruder.thrownBy(closed::entityCount));
        assertTrue(closed.isClosed());
    }

    @Test
    void everyWorldHasItsOwnName() {
        try (World other = World.create()) {
            assertTrue(world.toString().startsWith("world#"));
            assertFalse(world.toString().equals(other.toString()));
        }
    }

    @Test
    void transferToIsAcceptedInsideAnIteration() {
        // issue 18, smaller item: transferTo accepted inside an iteration
        Thread main = Thread.currentThread();
        Thread other = new Thread(() -> { }, "other");
        world.spawn(LEVEL);
        Query query = world.newQuery(QueryDescriptor.builder().include(LEVEL).build());
        List<String> refused = new ArrayList<>();
        query.forEach((archetype, count) -> {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> world.transferTo(other));
            refused.add(e.getMessage());
            assertThrows(IllegalStateException.class, world::release);
        });
        try (QueryCursor cursor = query.cursor()) {
            while (cursor.next()) {
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> world.transferTo(other));
                refused.add(e.getMessage());
            }
        }
        world.observe(Entity.WORLD, String.class, event -> {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> world.transferTo(other));
            refused.add(e.getMessage());
        });
        world.emit(Entity.WORLD, "ping");
        assertEquals(3, refused.size());
        assertTrue(refused.get(0).contains("transferTo") && refused.get(0).contains("iteration"), refused.get(0));
        assertSame(main, world.owner(), "the owner never changed");
        assertEquals(0, world.scopeDepth());

        QueryCursor leaked = query.cursor();
        assertThrows(IllegalStateException.class, () -> world.transferTo(other));
        world.unwind(); // closes the leaked cursor's scope: the hand-off is allowed again
        world.transferTo(main);
        assertSame(main, world.owner());
        leaked.close();
    }
}
