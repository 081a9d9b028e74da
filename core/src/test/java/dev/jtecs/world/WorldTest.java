package dev.jtecs.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.Input;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.schedule.Pipeline;
import dev.jtecs.storage.Archetype;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WorldTest {
    record Position(float x, float y) {}

    record Velocity(float x, float y) {}

    record Inventory(List<String> items) {}

    static final class NoDefault {
        final int v;

        NoDefault(int v) {
            this.v = v;
        }
    }

    static final NativeComponent<Position> POSITION = Components.registerNative(Position.class);
    static final NativeComponent<Velocity> VELOCITY = Components.registerNative(Velocity.class);
    static final ManagedComponent<Inventory> INVENTORY = Components.registerManaged(Inventory.class);
    static final ManagedComponent<NoDefault> NO_DEFAULT = Components.registerManaged(NoDefault.class);
    static final ScalarComponent.OfDouble HEALTH = Components.scalar("test.world.Health", 100.0);
    static final TagComponent ENEMY = Components.tag("test.world.Enemy", o -> o.requires(HEALTH.of(50.0)));
    static final TagComponent BOSS = Components.tag("test.world.Boss", o -> o.requires(ENEMY, POSITION));
    static final TagComponent FROZEN = Components.tag("test.world.Frozen");
    static final TagComponent LOW = Components.tag("test.world.Low", o -> o.requires(HEALTH.of(1.0)));
    static final TagComponent HIGH = Components.tag("test.world.High", o -> o.requires(HEALTH.of(2.0)));

    record Strict(String name) {
        Strict {
            java.util.Objects.requireNonNull(name, "name");
        }
    }

    static final ManagedComponent<Strict> STRICT = Components.registerManaged(Strict.class);

    private final World world = World.create(WorldConfig.defaults().maxEntities(1 << 20));

    @AfterEach
    void tearDown() {
        world.close();
    }

    private static Position pos(float x, float y) {
        return new Position(x, y);
    }

    private long committed(Input... inputs) {
        long id = world.spawn(inputs);
        world.commit();
        return id;
    }

    /** A fingerprint of everything observable about a set of ids. */
    private String dump(long... ids) {
        StringBuilder sb = new StringBuilder();
        sb.append(world.entityCount()).append('|').append(world.archetypeCount()).append('|')
                .append(world.hasPendingChanges());
        for (long id : ids) {
            sb.append('|').append(world.isAlive(id));
            for (Component<?> c : List.of(POSITION, VELOCITY, INVENTORY, HEALTH, ENEMY, BOSS, FROZEN)) {
                sb.append(',').append(world.get(id, c));
            }
        }
        return sb.toString();
    }

    private void assertRejectedUnchanged(Executable call, long... ids) {
        String before = dump(ids);
        assertThrows(IllegalArgumentException.class, call::execute);
        assertEquals(before, dump(ids));
        world.commit();
    }

    // ------------------------------------------------------------------ spawn and visibility

    @Test
    void spawnReturnsIdAtOnceAndPublishesAtCommit() {
        world.defer();
        long id = world.spawn(POSITION.of(pos(1, 2)));
        assertTrue(id > 0);
        assertFalse(world.isAlive(id));
        assertFalse(world.has(id, POSITION));
        assertNull(world.get(id, POSITION));
        assertNull(world.archetypeOf(id));
        assertEquals(-1, world.rowOf(id));
        assertTrue(world.hasPendingChanges());
        world.commit();
        assertTrue(world.isAlive(id));
        assertEquals(pos(1, 2), world.get(id, POSITION));
        assertEquals(1, world.entityCount());
        assertFalse(world.hasPendingChanges());
    }

    @Test
    void everySpawnArityPlacesTheSameShape() {
        long none = world.spawn();
        long one = world.spawn(POSITION);
        long two = world.spawn(POSITION, VELOCITY);
        long three = world.spawn(POSITION, VELOCITY, FROZEN);
        long four = world.spawn(POSITION, VELOCITY, FROZEN, INVENTORY);
        world.commit();
        assertEquals(0, world.archetypeOf(none).components().size());
        assertEquals(1, world.archetypeOf(one).components().size());
        assertEquals(2, world.archetypeOf(two).components().size());
        assertEquals(3, world.archetypeOf(three).components().size());
        assertEquals(4, world.archetypeOf(four).components().size());
        assertEquals(new Inventory(null), world.get(four, INVENTORY));
    }

    @Test
    void definitionInputsTakeDefaults() {
        long id = committed(POSITION, HEALTH, FROZEN);
        assertEquals(pos(0, 0), world.get(id, POSITION));
        assertEquals(100.0, world.get(id, HEALTH));
        assertEquals(Boolean.TRUE, world.get(id, FROZEN));
        assertNull(world.get(id, VELOCITY));
    }

    @Test
    void duplicateInputsInOneSpawnKeepTheLast() {
        long id = committed(HEALTH.of(1.0), HEALTH.of(2.0));
        assertEquals(2.0, world.get(id, HEALTH));
    }

    // ------------------------------------------------------------------ set

    @Test
    void setWritesThroughWhenTheCommittedEntityHasTheComponent() {
        long id = committed(POSITION.of(pos(1, 1)));
        Archetype archetype = world.archetypeOf(id);
        archetype.clearDirtyComponents();
        world.set(id, POSITION.of(pos(5, 6)));
        assertEquals(pos(5, 6), world.get(id, POSITION), "visible before any commit");
        assertFalse(world.hasPendingChanges());
        assertTrue(archetype.isComponentDirty(POSITION));
    }

    @Test
    void setOfANewComponentStagesAndLaterValuesWaitToo() {
        long id = committed(POSITION.of(pos(1, 1)));
        world.defer();
        world.set(id, VELOCITY.of(new Velocity(3, 4)));
        assertFalse(world.has(id, VELOCITY));
        world.set(id, POSITION.of(pos(9, 9)));
        assertEquals(pos(1, 1), world.get(id, POSITION), "structure staged: the value waits for commit");
        world.commit();
        assertEquals(new Velocity(3, 4), world.get(id, VELOCITY));
        assertEquals(pos(9, 9), world.get(id, POSITION));
    }

    @Test
    void setOnAStagedSpawnUpdatesItsShape() {
        world.defer();
        long id = world.spawn(POSITION.of(pos(1, 1)));
        world.set(id, POSITION.of(pos(2, 2)));
        world.set(id, FROZEN);
        world.commit();
        assertEquals(pos(2, 2), world.get(id, POSITION));
        assertTrue(world.has(id, FROZEN));
    }

    @Test
    void setOnAStagedDespawnDoesNothing() {
        long id = committed(POSITION.of(pos(1, 1)));
        world.defer();
        world.despawn(id);
        world.set(id, VELOCITY);
        world.set(id, POSITION.of(pos(7, 7)));
        assertEquals(pos(1, 1), world.get(id, POSITION), "still alive and unchanged until commit");
        world.commit();
        assertFalse(world.isAlive(id));
    }

    @Test
    void lastStagedWriteWins() {
        long id = committed(FROZEN);
        world.defer();
        world.set(id, HEALTH.of(1.0));
        world.set(id, HEALTH.of(2.0));
        world.remove(id, HEALTH);
        world.set(id, HEALTH.of(3.0));
        world.commit();
        assertEquals(3.0, world.get(id, HEALTH));
    }

    // ------------------------------------------------------------------ remove

    @Test
    void removeStagesAMoveAndAbsentComponentsAreIgnored() {
        long id = committed(POSITION, FROZEN);
        world.defer();
        world.remove(id, VELOCITY);
        assertFalse(world.hasPendingChanges(), "removing an absent component stages nothing");
        world.remove(id, FROZEN);
        assertTrue(world.has(id, FROZEN), "removal waits for commit");
        world.commit();
        assertFalse(world.has(id, FROZEN));
        assertTrue(world.has(id, POSITION));
    }

    @Test
    void removeOnAStagedSpawnDropsItFromTheShape() {
        world.defer();
        long id = world.spawn(POSITION, FROZEN);
        world.remove(id, FROZEN);
        world.commit();
        assertFalse(world.has(id, FROZEN));
        assertTrue(world.has(id, POSITION));
    }

    @Test
    void removeThenAddOfTheSameComponentKeepsTheRowInPlace() {
        long id = committed(POSITION.of(pos(1, 1)), HEALTH.of(4.0));
        long other = committed(POSITION, HEALTH);
        Archetype archetype = world.archetypeOf(id);
        int row = world.rowOf(id);
        long structural = archetype.structuralCount();
        world.defer();
        world.remove(id, HEALTH);
        world.set(id, HEALTH.of(8.0));
        world.commit();
        assertSame(archetype, world.archetypeOf(id));
        assertEquals(row, world.rowOf(id));
        assertEquals(structural, archetype.structuralCount());
        assertEquals(8.0, world.get(id, HEALTH));
        assertEquals(100.0, world.get(other, HEALTH));
    }

    // ------------------------------------------------------------------ despawn

    @Test
    void despawnRemovesAtCommitAndStalesTheId() {
        long a = committed(POSITION.of(pos(1, 1)));
        long b = committed(POSITION.of(pos(2, 2)));
        world.defer();
        world.despawn(a);
        assertTrue(world.isAlive(a), "alive until commit");
        world.despawn(a);
        world.commit();
        assertFalse(world.isAlive(a));
        assertNull(world.get(a, POSITION));
        assertEquals(0, world.rowOf(b), "the last row moved into the hole");
        assertEquals(pos(2, 2), world.get(b, POSITION));
        long c = committed(FROZEN);
        assertEquals(Entity.slot(a), Entity.slot(c), "slots are recycled ...");
        assertNotEquals(a, c, "... with a new generation");
        assertFalse(world.isAlive(a));
    }

    @Test
    void despawnOfAStagedSpawnCancelsPlacement() {
        world.defer();
        long id = world.spawn(POSITION);
        world.despawn(id);
        world.set(id, HEALTH);
        world.commit();
        assertFalse(world.isAlive(id));
        assertEquals(0, world.entityCount());
        assertThrows(IllegalArgumentException.class, () -> world.set(id, HEALTH), "the id went stale");
    }

    @Test
    void despawnCancelsAStagedMove() {
        long id = committed(POSITION);
        world.defer();
        world.set(id, FROZEN);
        world.despawn(id);
        world.commit();
        assertFalse(world.isAlive(id));
        world.forEachArchetype(a -> assertEquals(0, a.count()));
    }

    // ------------------------------------------------------------------ requirements

    @Test
    void requirementsArriveTransitivelyWithTheirInputsAndCallerValuesWin() {
        long boss = committed(BOSS);
        assertTrue(world.has(boss, ENEMY));
        assertEquals(50.0, world.get(boss, HEALTH), "ENEMY requires HEALTH(50)");
        assertEquals(pos(0, 0), world.get(boss, POSITION));
        long strong = committed(BOSS, HEALTH.of(900.0));
        assertEquals(900.0, world.get(strong, HEALTH));
        long later = committed(HEALTH.of(7.0));
        world.set(later, ENEMY);
        world.commit();
        assertEquals(7.0, world.get(later, HEALTH), "an existing value wins over a required default");
    }

    @Test
    void competingRequirementsResolveInArgumentOrder() {
        long lowFirst = committed(LOW, HIGH);
        long highFirst = committed(HIGH, LOW);
        assertEquals(1.0, world.get(lowFirst, HEALTH));
        assertEquals(2.0, world.get(highFirst, HEALTH));
    }

    @Test
    void multiComponentChangesCreateOnlyTheFinalArchetype() {
        int before = world.archetypeCount();
        long id = committed(POSITION, VELOCITY, FROZEN, HEALTH);
        assertEquals(before + 1, world.archetypeCount(), "no intermediate archetypes for one spawn");
        world.defer();
        world.remove(id, FROZEN);
        world.remove(id, HEALTH);
        world.set(id, INVENTORY);
        world.commit();
        assertEquals(before + 2, world.archetypeCount(), "one move, one new archetype");
        long boss = committed(BOSS);
        assertEquals(before + 3, world.archetypeCount(), "requirements resolve before the lookup");
        assertTrue(world.has(boss, HEALTH));
    }

    // ------------------------------------------------------------------ bad input

    @Test
    void deadStaleAndMalformedIdsAreRejectedWithSlotAndGenerations() {
        long alive = committed(POSITION.of(pos(1, 1)));
        long dead = committed(FROZEN);
        world.despawn(dead);
        world.commit();
        long recycled = committed(FROZEN);
        String message = assertThrows(IllegalArgumentException.class, () -> world.set(dead, HEALTH)).getMessage();
        assertTrue(message.contains("slot=" + Entity.slot(dead)), message);
        assertTrue(message.contains("id generation=" + Entity.generation(dead)), message);
        assertTrue(message.contains("current generation=" + Entity.generation(recycled)), message);
        for (long bad : new long[] {dead, 0, -1, Long.MAX_VALUE, Entity.pack(999_999, 0)}) {
            assertRejectedUnchanged(() -> world.set(bad, HEALTH), alive, recycled);
            assertRejectedUnchanged(() -> world.remove(bad, FROZEN), alive, recycled);
            assertRejectedUnchanged(() -> world.despawn(bad), alive, recycled);
            assertRejectedUnchanged(() -> world.markComponentDirty(bad, FROZEN), alive, recycled);
            assertFalse(world.isAlive(bad));
            assertFalse(world.has(bad, FROZEN));
            assertNull(world.get(bad, FROZEN));
        }
    }

    @Test
    void spawnAtRejectsLiveIdsAndChangesNothing() {
        long alive = committed(POSITION.of(pos(1, 1)));
        long staged = world.spawn(FROZEN);
        assertRejectedUnchanged(() -> world.spawnAt(alive, HEALTH), alive);
        long sameSlot = Entity.pack(Entity.slot(alive), Entity.generation(alive) + 3);
        assertRejectedUnchanged(() -> world.spawnAt(sameSlot, HEALTH), alive);
        assertRejectedUnchanged(() -> world.spawnAt(staged, HEALTH), alive, staged);
        assertRejectedUnchanged(() -> world.spawnAt(0, HEALTH), alive);
        assertRejectedUnchanged(() -> world.spawnAt(Entity.pack((1 << 20) + 1, 0), HEALTH), alive);
    }

    @Test
    void spawnAtRevivesAChosenIdAndKeepsAllocationConsistent() {
        long chosen = Entity.pack(10, 4);
        world.defer();
        world.spawnAt(chosen, HEALTH.of(3.0));
        assertFalse(world.isAlive(chosen));
        world.commit();
        assertTrue(world.isAlive(chosen));
        assertEquals(3.0, world.get(chosen, HEALTH));
        List<Long> fresh = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            fresh.add(world.spawn());
        }
        world.commit();
        assertFalse(fresh.stream().anyMatch(id -> Entity.slot(id) == 10), "slot 10 is taken");
        world.despawn(chosen);
        world.commit();
        assertThrows(IllegalArgumentException.class, () -> world.spawnAt(Entity.pack(10, 0), FROZEN),
                "an older generation than the freed slot's would revive stale handles");
        assertThrows(IllegalArgumentException.class, () -> world.spawnAt(chosen, FROZEN));
        long reused = Entity.pack(10, 9);
        world.spawnAt(reused, FROZEN);
        world.commit();
        assertTrue(world.isAlive(reused), "a restored id may carry any later generation");
        assertFalse(world.isAlive(chosen));
    }

    @Test
    void nullsAndDefinitionsWithoutDefaultsAreRejectedBeforeAnythingIsReserved() {
        long alive = committed(FROZEN);
        assertThrows(NullPointerException.class, () -> world.spawn((Input) null));
        assertThrows(NullPointerException.class, () -> world.spawn((Input[]) null));
        assertThrows(NullPointerException.class, () -> world.set(alive, null));
        assertThrows(NullPointerException.class, () -> world.remove(alive, (Component<?>) null));
        assertRejectedUnchanged(() -> world.spawn(NO_DEFAULT), alive);
        assertRejectedUnchanged(() -> world.spawn(FROZEN, NO_DEFAULT), alive);
        assertRejectedUnchanged(() -> world.set(alive, NO_DEFAULT), alive);
        assertFalse(STRICT.hasDefault(), "its constructor rejects null arguments");
        assertRejectedUnchanged(() -> world.spawn(STRICT), alive);
        long next = world.spawn(NO_DEFAULT.of(new NoDefault(3)));
        world.commit();
        assertEquals(3, world.get(next, NO_DEFAULT).v);
        assertEquals(Entity.slot(alive) + 1, Entity.slot(next), "rejected spawns reserved no slot");
    }

    @Test
    void capacityIsEnforced() {
        try (World small = World.create(WorldConfig.defaults().maxEntities(2))) {
            small.spawn();
            small.spawn();
            assertThrows(IllegalStateException.class, small::spawn);
            small.commit();
            assertEquals(2, small.entityCount());
        }
    }

    // ------------------------------------------------------------------ reads and marks

    @Test
    void markComponentDirtyMarksOneColumn() {
        long id = committed(POSITION, HEALTH);
        Archetype archetype = world.archetypeOf(id);
        archetype.clearDirtyComponents();
        world.markComponentDirty(id, HEALTH);
        assertEquals(List.of(HEALTH), archetype.dirtyComponents());
        assertThrows(IllegalArgumentException.class, () -> world.markComponentDirty(id, FROZEN));
        long staged = world.spawn(HEALTH);
        world.markComponentDirty(staged, HEALTH); // placement will mark it: nothing to do yet
        assertEquals(List.of(HEALTH), archetype.dirtyComponents());
    }

    @Test
    void getReturnsACopyOfEveryKind() {
        long id = committed(POSITION.of(pos(1, 2)), INVENTORY.of(new Inventory(List.of("sword"))), HEALTH.of(3.5),
                FROZEN);
        assertEquals(pos(1, 2), world.get(id, POSITION));
        assertEquals(List.of("sword"), world.get(id, INVENTORY).items());
        assertEquals(3.5, world.get(id, HEALTH));
        assertEquals(Boolean.TRUE, world.get(id, FROZEN));
        assertNull(world.get(id, VELOCITY));
    }

    @Test
    void forEachArchetypeVisitsAllInRegistryOrderIncludingEmpty() {
        long a = committed(POSITION);
        committed(POSITION, VELOCITY);
        world.despawn(a);
        world.commit();
        List<Integer> ids = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        world.forEachArchetype(archetype -> {
            ids.add(archetype.id());
            counts.add(archetype.count());
        });
        assertEquals(world.archetypeCount(), ids.size());
        for (int i = 0; i < ids.size(); i++) {
            assertEquals(i, ids.get(i));
        }
        assertTrue(counts.contains(0), "emptied archetypes are still visited");
    }

    // ------------------------------------------------------------------ memory and lifetime

    @Test
    void spawningNativeEntitiesAllocatesNoPerEntityHeapObjects() {
        int n = 100_000;
        Input p = POSITION.of(pos(1, 2));
        Input v = VELOCITY.of(new Velocity(3, 4));
        long[] ids = new long[n];
        for (int round = 0; round < 3; round++) { // warm: arrays grown, code compiled
            world.defer();
            for (int i = 0; i < n; i++) {
                ids[i] = world.spawn(p, v);
            }
            world.commit();
            world.defer();
            for (long id : ids) {
                world.despawn(id);
            }
            world.commit();
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().threadId();
        long before = threads.getThreadAllocatedBytes(thread);
        world.defer();
        for (int i = 0; i < n; i++) {
            ids[i] = world.spawn(p, v);
        }
        world.commit();
        long bytes = threads.getThreadAllocatedBytes(thread) - before;
        assertEquals(n, world.entityCount());
        assertTrue(bytes < n, "spawning " + n + " native entities allocated " + bytes
                + " bytes: expected well under one byte per entity");
    }

    @Test
    void theInstantPathAllocatesNothingPerEntityEither() {
        Input p = POSITION.of(pos(1, 2));
        long[] ids = new long[20_000];
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < ids.length; i++) {
                ids[i] = world.spawn(p);
            }
            for (long id : ids) {
                world.despawn(id);
            }
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().threadId();
        long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < ids.length; i++) {
            ids[i] = world.spawn(p);
        }
        for (long id : ids) {
            world.despawn(id);
        }
        long bytes = threads.getThreadAllocatedBytes(thread) - before;
        assertTrue(bytes < ids.length, "20000 instant spawns and despawns allocated " + bytes + " bytes");
    }

    static final dev.jtecs.component.Relationship HELD_BY = dev.jtecs.component.Relationships.register(
            "test.world.HeldBy", o -> o.sparse().exclusive().reverseIndex().cascadeDelete());
    static final dev.jtecs.component.Relationship SEES = dev.jtecs.component.Relationships.register(
            "test.world.Sees", o -> o.sparse().reverseIndex());

    /**
     * {@code set(id, relationship, target)} leaves what {@code set(id, relationship.to(target))} leaves, and
     * {@code remove(id, relationship, target)} what {@code remove(id, relationship.targeting(target))} and
     * {@code remove(id, relationship.to(target))} leave: two worlds take the same random spawns, despawns, edges and
     * removals of edges of sparse (exclusive and cascading, many and plain) and dense relationships, one world through
     * each form, inside scopes and out, to live, staged, dead and malformed targets; each call throws in both or in
     * neither, with the same message, and the whole states stay equal. The seed is printed; {@code -Djtecs.seed}
     * replays it.
     */
    @Test
    void setAndRemoveOfARelationshipAndTargetAreThoseOfItsEdge() {
        long seed = Long.getLong("jtecs.seed", new java.util.SplittableRandom().nextLong());
        System.out.println("WorldTest.setAndRemoveOfARelationshipAndTargetAreThoseOfItsEdge seed " + seed);
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        dev.jtecs.component.Relationship[] relationships = {HELD_BY, SEES, UNDER, dev.jtecs.builtin.ChildOf.COMPONENT};
        try (World byEdge = World.create(); World byTarget = World.create()) {
            List<Long> ids = new ArrayList<>();
            for (int step = 0; step < 3000; step++) {
                String where = "seed " + seed + " step " + step;
                int op = ids.isEmpty() ? 0 : random.nextInt(10);
                boolean scoped = random.nextInt(3) == 0;
                if (scoped) {
                    byEdge.defer();
                    byTarget.defer();
                }
                if (op < 3) {
                    Input[] shape = random.nextBoolean() ? new Input[] {POSITION.of(pos(step, 0))} : new Input[0];
                    long id = byEdge.spawn(shape);
                    assertEquals(id, byTarget.spawn(shape), where);
                    ids.add(id);
                } else if (op < 4) {
                    long id = ids.get(random.nextInt(ids.size()));
                    byEdge.despawn(id);
                    byTarget.despawn(id);
                } else if (op < 5) { // a removal of one edge, had or not
                    long source = ids.get(random.nextInt(ids.size()));
                    long target = random.nextInt(20) == 0 ? -1 : ids.get(random.nextInt(ids.size()));
                    dev.jtecs.component.Relationship relationship = relationships[random.nextInt(4)];
                    boolean selector = !relationship.isSparse() && random.nextBoolean(); // (sparse: no selector)
                    String edgeThrew = thrown(() -> {
                        if (selector) {
                            byEdge.remove(source, relationship.targeting(target));
                        } else {
                            byEdge.remove(source, relationship.to(target));
                        }
                    });
                    String targetThrew = thrown(() -> byTarget.remove(source, relationship, target));
                    assertEquals(edgeThrew, targetThrew, where + ": remove " + relationship.name());
                } else {
                    long source = ids.get(random.nextInt(ids.size()));
                    long target = random.nextInt(20) == 0 ? -1 : ids.get(random.nextInt(ids.size()));
                    if (target > 0 && (relationships[op % 4] == HELD_BY || relationships[op % 4]
                            == dev.jtecs.builtin.ChildOf.COMPONENT) && target > source) {
                        long older = source; // cascading edges point at older ids here: no cycle
                        source = target;
                        target = older;
                    }
                    dev.jtecs.component.Relationship relationship = relationships[op % 4];
                    long from = source;
                    long to = target;
                    String edgeThrew = thrown(() -> byEdge.set(from, relationship.to(to)));
                    String targetThrew = thrown(() -> byTarget.set(from, relationship, to));
                    assertEquals(edgeThrew, targetThrew, where + ": " + relationship.name());
                }
                if (scoped) {
                    byEdge.commit();
                    byTarget.commit();
                }
                ids.removeIf(id -> !byEdge.isAlive(id));
                if (step % 500 == 499) {
                    assertEquals(dev.jtecs.testing.WorldState.of(byEdge), dev.jtecs.testing.WorldState.of(byTarget),
                            where);
                }
            }
        }
    }

    /** What {@code call} threw, as its class and message, or null when it returned. */
    private static String thrown(Executable call) {
        try {
            call.execute();
            return null;
        } catch (Throwable t) {
            return t.getClass().getName() + ": " + t.getMessage();
        }
    }

    /**
     * Reparenting through {@code set(id, relationship, target)} allocates nothing per entity once warm, in a scope
     * and with no scope open: no edge object is made, and the queue and the reverse index's lists are grown already
     * (sixteen children a parent, as in the {@code reparent} benchmark: each child moves to the next parent and
     * back).
     */
    @Test
    void setOfARelationshipAndTargetAllocatesNothingPerReparenting() {
        dev.jtecs.component.Relationship childOf = dev.jtecs.builtin.ChildOf.COMPONENT;
        long[] parents = new long[256];
        for (int p = 0; p < parents.length; p++) {
            parents[p] = world.spawn();
        }
        long[] children = new long[16 * parents.length];
        for (int i = 0; i < children.length; i++) {
            children[i] = world.spawn(childOf.to(parents[i / 16]));
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().threadId();
        for (boolean scoped : new boolean[] {true, false}) {
            long bytes = 0;
            for (int round = 0; round < 6; round++) { // three rounds there and back to warm, three measured
                long before = threads.getThreadAllocatedBytes(thread);
                if (scoped) {
                    world.defer();
                }
                int shift = round % 2 == 0 ? 1 : 0; // to the next parent, then home
                for (int i = 0; i < children.length; i++) {
                    world.set(children[i], childOf, parents[(i / 16 + shift) % parents.length]);
                }
                if (scoped) {
                    world.commit();
                }
                if (round >= 3) {
                    bytes += threads.getThreadAllocatedBytes(thread) - before;
                }
            }
            for (int p = 0; p < parents.length; p++) { // home again after an even number of rounds
                assertEquals(16, world.relationshipSources(childOf, parents[p]).length, "scoped " + scoped);
            }
            assertTrue(bytes < 3L * children.length, (scoped ? "in a scope" : "instant") + ": "
                    + 3 * children.length + " reparentings allocated " + bytes + " bytes");
        }
    }

    static final dev.jtecs.component.RelationshipDefinition<Spring> SPARSE_SPRING = dev.jtecs.component.Relationships
            .register(Spring.class, o -> o.name("test.world.SparseSpring").sparse().reverseIndex());

    /**
     * {@code remove(id, relationship, target)} takes payload relationships too, dense and sparse, where an edge value
     * would need a payload: the edge to that target goes, payload and all, the other stays; a malformed target, a
     * null relationship and a dead entity are refused and change nothing.
     */
    @Test
    void removeOfARelationshipAndTargetTakesPayloadRelationshipsToo() {
        long a = committed();
        long b = committed();
        long dense = committed(SPRING.of(new Spring(a, 1f)), SPRING.of(new Spring(b, 2f)));
        long sparse = committed(SPARSE_SPRING.of(new Spring(a, 3f)), SPARSE_SPRING.of(new Spring(b, 4f)));
        world.remove(dense, SPRING, a);
        world.remove(sparse, SPARSE_SPRING, b);
        assertEquals(new Spring(b, 2f), world.get(dense, SPRING), "the dense edge to a went");
        assertEquals(new Spring(a, 3f), world.get(sparse, SPARSE_SPRING), "the sparse edge to b went");
        assertEquals(List.of(), java.util.Arrays.stream(world.relationshipSources(SPARSE_SPRING, b)).boxed().toList());

        long gone = committed();
        world.despawn(gone);
        String before = dev.jtecs.testing.WorldState.of(world);
        IllegalArgumentException malformed = assertThrows(IllegalArgumentException.class,
                () -> world.remove(dense, SPRING, -1));
        assertEquals("relationship target -1 is not an entity id", malformed.getMessage());
        assertEquals(malformed.getMessage(), assertThrows(IllegalArgumentException.class,
                () -> SPRING.targeting(-1)).getMessage(), "as a selector refuses it");
        assertThrows(NullPointerException.class, () -> world.remove(dense, null, a));
        assertThrows(IllegalArgumentException.class, () -> world.remove(gone, SPRING, b));
        assertEquals(before, dev.jtecs.testing.WorldState.of(world), "refused calls change nothing");
    }

    /**
     * Removing one edge of a many-target sparse relationship through {@code remove(id, relationship, target)}, and
     * setting it again through {@code set(id, relationship, target)}, allocates nothing per entity once warm, in a
     * scope and with no scope open (each entity keeps another edge, so its marker, and its row, stay; half the
     * sources leave and come back, so the target's list of sources never empties and is never grown again).
     */
    @Test
    void removeOfARelationshipAndTargetAllocatesNothingPerEdge() {
        long kept = world.spawn();
        long toggled = world.spawn();
        long[] watchers = new long[2048];
        for (int i = 0; i < watchers.length; i++) {
            watchers[i] = world.spawn(SEES.to(kept), SEES.to(toggled));
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().threadId();
        for (boolean scoped : new boolean[] {true, false}) {
            long bytes = 0;
            for (int round = 0; round < 13; round++) { // ten rounds to warm, three measured
                long before = threads.getThreadAllocatedBytes(thread);
                toggleEveryOther(watchers, toggled, scoped, false);
                if (round < 10) { // (the answer is a fresh array: not in the rounds measured)
                    assertEquals(watchers.length / 2, world.relationshipSources(SEES, toggled).length);
                }
                toggleEveryOther(watchers, toggled, scoped, true);
                if (round >= 10) {
                    bytes += threads.getThreadAllocatedBytes(thread) - before;
                }
            }
            assertEquals(watchers.length, world.relationshipSources(SEES, toggled).length, "scoped " + scoped);
            assertTrue(bytes < 3L * watchers.length, (scoped ? "in a scope" : "instant") + ": " + 3 * watchers.length
                    + " removals and sets again allocated " + bytes + " bytes");
        }
    }

    /** The edge to {@code target} of every other watcher removed, or set again, in a scope of its own or none. */
    private void toggleEveryOther(long[] watchers, long target, boolean scoped, boolean set) {
        if (scoped) {
            world.defer();
        }
        for (int i = 0; i < watchers.length; i += 2) {
            if (set) {
                world.set(watchers[i], SEES, target);
            } else {
                world.remove(watchers[i], SEES, target);
            }
        }
        if (scoped) {
            world.commit();
        }
    }

    @Test
    void closeFreesNativeMemoryAndRejectsEveryCall() {
        World other = World.create();
        long id = other.spawn(POSITION);
        other.commit();
        assertTrue(other.nativeBytesReserved() > 0);
        other.close();
        other.close();
        assertTrue(other.isClosed());
        assertThrows(IllegalStateException.class, other::spawn);
        assertThrows(IllegalStateException.class, () -> other.isAlive(id));
        assertThrows(IllegalStateException.class, () -> other.get(id, POSITION));
        assertThrows(IllegalStateException.class, other::commit);
        assertThrows(IllegalStateException.class, other::nativeBytesReserved);
        assertThrows(IllegalStateException.class, () -> other.forEachArchetype(a -> { }));
    }

    /**
     * World methods a closed world still answers: settings, identity, the owner hint, close itself, and the two
     * that only concern the thread (checkThread, and claim, which the owner may call on a world it owns).
     */
    private static final java.util.Set<String> ANSWERED_WHEN_CLOSED = java.util.Set.of("owner", "config",
            "toString", "hashCode", "equals", "getClass", "notify", "notifyAll", "wait", "isClosed", "close",
            "checkThread", "claim");

    @Test
    void aClosedWorldRefusesEveryOtherCallAsClosedBeforeReadingItsArguments() throws Exception {
        World other = World.create();
        other.close();
        List<java.lang.reflect.Method> methods = new ArrayList<>();
        for (java.lang.reflect.Method method : World.class.getMethods()) {
            if (!java.lang.reflect.Modifier.isStatic(method.getModifiers())
                    && !ANSWERED_WHEN_CLOSED.contains(method.getName())) {
                methods.add(method);
            }
        }
        methods.sort(java.util.Comparator.comparing(java.lang.reflect.Method::toString));
        assertTrue(methods.size() > 90, "the sweep covers the whole surface: " + methods.size());
        List<String> wrong = new ArrayList<>();
        for (java.lang.reflect.Method method : methods) {
            Object[] args = new Object[method.getParameterCount()];
            Class<?>[] types = method.getParameterTypes();
            for (int i = 0; i < args.length; i++) { // null for references: a call that read them would not say closed
                args[i] = types[i] == int.class ? (Object) 1 : types[i] == long.class ? (Object) 1L
                        : types[i] == double.class ? (Object) 0.5 : types[i] == float.class ? (Object) 1f
                        : types[i] == boolean.class ? (Object) true : types[i] == short.class ? (Object) (short) 1
                        : types[i] == byte.class ? (Object) (byte) 1 : types[i] == char.class ? (Object) 'x' : null;
            }
            Throwable thrown = null;
            try {
                method.invoke(other, args);
            } catch (java.lang.reflect.InvocationTargetException e) {
                thrown = e.getCause();
            }
            if (!(thrown instanceof IllegalStateException)
                    || !thrown.getMessage().equals(other + " is closed")) {
                wrong.add(method + " -> " + thrown);
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void aClosedWorldRefusesBeforeItsPipelineHearsOfTheCall() {
        List<String> calls = new ArrayList<>();
        World recorded = World.create(WorldConfig.defaults().pipelineFactory((w, scope) ->
                (Pipeline) Proxy.newProxyInstance(Pipeline.class.getClassLoader(), new Class<?>[] {Pipeline.class},
                        (proxy, method, args) -> {
                            calls.add(method.getName());
                            Class<?> type = method.getReturnType();
                            return type == boolean.class ? false : type == int.class ? 0 : type == long.class
                                    ? 0L : type == double.class ? 0.0 : type == String.class ? "" : null;
                        })));
        recorded.close();
        calls.clear();
        for (Executable call : List.<Executable>of(() -> recorded.update(0.5), recorded::enqueueCommit,
                recorded::startup, recorded::shutdown, () -> recorded.runPhase(dev.jtecs.schedule.Phases.UPDATE),
                () -> recorded.removeSystem("x"), recorded::listSystems, recorded::fixedStepCount)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, call);
            assertEquals(recorded + " is closed", e.getMessage());
        }
        assertEquals(List.of(), calls, "no call reached the pipeline");
    }

    @Test
    void growthAcrossManyEntitiesKeepsEveryValue() {
        int n = 5000;
        long[] ids = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = world.spawn(POSITION.of(pos(i, -i)), HEALTH.of(i));
        }
        world.commit();
        for (int i = 0; i < n; i += 2) {
            world.despawn(ids[i]);
        }
        world.commit();
        for (int i = 1; i < n; i += 2) {
            assertEquals(pos(i, -i), world.get(ids[i], POSITION));
            assertEquals((double) i, world.get(ids[i], HEALTH));
        }
        assertEquals(n / 2, world.entityCount());
        assertEquals(WorldConfig.defaults().maxEntities(1 << 20), world.config());
    }

    @Test
    void nativeFootprintCoversReservedBytesAndCountsTowardTheProcessTotal() {
        long withThisWorld = World.nativeBytesHeldByOpenWorlds();
        long mine = world.nativeFootprintBytes();
        try (World other = World.create()) {
            other.batchSpawn(100_000, List.of(POSITION, VELOCITY));
            assertTrue(other.nativeFootprintBytes() >= other.nativeBytesReserved());
            assertEquals(withThisWorld + other.nativeFootprintBytes(), World.nativeBytesHeldByOpenWorlds());
        }
        assertEquals(withThisWorld, World.nativeBytesHeldByOpenWorlds(), "closing took the other world's share off");
        assertEquals(mine, world.nativeFootprintBytes());
    }

    @Test
    void aClosedWorldsLargeColumnsAreKeptForTheNextWorldUntilReleased() {
        World.releaseNativeBytesKeptForReuse();
        assertEquals(0, World.nativeBytesKeptForReuse());
        dev.jtecs.storage.FloatColumn stale;
        long footprint;
        try (World other = World.create()) {
            other.batchSpawn(100_000, List.of(POSITION, VELOCITY)); // columns of 400 KB: large buffers
            stale = other.archetypeOf(other.batchSpawn(1, List.of(POSITION, VELOCITY)).first())
                    .get(POSITION.floatField("x"));
            footprint = other.nativeFootprintBytes();
        }
        long kept = World.nativeBytesKeptForReuse();
        assertTrue(kept > footprint / 2 && kept <= footprint, kept + " of " + footprint + " bytes kept");
        assertThrows(IllegalStateException.class, () -> stale.get(0), "a kept buffer's old view is closed");
        try (World next = World.create()) {
            long id = next.batchSpawn(100_001, List.of(POSITION, VELOCITY)).get(100_000);
            assertEquals(0, World.nativeBytesKeptForReuse(), "the next world of that shape took every block");
            assertEquals(pos(0, 0), next.get(id, POSITION), "the last row, in reused memory, reads its default");
        }
        assertEquals(kept, World.releaseNativeBytesKeptForReuse());
        assertEquals(0, World.nativeBytesKeptForReuse());
    }

    @Test
    void aPipelineFactoryThatThrowsLeavesNoNativeMemoryHeld() {
        // the factory runs on a usable world; when it (or the pipeline it made, as the builtin systems register)
        // throws, the caller never gets the world to close, so the world must close itself: before, its slab stayed
        // held for good
        long before = World.nativeBytesHeldByOpenWorlds();
        World[] seen = new World[1];
        Archetype[] kept = new Archetype[1];
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> World.create(WorldConfig.defaults().pipelineFactory((w, scope) -> {
                    seen[0] = w;
                    kept[0] = w.archetypeOf(w.spawn(POSITION.of(pos(1, 2)), HEALTH.of(3)));
                    w.defer(); // left open: the failed construction closes the world all the same
                    w.spawn(VELOCITY);
                    throw new IllegalStateException("no scheduler today");
                })));
        assertEquals("no scheduler today", refused.getMessage());
        assertThrows(IllegalStateException.class, () -> kept[0].count(), "the archetype was released with its memory");
        assertEquals(before, World.nativeBytesHeldByOpenWorlds(), "the half-made world returned its memory");
        assertTrue(seen[0].isClosed());
        assertThrows(IllegalStateException.class, () -> seen[0].spawn(POSITION));

        IllegalStateException installing = assertThrows(IllegalStateException.class,
                () -> World.create(WorldConfig.defaults().pipelineFactory((w, scope) -> {
                    seen[0] = w;
                    w.spawn(POSITION);
                    return (Pipeline) Proxy.newProxyInstance(Pipeline.class.getClassLoader(),
                            new Class<?>[] {Pipeline.class}, (proxy, method, args) -> {
                                throw new IllegalStateException("refused " + method.getName());
                            });
                })));
        assertTrue(installing.getMessage().startsWith("refused "), installing.getMessage());
        assertEquals(before, World.nativeBytesHeldByOpenWorlds(), "a builtin system the pipeline refused too");
        assertTrue(seen[0].isClosed());
    }

    @Test
    void structureVersionAdvancesOnPublishedStructuralChangeOnly() {
        long start = world.structureVersion();
        world.defer();
        long a = world.spawn(POSITION.of(pos(1, 2)));
        long b = world.spawn(POSITION.of(pos(3, 4)), VELOCITY);
        assertEquals(start, world.structureVersion(), "staged spawns are not published yet");
        world.commit();
        long spawned = world.structureVersion();
        assertTrue(spawned > start, "published spawns (new archetypes, rows) advance it");
        Archetype archetype = world.archetypeOf(a);
        int row = world.rowOf(a);

        world.set(a, POSITION.of(pos(5, 6)));          // a value write
        archetype.getMut(POSITION.floatField("x"));      // a mark through a view
        world.markComponentDirty(b, VELOCITY);
        world.clearDirty();
        world.update(1 / 60.0);                          // systems over nothing structural
        assertEquals(spawned, world.structureVersion(), "values, marks, clears and frames leave it alone");
        assertSame(archetype, world.archetypeOf(a));
        assertEquals(row, world.rowOf(a));

        world.set(a, VELOCITY);                          // a move to another archetype
        long moved = world.structureVersion();
        assertTrue(moved > spawned, "a move advances it");
        world.despawn(b);
        assertTrue(world.structureVersion() > moved, "a despawn advances it");
        long[] crowd = new long[200];
        for (int i = 0; i < crowd.length; i++) {
            crowd[i] = world.spawn(HEALTH.of(i));
        }
        for (int i = 10; i < crowd.length; i++) {
            world.despawn(crowd[i]);
        }
        long beforeCompact = world.structureVersion();
        assertEquals(1, world.compact().rebuilt());     // reallocates the shrunken columns
        assertTrue(world.structureVersion() > beforeCompact, "compaction advances it");
        long still = world.structureVersion();
        world.compact();
        assertEquals(still, world.structureVersion(), "a compaction with nothing to do leaves it alone");
    }

    @Test
    void structureVersionOfAClosedWorldThrows() {
        World other = World.create();
        other.close();
        assertThrows(IllegalStateException.class, other::structureVersion);
    }

    @Test
    void aComponentsStructureVersionIgnoresArchetypesWithoutIt() {
        long a = world.spawn(POSITION.of(pos(1, 2)), VELOCITY);
        long moving = world.structureVersion(VELOCITY);
        long positions = world.structureVersion(POSITION);
        for (int i = 0; i < 100; i++) {
            world.despawn(world.spawn(HEALTH.of(i))); // churn elsewhere, buffers growing included
        }
        assertEquals(moving, world.structureVersion(VELOCITY), "no archetype with Velocity changed");
        assertEquals(positions, world.structureVersion(POSITION));
        world.set(a, FROZEN);                           // moves a: out of one Velocity archetype, into another
        assertTrue(world.structureVersion(VELOCITY) > moving);
        assertTrue(world.structureVersion(POSITION) > positions);
        long health = world.structureVersion(HEALTH);
        world.remove(a, FROZEN);
        assertEquals(health, world.structureVersion(HEALTH));
    }

    @Test
    void aStructureVersionOfARelationshipPairIsRefused() {
        dev.jtecs.component.Relationship likes = dev.jtecs.component.Relationships.register("test.world.Likes");
        long b = world.spawn();
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> world.structureVersion(likes.targeting(b)));
        assertTrue(refused.getMessage().contains("structureVersion("), refused.getMessage());
        assertEquals(0, world.structureVersion(likes), "the relationship itself has a counter, untouched yet");
    }

    @Test
    void closeIsAcceptedFromInsideCallbacks() {
        // issue 18, smaller item: close() accepted from inside callbacks
        List<String> refusals = new ArrayList<>();
        Runnable tryClose = () -> {
            IllegalStateException e = assertThrows(IllegalStateException.class, world::close);
            assertFalse(world.isClosed());
            refusals.add(e.getMessage());
        };
        List<String> refusedIn = new ArrayList<>();
        java.util.function.BiConsumer<String, Runnable> refusedDuring = (what, action) -> {
            int before = refusals.size();
            action.run();
            if (refusals.size() > before) {
                refusedIn.add(what);
            }
        };
        long id = world.spawn(POSITION.of(pos(1, 2)));
        world.observe(Entity.WORLD, dev.jtecs.event.OnSpawn.class, event -> tryClose.run());
        refusedDuring.accept("OnSpawn observer", () -> world.spawn(POSITION.of(pos(3, 4))));
        world.clearObservers(Entity.WORLD);

        world.observe(Entity.WORLD, Position.class, event -> tryClose.run());
        refusedDuring.accept("emit observer", () -> world.emit(Entity.WORLD, pos(0, 0))); // at depth 0
        world.clearObservers(Entity.WORLD);

        world.newQuery(dev.jtecs.query.QueryDescriptor.builder().include(VELOCITY)
                .onEntitiesAdded((archetype, from, to) -> tryClose.run()).build());
        refusedDuring.accept("membership callback", () -> world.spawn(VELOCITY.of(new Velocity(1, 1))));

        refusedDuring.accept("groupBy", () -> world.newQuery(dev.jtecs.query.QueryDescriptor.builder()
                .include(POSITION).groupBy(archetype -> {
                    tryClose.run();
                    return 0;
                }).build()));

        dev.jtecs.query.Query positions = world.newQuery(dev.jtecs.query.QueryDescriptor.builder()
                .include(POSITION).build());
        refusedDuring.accept("forEach visitor", () -> positions.forEach((archetype, count) -> tryClose.run()));
        refusedDuring.accept("forEachArchetype", () -> world.forEachArchetype(archetype -> tryClose.run()));

        world.addSystem(dev.jtecs.schedule.SystemConfig.named("test.world.closer")
                .phase(dev.jtecs.schedule.Phases.UPDATE).run((dt, w) -> tryClose.run()));
        refusedDuring.accept("system body", () -> world.update(0));
        world.removeSystem("test.world.closer");

        assertEquals(List.of("OnSpawn observer", "emit observer", "membership callback", "groupBy",
                "forEach visitor", "forEachArchetype", "system body"), refusedIn);
        assertTrue(refusals.get(0).contains("cannot be closed"), refusals.get(0));
        assertTrue(world.isAlive(id), "the world stays open and usable");
        assertEquals(pos(1, 2), world.get(id, POSITION));
        assertTrue(world.isAlive(world.spawn(POSITION.of(pos(5, 6)))));

        dev.jtecs.query.QueryCursor cursor = positions.cursor(); // a leaked cursor or scope keeps no world open
        world.defer();
        world.close();
        assertTrue(world.isClosed());
        cursor.close();
    }

    @Test
    void getMut() {
        Inventory bag = new Inventory(new ArrayList<>(List.of("rope")));
        long id = world.spawn(INVENTORY.of(bag), HEALTH.of(10.0));
        Archetype archetype = world.archetypeOf(id);
        archetype.clearDirtyComponents();

        Inventory live = world.getMut(id, INVENTORY);
        assertSame(bag, live); // the stored object, not a copy
        assertTrue(archetype.isComponentDirty(INVENTORY)); // marked before the caller writes
        assertFalse(archetype.isComponentDirty(HEALTH));
        live.items().add("lamp");
        assertEquals(List.of("rope", "lamp"), world.get(id, INVENTORY).items());

        assertEquals(10.0, world.getMut(id, HEALTH)); // a scalar answers its value and marks its column
        assertTrue(archetype.isComponentDirty(HEALTH));
        archetype.clearDirtyComponents();
        assertNull(world.getMut(id, POSITION)); // absent: null, nothing marked
        assertFalse(archetype.anyComponentDirty());
        long dead = world.spawn(POSITION);
        world.despawn(dead);
        assertNull(world.getMut(dead, POSITION));
    }

    record Mixed(byte b, boolean flag, short s, char c, int i, float f, long l, double d) {}

    static final NativeComponent<Mixed> MIXED = Components.registerNative(Mixed.class);

    record Spring(long target, float stiffness) {}

    static final dev.jtecs.component.RelationshipDefinition<Spring> SPRING =
            dev.jtecs.component.Relationships.register(Spring.class, o -> o.name("test.world.Spring"));

    @Test
    void writeChangesEachKindOfFieldInPlaceAndMarksItsColumn() {
        long id = committed(MIXED.of(new Mixed((byte) 1, false, (short) 2, 'a', 3, 4f, 5L, 6.0)), HEALTH);
        long other = committed(MIXED.of(new Mixed((byte) 9, true, (short) 9, 'z', 9, 9f, 9L, 9.0)));
        Archetype archetype = world.archetypeOf(id);
        long structure = world.structureVersion();
        archetype.clearDirtyComponents();

        world.write(id, MIXED.byteField("b"), (byte) -7);
        world.write(id, MIXED.booleanField("flag"), true);
        world.write(id, MIXED.shortField("s"), (short) 300);
        world.write(id, MIXED.charField("c"), 'q');
        world.write(id, MIXED.intField("i"), -40);
        world.write(id, MIXED.floatField("f"), 0.5f);
        world.write(id, MIXED.longField("l"), Long.MIN_VALUE);
        world.write(id, MIXED.doubleField("d"), -2.25);

        assertEquals(new Mixed((byte) -7, true, (short) 300, 'q', -40, 0.5f, Long.MIN_VALUE, -2.25), world.get(id, MIXED));
        assertEquals(new Mixed((byte) 9, true, (short) 9, 'z', 9, 9f, 9L, 9.0), world.get(other, MIXED), "one row only");
        assertTrue(archetype.isComponentDirty(MIXED));
        assertFalse(archetype.isComponentDirty(HEALTH), "only the written component's column");
        assertEquals(structure, world.structureVersion(), "nothing structural");
    }

    @Test
    void writeInsideAScopeReachesTheRowAtOnceAndAStagedMoveCarriesIt() {
        long id = committed(POSITION.of(pos(1, 2)));
        world.defer();
        world.set(id, FROZEN);                            // a staged move to another archetype
        world.write(id, POSITION.floatField("x"), 10f);   // never staged: the published row now
        assertEquals(pos(10, 2), world.get(id, POSITION));
        assertFalse(world.has(id, FROZEN));
        world.commit();
        assertTrue(world.has(id, FROZEN));
        assertEquals(pos(10, 2), world.get(id, POSITION), "the move carried the written row");

        world.defer();
        world.set(id, ENEMY);                             // a record for the entity: what follows is staged
        world.set(id, POSITION.of(pos(7, 7)));            // applied at publication
        world.write(id, POSITION.floatField("y"), -1f);
        assertEquals(pos(10, -1), world.get(id, POSITION));
        world.commit();
        assertEquals(pos(7, 7), world.get(id, POSITION), "the staged value replaces the earlier in-place write");

        world.defer();
        world.despawn(id);
        world.write(id, POSITION.floatField("x"), 3f);    // the row lives until the despawn publishes
        assertEquals(pos(3, 7), world.get(id, POSITION));
        world.commit();
        assertFalse(world.isAlive(id));
    }

    @Test
    void writeRefusesWhatHasNoRowAndChangesNothing() {
        long id = committed(POSITION.of(pos(1, 2)));
        long bare = committed(HEALTH);
        long dead = committed(POSITION);
        world.despawn(dead);
        var x = POSITION.floatField("x");
        world.defer();
        long staged = world.spawn(POSITION);
        var unplaced = assertThrows(IllegalStateException.class, () -> world.write(staged, x, 5f));
        assertTrue(unplaced.getMessage().contains("staged for spawn"), unplaced.getMessage());
        world.commit();
        assertEquals(pos(0, 0), world.get(staged, POSITION));
        Archetype archetype = world.archetypeOf(id);
        archetype.clearDirtyComponents();

        var lacks = assertThrows(IllegalArgumentException.class, () -> world.write(bare, x, 5f));
        assertTrue(lacks.getMessage().contains("has no component") && lacks.getMessage().contains("(field x)"),
                lacks.getMessage());
        long empty = committed(); // no component at all: the root archetype, the registry's first store
        var nothing = assertThrows(IllegalArgumentException.class, () -> world.write(empty, x, 5f));
        assertTrue(nothing.getMessage().contains("has no component"), nothing.getMessage());
        var stale = assertThrows(IllegalArgumentException.class, () -> world.write(dead, x, 5f));
        assertTrue(stale.getMessage().startsWith("write: entity"), stale.getMessage());
        assertThrows(IllegalArgumentException.class, () -> world.write(0L, x, 5f));
        assertThrows(IllegalArgumentException.class, () -> world.write(-3L, x, 5f));
        assertEquals(pos(1, 2), world.get(id, POSITION));
        assertFalse(archetype.anyComponentDirty(), "a refused write marks nothing");
        assertThrows(NullPointerException.class, () -> world.write(id, (dev.jtecs.component.FloatField) null, 1f));

        world.close();
        assertThrows(IllegalStateException.class, () -> world.write(id, x, 5f));
    }

    @Test
    void writeFromAnotherThreadIsRefused() throws Exception {
        long id = committed(POSITION.of(pos(1, 2)));
        Throwable[] thrown = new Throwable[1];
        Thread other = new Thread(() -> {
            try {
                world.write(id, POSITION.floatField("x"), 5f);
            } catch (Throwable t) {
                thrown[0] = t;
            }
        });
        other.start();
        other.join();
        assertTrue(thrown[0] instanceof WrongThreadException, String.valueOf(thrown[0]));
        assertEquals(pos(1, 2), world.get(id, POSITION));
    }

    @Test
    void writeThroughASelectorChangesThatEdgesPayload() {
        long a = committed();
        long b = committed();
        long id = committed(SPRING.of(new Spring(a, 1f)), SPRING.of(new Spring(b, 2f)));
        Archetype archetype = world.archetypeOf(id);
        archetype.clearDirtyComponents();
        world.write(id, SPRING.targeting(b).floatField("stiffness"), 8f);
        assertEquals(new Spring(b, 8f), world.get(id, SPRING.targeting(b)));
        assertEquals(new Spring(a, 1f), world.get(id, SPRING), "the other edge is untouched");
        assertTrue(archetype.isComponentDirty(SPRING), "the wildcard column is marked too");
        long stranger = committed();
        var missing = assertThrows(IllegalArgumentException.class,
                () -> world.write(id, SPRING.targeting(stranger).floatField("stiffness"), 1f));
        assertTrue(missing.getMessage().contains("has no component"), missing.getMessage());
    }

    @Test
    void removeOnAnEntityStagedForDespawnDoesNothing() {
        long id = world.spawn(POSITION, FROZEN);
        long version = world.structureVersion();
        world.defer();
        world.despawn(id);
        world.remove(id, FROZEN); // staged despawn: the remove is dropped, not an error
        world.remove(id, POSITION);
        assertTrue(world.has(id, FROZEN), "committed state unchanged until the scope closes");
        assertEquals(version, world.structureVersion());
        world.commit();
        assertFalse(world.isAlive(id));
        assertEquals(0, world.entityCount());
    }

    @Test
    void readsInsideAMembershipCallback() {
        long other = world.spawn(POSITION);
        List<String> seen = new ArrayList<>();
        world.newQuery(dev.jtecs.query.QueryDescriptor.builder().include(POSITION, VELOCITY)
                .onEntitiesAdded((archetype, from, to) -> {
                    for (int row = from; row < to; row++) {
                        long id = archetype.entity(row);
                        seen.add(archetype.getValue(row, POSITION) + " " + world.get(id, VELOCITY));
                        world.set(other, FROZEN); // structural: staged for after this publication
                        seen.add("other frozen: " + world.has(other, FROZEN));
                    }
                }).build());
        world.spawn(POSITION.of(new Position(1, 2)), VELOCITY.of(new Velocity(3, 4)));
        assertEquals(List.of("Position[x=1.0, y=2.0] Velocity[x=3.0, y=4.0]", "other frozen: false"), seen,
                "the entering row is initialized and readable; work staged in the callback is not visible yet");
        assertTrue(world.has(other, FROZEN), "the callback's work was published by the same drain");
    }

    @Test
    void writeThroughInsideAMembershipCallback() {
        long watcher = world.spawn(HEALTH.of(100.0));
        List<Double> seen = new ArrayList<>();
        world.newQuery(dev.jtecs.query.QueryDescriptor.builder().include(ENEMY).onEntitiesAdded((archetype, f, t) -> {
            world.set(watcher, HEALTH.of(42.0)); // value-only, nothing staged for the watcher: written now
            seen.add(world.get(watcher, HEALTH));
        }).build());
        Archetype watcherArchetype = world.archetypeOf(watcher);
        watcherArchetype.clearDirtyComponents();
        world.spawn(ENEMY);
        assertEquals(List.of(42.0), seen, "the write was visible inside the callback that made it");
        assertTrue(watcherArchetype.isComponentDirty(HEALTH), "and marked its column dirty");
    }

    @Test
    void setATagTheEntityAlreadyHas() {
        long id = world.spawn(POSITION, FROZEN);
        Archetype archetype = world.archetypeOf(id);
        int row = world.rowOf(id);
        List<Integer> entered = new ArrayList<>();
        world.newQuery(dev.jtecs.query.QueryDescriptor.builder().include(FROZEN)
                .onEntitiesAdded((a, from, to) -> entered.add(to - from)).build());
        entered.clear(); // the query's initial match
        long version = world.structureVersion();
        world.set(id, FROZEN);
        world.defer();
        world.set(id, FROZEN);
        world.commit();
        assertEquals(version, world.structureVersion(), "no move, no placement");
        assertSame(archetype, world.archetypeOf(id));
        assertEquals(row, world.rowOf(id));
        assertEquals(List.of(), entered, "membership did not change, so no callback");
    }

    /** Collects what the world logs while {@code body} runs. */
    private static List<String> warningsDuring(Runnable body) {
        java.util.logging.Logger jul = java.util.logging.Logger.getLogger(World.class.getName());
        List<String> messages = new ArrayList<>();
        java.util.logging.Handler handler = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                if (record.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
                    messages.add(record.getMessage());
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        jul.addHandler(handler);
        try {
            body.run();
        } finally {
            jul.removeHandler(handler);
        }
        return messages;
    }

    @Test
    void closeWithStagedWorkWarns() {
        World closing = World.create();
        closing.spawn(POSITION); // published: nothing to warn about
        assertEquals(List.of(), warningsDuring(closing::close));

        World staged = World.create();
        staged.defer();
        staged.spawn(POSITION);
        List<String> warnings = warningsDuring(staged::close);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("close: ") && warnings.get(0).contains("commit()"), warnings.get(0));
        assertTrue(staged.isClosed(), "a warning, not a refusal");
    }

    @Test
    void updateWithAnOpenCallerScopeWarns() {
        assertEquals(List.of(), warningsDuring(() -> world.update(0)));
        world.defer();
        long id = world.spawn(POSITION);
        List<String> warnings = warningsDuring(() -> world.update(0));
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("1 scope(s) left open"), warnings.get(0));
        assertTrue(world.isAlive(id), "update still closes the scope and publishes, as documented");
        assertTrue(warnings.get(0).endsWith("closes them and publishes the work staged in them before the systems run"),
                warnings.get(0));
        assertEquals(List.of(), warningsDuring(() -> world.update(0)), "closed now: no second warning");
        world.defer(); // a scope left open with nothing in it
        List<String> empty = warningsDuring(() -> world.update(0));
        assertEquals(1, empty.size(), empty.toString());
        assertTrue(empty.get(0).endsWith("closes them and publishes nothing staged before the systems run"),
                empty.get(0));
    }

    @Test
    void updateClearsTheDirtyMarksOnceTheSystemsRan() {
        List<Boolean> seenBySystem = new ArrayList<>();
        long id = world.spawn(POSITION.of(pos(1, 2)), HEALTH);
        world.addSystem(dev.jtecs.schedule.SystemConfig.named("test.world.dirtyReader")
                .run((dt, w) -> seenBySystem.add(w.archetypeOf(id).isComponentDirty(POSITION))));
        world.update(0.1);
        assertEquals(List.of(true), seenBySystem, "the spawn's marks are still there while systems run");
        assertEquals(List.of(), world.dirtyArchetypes(), "and gone after the update");
        assertFalse(world.archetypeOf(id).anyComponentDirty());
        world.set(id, HEALTH.of(3.0));
        world.update(0.1);
        assertEquals(List.of(true, false), seenBySystem);
        assertEquals(List.of(), world.dirtyArchetypes());
    }

    @Test
    void theWorldRunsItsPipelineThroughEveryEntryPoint() {
        List<String> log = new ArrayList<>();
        dev.jtecs.schedule.Phase custom = dev.jtecs.schedule.Phase.of("test.world.Custom");
        world.registerPhase(dev.jtecs.schedule.PhaseDefinition.leaf(custom));
        world.addSystem(dev.jtecs.schedule.SystemConfig.named("test.world.start")
                .phase(dev.jtecs.schedule.Phases.STARTUP).run((dt, w) -> log.add("startup dt=" + dt)));
        world.addSystem(dev.jtecs.schedule.SystemConfig.named("test.world.stop")
                .phase(dev.jtecs.schedule.Phases.SHUTDOWN).run((dt, w) -> log.add("shutdown dt=" + dt)));
        world.addSystem(dev.jtecs.schedule.SystemConfig.named("test.world.custom")
                .phase(custom).run((dt, w) -> log.add("custom dt=" + dt)));
        world.addSystem(dev.jtecs.schedule.SystemConfig.named("test.world.fixed")
                .phase(dev.jtecs.schedule.Phases.FIXED_UPDATE).run((dt, w) -> log.add("fixed")));
        assertEquals(List.of("test.world.start", "test.world.fixed", "test.world.stop", "test.world.custom"),
                world.listSystems().stream().map(dev.jtecs.schedule.SystemInfo::name)
                        .filter(name -> name.startsWith("test.")).toList(), "dispatch order, by phase");
        int systems = world.listSystems().size();
        assertEquals(systems, world.getStats(null).systems());

        world.startup();
        assertEquals(List.of("startup dt=0.0"), log);
        world.runPhase(custom);
        world.runPhase(custom, 0.25);
        assertEquals(List.of("startup dt=0.0", "custom dt=0.0", "custom dt=0.25"), log);
        log.clear();

        assertTrue(world.isPhaseEnabled(custom));
        world.disablePhase(custom);
        assertFalse(world.isPhaseEnabled(custom));
        world.runPhase(custom);
        world.enablePhase(custom);
        assertTrue(world.isPhaseEnabled(custom));
        assertTrue(world.setSystemEnabled("test.world.custom", false));
        assertFalse(world.setSystemEnabled("test.world.none", false), "no such system");
        world.runPhase(custom);
        assertEquals(List.of(), log, "a disabled phase, then a disabled system, ran nothing");
        assertTrue(world.setSystemEnabled("test.world.custom", true));
        assertTrue(world.replaceSystemBody("test.world.custom", (dt, w) -> log.add("replaced")));
        assertFalse(world.replaceSystemBody("test.world.none", (dt, w) -> { }), "no such system");
        world.runPhase(custom);
        assertEquals(List.of("replaced"), log);
        log.clear();

        double step = world.getFixedTiming().timestep();
        assertEquals(0L, world.fixedStepCount());
        world.update(step * 2.5);
        assertEquals(2L, world.fixedStepCount());
        assertEquals(List.of("fixed", "fixed"), log);
        log.clear();

        assertTrue(world.removeSystem("test.world.fixed"));
        assertFalse(world.removeSystem("test.world.fixed"), "already gone");
        assertEquals(systems - 1, world.listSystems().size());
        world.shutdown();
        assertEquals(List.of("shutdown dt=0.0"), log);
    }

    @Test
    void aCommitBarrierBetweenSystemsPublishesTheFirstOnesWork() {
        List<String> log = new ArrayList<>();
        long[] spawned = new long[1];
        world.addSystem(dev.jtecs.schedule.SystemConfig.named("test.world.spawner")
                .run((dt, w) -> spawned[0] = w.spawn(POSITION)).commitAfter());
        world.addSystem(dev.jtecs.schedule.SystemConfig.named("test.world.reader").after("test.world.spawner")
                .run((dt, w) -> log.add("alive=" + w.isAlive(spawned[0]))));
        world.update(0.1);
        assertEquals(List.of("alive=true"), log);
    }

    @Test
    void enqueueCommitFromASystemPublishesAfterItAndElsewhereAtOnce() {
        long[] spawned = new long[1];
        List<String> log = new ArrayList<>();
        world.addSystem(dev.jtecs.schedule.SystemConfig.named("test.world.requester").run((dt, w) -> {
            spawned[0] = w.spawn(POSITION);
            w.enqueueCommit(); // once after the body returns
            log.add("after request alive=" + w.isAlive(spawned[0]));
        }));
        world.addSystem(dev.jtecs.schedule.SystemConfig.named("test.world.next").after("test.world.requester")
                .run((dt, w) -> log.add("next system alive=" + w.isAlive(spawned[0]))));
        world.update(0.1);
        assertEquals(List.of("after request alive=false", "next system alive=true"), log);

        long doomed = world.spawn(POSITION);
        world.observe(doomed, dev.jtecs.event.OnDespawn.class, e -> {
            throw new IllegalStateException("observer");
        });
        assertThrows(IllegalStateException.class, () -> world.despawn(doomed));
        assertTrue(world.hasPendingChanges(), "the despawn stays staged");
        world.enqueueCommit(); // no scope open, no system running: at once
        assertFalse(world.hasPendingChanges());
        assertFalse(world.isAlive(doomed));
    }

    // ------------------------------------------------------------------ the surface the world hands on

    static final dev.jtecs.component.Relationship UNDER = dev.jtecs.component.Relationships.register(
            "test.world.Under", o -> o.reverseIndex());
    static final dev.jtecs.component.Relationship KNOWS = dev.jtecs.component.Relationships.register(
            "test.world.Knows", o -> o.reverseIndex());

    @Test
    void batchCallsRefuseAQueryOfAnotherWorldAndChangeNothing() {
        long a = committed(POSITION.of(pos(1, 2)), HEALTH.of(5.0), KNOWS.to(committed()));
        try (World other = World.create()) {
            dev.jtecs.query.Query foreign = other.newQuery(dev.jtecs.query.QueryDescriptor.builder()
                    .include(POSITION).build());
            other.spawn(POSITION);
            assertRejectedUnchanged(() -> world.batchSet(foreign, HEALTH.of(1.0)), a);
            assertRejectedUnchanged(() -> world.batchSet(foreign, HEALTH, (archetype, from, to) -> { }), a);
            assertRejectedUnchanged(() -> world.batchRemove(foreign, HEALTH), a);
            assertRejectedUnchanged(() -> world.batchRemove(foreign, KNOWS.to(a)), a);
            assertRejectedUnchanged(() -> world.batchDespawn(foreign), a);
            assertTrue(world.isAlive(a));
            assertEquals(1, other.entityCount(), "the other world is untouched too");
        }
    }

    @Test
    void batchCallsReachEveryEntityTheQueryMatches() {
        long t1 = committed();
        long t2 = committed();
        long a = committed(POSITION.of(pos(1, 2)), KNOWS.to(t1), KNOWS.to(t2));
        long b = committed(POSITION.of(pos(3, 4)), KNOWS.to(t1));
        long outsider = committed(HEALTH.of(7.0));
        dev.jtecs.query.Query positions = world.newQuery(dev.jtecs.query.QueryDescriptor.builder()
                .include(POSITION).build());
        world.batchSet(positions, HEALTH, (archetype, from, to) -> {
            for (int row = from; row < to; row++) {
                archetype.getMut(HEALTH).set(row, 40.0 + row);
            }
        });
        assertTrue(world.get(a, HEALTH) >= 40.0 && world.get(b, HEALTH) >= 40.0);
        assertEquals(7.0, world.get(outsider, HEALTH), "not a member");
        world.batchRemove(positions, KNOWS.to(t1));
        List<Long> knownByA = new ArrayList<>();
        world.targets(t2, KNOWS, knownByA::add);
        assertEquals(List.of(a), knownByA);
        List<Long> knowingT1 = new ArrayList<>();
        world.targets(t1, KNOWS, knowingT1::add);
        assertEquals(List.of(), knowingT1, "the edge to t1 left both members");
        assertTrue(world.has(a, KNOWS) && !world.has(b, KNOWS));
        world.batchDespawn(positions);
        assertFalse(world.isAlive(a) || world.isAlive(b));
        assertTrue(world.isAlive(outsider));
    }

    @Test
    void edgesAreReadRemovedAndWalkedThroughTheWorld() {
        long root = committed();
        long child = committed(UNDER.to(root));
        long grandchild = committed(UNDER.to(child));
        long other = committed(UNDER.to(root));
        List<String> visited = new ArrayList<>();
        world.traverse(root, UNDER, (entity, depth) -> visited.add(entity + "@" + depth));
        assertEquals(List.of(child + "@0", grandchild + "@1", other + "@0"), visited);
        List<String> up = new ArrayList<>();
        world.walkUp(grandchild, UNDER, (ancestor, depth) -> up.add(ancestor + "@" + depth));
        assertEquals(List.of(child + "@1", root + "@2"), up);
        assertThrows(IllegalStateException.class, () -> world.walkUp(grandchild, UNDER, (x, d) -> true, 1),
                "deeper than the limit");
        List<Long> sources = new ArrayList<>();
        world.targets(root, UNDER, sources::add);
        assertEquals(List.of(child, other), sources);
        assertEquals(null, world.getFirstRelationship(root, UNDER), "no edge of its own");
        assertEquals(world.get(child, UNDER), world.getFirstRelationship(child, UNDER));
        assertTrue(world.getFirstRelationship(child, UNDER) != null, "child has its edge to root");
        assertTrue(world.has(child, UNDER.targeting(root)));

        world.remove(other, UNDER.to(root));
        assertFalse(world.has(other, UNDER));
        sources.clear();
        world.targets(root, UNDER, sources::add);
        assertEquals(List.of(child), sources);
    }

    @Test
    void getMutOfARelationshipMarksTheEdgesColumnAndTheWildcard() {
        long a = committed();
        long b = committed();
        long id = committed(SPRING.of(new Spring(a, 1f)), SPRING.of(new Spring(b, 2f)));
        Archetype archetype = world.archetypeOf(id);
        archetype.clearDirtyComponents();
        String pairA = "test.world.Spring(" + Entity.toString(a) + ")";
        String pairB = "test.world.Spring(" + Entity.toString(b) + ")";

        assertEquals(new Spring(a, 1f), world.getMut(id, SPRING), "the first edge, ascending target order");
        assertEquals(List.of("test.world.Spring", pairA), dirtyNames(archetype));
        archetype.clearDirtyComponents();
        assertEquals(new Spring(b, 2f), world.getMut(id, SPRING.targeting(b)));
        assertEquals(List.of("test.world.Spring", pairB), dirtyNames(archetype));
        archetype.clearDirtyComponents();

        long c = committed();
        assertNull(world.getMut(id, SPRING.targeting(c)), "no edge to c");
        long plain = committed(HEALTH);
        world.archetypeOf(plain).clearDirtyComponents();
        assertNull(world.getMut(plain, SPRING), "no edge at all");
        assertFalse(archetype.anyComponentDirty());
        assertFalse(world.archetypeOf(plain).anyComponentDirty());
    }

    private static List<String> dirtyNames(Archetype archetype) {
        return archetype.dirtyComponents().stream().map(Component::name).toList();
    }

    /** The pair component of {@code id}'s archetype for the edge to {@code target}. */
    private Component<?> pairOf(long id, long target) {
        for (Component<?> component : world.archetypeOf(id).components()) {
            if (component instanceof dev.jtecs.component.PairComponent pair && pair.target() == target) {
                return pair;
            }
        }
        throw new AssertionError("no pair to " + target);
    }

    @Test
    void compactForgetsThePairsOfDeadTargetsAndKeepsTheRest() {
        long dying = committed();
        long staying = committed();
        long source = committed(KNOWS.to(dying), KNOWS.to(staying));
        Component<?> deadPair = pairOf(source, dying);
        Component<?> livePair = pairOf(source, staying);
        world.despawn(dying);
        assertEquals(1, world.findArchetypes(deadPair).size(), "known until compaction, in no archetype with rows");
        world.compact();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> world.findArchetypes(deadPair));
        assertTrue(e.getMessage().contains("compact() forgot it"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> world.getMut(source, deadPair));
        assertThrows(IllegalArgumentException.class, () -> world.markComponentDirty(source, deadPair));
        assertEquals(List.of(world.archetypeOf(source)), world.findArchetypes(livePair));
        assertEquals(List.of(world.archetypeOf(source)), world.findArchetypes(KNOWS.targeting(staying)));
        assertEquals(List.of(), world.findArchetypes(KNOWS.targeting(dying)), "the forgotten pair has none");
    }

    @Test
    void aPairOfAnotherWorldIsRefusedByEveryCallThatNamesOne() {
        long target = committed();
        long source = committed(KNOWS.to(target), HEALTH);
        Component<?> pair = pairOf(source, target);
        try (World other = World.create()) {
            long otherTarget = other.spawn();
            long otherSource = other.spawn(KNOWS.to(otherTarget), HEALTH);
            for (Executable call : List.<Executable>of(() -> other.getMut(otherSource, pair),
                    () -> other.findArchetypes(pair), () -> other.markComponentDirty(otherSource, pair))) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
                assertTrue(e.getMessage().contains("belongs to another world"), e.getMessage());
            }
        }
    }

    @Test
    void aQueryWithAnAddedCallbackHearsTheRowsItStartsWith() {
        long a = committed(POSITION.of(pos(1, 2)));
        long b = committed(POSITION.of(pos(3, 4)), HEALTH);
        List<Long> heard = new ArrayList<>();
        world.newQuery(dev.jtecs.query.QueryDescriptor.builder().include(POSITION)
                .onEntitiesAdded((archetype, from, to) -> {
                    for (int row = from; row < to; row++) {
                        heard.add(archetype.entity(row));
                    }
                }).build());
        heard.sort(null);
        assertEquals(List.of(a, b), heard);
    }

    @Test
    void aCursorOpenedAfterAnUnwindStillPublishesWhenItCloses() {
        committed(POSITION);
        world.defer();
        world.unwind(); // a new epoch: cursors opened before it are void
        dev.jtecs.query.Query positions = world.newQuery(dev.jtecs.query.QueryDescriptor.builder()
                .include(POSITION).build());
        long spawned;
        try (dev.jtecs.query.QueryCursor cursor = positions.cursor()) {
            assertTrue(cursor.next());
            spawned = world.spawn(HEALTH);
            assertFalse(world.isAlive(spawned), "staged while the cursor is open");
        }
        assertEquals(0, world.scopeDepth());
        assertTrue(world.isAlive(spawned), "the cursor's close published it");
    }

    @Test
    void observersOnceAndStoppedAnswerForTheirAddress() {
        long dead = committed();
        world.despawn(dead);
        assertThrows(IllegalArgumentException.class,
                () -> world.observeOnce(dead, dev.jtecs.event.OnDespawn.class, e -> { }));
        long id = committed(POSITION);
        dev.jtecs.event.Observer<dev.jtecs.event.OnDespawn> never = e -> { };
        assertFalse(world.stopObserving(id, dev.jtecs.event.OnDespawn.class, never), "never registered");
        world.observe(id, dev.jtecs.event.OnDespawn.class, never);
        assertTrue(world.stopObserving(id, dev.jtecs.event.OnDespawn.class, never));
        assertFalse(world.stopObserving(id, dev.jtecs.event.OnDespawn.class, never), "stopped already");
    }

    static final TagComponent HUNGRY = Components.tag("test.world.Hungry");
    static final TagComponent WALKING = Components.tag("test.world.Walking");
    static final TagComponent RUNNING = Components.tag("test.world.Running");

    @Test
    void partitionsAreDeclaredSetAndReadThroughTheWorld() {
        dev.jtecs.mutation.PartitionDimension hunger = dev.jtecs.mutation.PartitionDimension.presence(
                "test.world.hunger", HUNGRY);
        dev.jtecs.mutation.PartitionDimension gait = dev.jtecs.mutation.PartitionDimension.variants(
                "test.world.gait", WALKING, RUNNING);
        long id = committed(POSITION);
        assertThrows(IllegalArgumentException.class, () -> world.partitionOf(id, hunger), "not declared yet");
        world.declarePartition(hunger);
        world.declarePartition(gait);
        assertEquals(List.of(hunger, gait), world.partitionDimensions());
        assertNull(world.partitionOf(id, hunger));
        world.setTag(id, HUNGRY);
        world.setTag(id, RUNNING);
        assertSame(HUNGRY, world.partitionOf(id, hunger));
        assertSame(RUNNING, world.partitionOf(id, gait));
        world.setTag(id, WALKING);
        assertSame(WALKING, world.partitionOf(id, gait));
        assertFalse(world.has(id, RUNNING));
        world.unsetTag(id, HUNGRY);
        assertNull(world.partitionOf(id, hunger));
        assertTrue(world.has(id, POSITION));
        world.despawn(id);
        assertNull(world.partitionOf(id, gait), "a dead entity holds none");
    }

    @Test
    void spawnsThroughBatchesListsAndQueuesReturnWhatTheyStarted() {
        long[] ids = new long[5];
        world.batchSpawn(3, List.of(POSITION.of(pos(1, 1))), null, ids, 1);
        assertEquals(0L, ids[0]);
        assertEquals(0L, ids[4]);
        for (int i = 1; i <= 3; i++) {
            assertEquals(pos(1, 1), world.get(ids[i], POSITION));
        }
        assertEquals(2, world.despawn(ids, 1, 3));
        assertEquals(1, world.entityCount());
        world.defer();
        long[] twice = {ids[3], ids[3] + 0};
        assertThrows(IllegalArgumentException.class, () -> world.despawn(twice, 0, 2), "listed twice");
        world.despawn(ids[3]);
        assertEquals(0, world.despawn(new long[] {ids[3]}, 0, 1), "already being despawned");
        world.commit();
        dev.jtecs.mutation.SpawnQueue queue = world.spawnQueue(List.of(POSITION, HEALTH));
        long queued = queue.spawn();
        queue.set(POSITION.floatField("x"), 9f);
        assertEquals(queued, queue.last());
        world.commit();
        assertEquals(pos(9, 0), world.get(queued, POSITION));
        assertEquals(100.0, world.get(queued, HEALTH));
    }

    @Test
    void aQueryWhoseGroupByThrowsLeavesNoCallbackBehind() {
        committed(POSITION);
        committed(POSITION, HEALTH);
        List<String> heard = new ArrayList<>();
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> world.newQuery(
                dev.jtecs.query.QueryDescriptor.builder().include(POSITION)
                        .groupBy(archetype -> {
                            if (archetype.has(HEALTH)) {
                                throw new IllegalStateException("groupBy");
                            }
                            return 0;
                        })
                        .onEntitiesAdded((archetype, from, to) -> heard.add("added " + (to - from)))
                        .onEntitiesRemoved((archetype, from, to) -> heard.add("removed " + (to - from)))
                        .build()));
        assertEquals("groupBy", thrown.getMessage());
        long id = world.spawn(POSITION); // into the archetype the query took before its groupBy threw
        world.despawn(id);
        assertEquals(List.of(), heard, "no query was made, so nothing hears the archetype it had taken");
    }

    static final TagComponent[] SHAPES = new TagComponent[24];

    static {
        for (int i = 0; i < SHAPES.length; i++) {
            SHAPES[i] = Components.tag("test.world.Shape" + i);
        }
    }

    /**
     * A new archetype that a query cannot take (its arrays fail to grow) is withdrawn: every query forgets it (the
     * one that took it before the failing one included), the registry prunes it, and the failure propagates; the
     * world then creates it again on the next try. Each heap growth of the spawn that creates it is failed in turn,
     * in a new world each time, until the spawn makes fewer growths than the fault waits for. Two queries match the
     * new archetype: {@code first} has room for it, {@code full} holds eight archetypes and must grow for a ninth.
     */
    @Test
    void anArchetypeAQueryCouldNotTakeIsWithdrawnSoNoQueryMissesIt() {
        assertTrue(dev.jtecs.entity.internal.AllocationFaults.ENABLED, "the suite runs with allocation faults on");
        int withdrawn = 0;
        for (int k = 1; ; k++) {
            assertTrue(k < 200, "some growth count lets the spawn through");
            try (World w = World.create()) {
                List<Archetype> grouped = new ArrayList<>(); // what full's groupBy was asked about
                List<String> heard = new ArrayList<>();
                dev.jtecs.query.Query first = w.newQuery(dev.jtecs.query.QueryDescriptor.builder()
                        .include(SHAPES[8]).onEntitiesAdded((a, from, to) -> heard.add("first " + (to - from)))
                        .build());
                dev.jtecs.query.Query full = w.newQuery(dev.jtecs.query.QueryDescriptor.builder().include(POSITION)
                        .groupBy(a -> {
                            grouped.add(a);
                            return 0;
                        }).build());
                for (int i = 0; i < 8; i++) {
                    w.spawn(POSITION.of(pos(i, 0)), SHAPES[i]);
                }
                assertEquals(8, full.archetypes().size());
                int archetypes = w.archetypeCount();
                grouped.clear();
                var spawnInput = POSITION.of(pos(k, 0));
                dev.jtecs.testing.FaultAttempt.Outcome outcome = dev.jtecs.testing.FaultAttempt.run(
                        dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP, k, () -> w.spawn(spawnInput, SHAPES[8]));
                boolean failed = outcome == dev.jtecs.testing.FaultAttempt.Outcome.FAILED;
                boolean unspent = outcome == dev.jtecs.testing.FaultAttempt.Outcome.UNSPENT; // fewer growths than k
                if (failed) {
                    String at = "growth " + k;
                    assertEquals(8, w.entityCount(), at);
                    assertEquals(archetypes, w.archetypeCount(), at);
                    assertTrue(w.findArchetypes(SHAPES[8]).isEmpty(), at + ": the archetype was withdrawn");
                    assertEquals(List.of(), first.archetypes(), at + ": the query that took it forgot it");
                    assertEquals(8, full.archetypes().size(), at);
                    if (!grouped.isEmpty()) {
                        withdrawn++; // full met it (its groupBy ran) and could not take it
                    }
                } else if (!unspent) {
                    continue; // a cache's growth failed and was let go: the spawn went on without it
                }
                long id = w.spawn(POSITION.of(pos(k, 1)), SHAPES[8]); // the world goes on: created (again)
                assertEquals(List.of(w.archetypeOf(id)), first.archetypes(), "growth " + k);
                assertTrue(full.archetypes().contains(w.archetypeOf(id)), "growth " + k);
                assertEquals(failed ? 1 : 2, first.count(), "growth " + k);
                assertEquals(failed ? List.of("first 1") : List.of("first 1", "first 1"), heard, "growth " + k);
                if (unspent) {
                    break; // fewer growths than k: every one of them was failed in turn
                }
            }
        }
        assertTrue(withdrawn > 0, "a growth of the full query's arrays was among those failed");
    }

    @Test
    void randomStreamsFollowTheWorldSeed() {
        world.seedRandom(1234);
        assertEquals(1234, world.randomSeed());
        int first = world.randomStream("test.world.dice").nextInt();
        try (World other = World.create()) {
            other.seedRandom(1234);
            assertEquals(first, other.randomStream("test.world.dice").nextInt());
        }
        assertSame(world.randomStream("test.world.dice"), world.randomStream("test.world.dice"));
    }

    @Test
    void setNominalFrameTime() {
        List<String> log = new ArrayList<>();
        world.setNominalFrameTime(0.5);
        world.addSystem(dev.jtecs.schedule.SystemConfig.named("early").runIf(dev.jtecs.schedule.RunIf.afterFrames(2))
                .run((dt, w) -> log.add("early")));
        world.update(0.25); // "early" starts waiting: 2 frames of 0.5 s, a 1.0 s deadline from now on
        world.setNominalFrameTime(0.1);
        world.addSystem(dev.jtecs.schedule.SystemConfig.named("late").runIf(dev.jtecs.schedule.RunIf.afterFrames(2))
                .run((dt, w) -> log.add("late")));
        world.update(0.25); // "late" starts at 0.1 s per frame: 0.2 s, met at once; "early" has 0.5 of 1.0
        assertEquals(List.of("late"), log);
        world.update(0.25);
        assertEquals(List.of("late"), log, "the wait under way kept its deadline");
        world.update(0.25);
        assertEquals(List.of("late", "early"), log);
        assertThrows(IllegalArgumentException.class, () -> world.setNominalFrameTime(0));
        assertEquals(0.1, world.getNominalFrameTime());
    }

    /** A native record whose second accessor throws while {@code armed} is set (user code the writes call). */
    record Brittle(float a, float b) {
        static boolean armed;

        @Override
        public float b() {
            if (armed) {
                throw new IllegalStateException("accessor");
            }
            return b;
        }
    }

    static final NativeComponent<Brittle> BRITTLE = Components.registerNative(Brittle.class);

    @Test
    void aNativeRecordWhoseAccessorThrowsLeavesNoTornValueOnAnyPath() {
        long id = world.spawn(BRITTLE.of(new Brittle(1, 2)));
        Brittle.armed = true;
        try {
            assertThrows(IllegalStateException.class, () -> world.set(id, BRITTLE.of(new Brittle(5, 6)))); // instant
            world.defer();
            assertThrows(IllegalStateException.class, () -> world.set(id, BRITTLE.of(new Brittle(7, 8)))); // through
            assertEquals(new Brittle(1, 2), world.get(id, BRITTLE));
            world.commit();
            int count = world.entityCount();
            assertThrows(IllegalStateException.class, () -> world.spawn(BRITTLE.of(new Brittle(9, 9))));
            assertEquals(count, world.entityCount(), "an instant spawn whose value threw publishes nothing");
            world.defer();
            long staged = world.spawn(BRITTLE.of(new Brittle(3, 3)));
            assertThrows(IllegalStateException.class, world::commit); // the publication writes the record
            assertFalse(world.isAlive(staged));
            assertEquals(count, world.entityCount());
        } finally {
            Brittle.armed = false;
        }
        world.unwind();
        assertEquals(new Brittle(1, 2), world.get(id, BRITTLE), "no field of the refused values landed");
        world.set(id, BRITTLE.of(new Brittle(4, 5)));
        assertEquals(new Brittle(4, 5), world.get(id, BRITTLE));
    }
}
