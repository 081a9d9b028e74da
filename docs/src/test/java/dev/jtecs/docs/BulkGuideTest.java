package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.Disabled;
import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.Input;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.event.OnDespawn;
import dev.jtecs.event.OnSpawn;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.DoubleColumn;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.storage.ObjectColumn;
import dev.jtecs.mutation.BatchIds;
import dev.jtecs.mutation.SpawnQueue;
import dev.jtecs.world.CompactResult;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import dev.jtecs.world.WorldStats;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples of {@code docs/bulk.md}. */
class BulkGuideTest {
    record Position(float x, float y) {}

    record Velocity(float dx, float dy) {}

    record Inventory(List<String> items) {}

    static final NativeComponent<Position> POSITION =
            Components.registerNative(Position.class, o -> o.name("docs.bulk.Position"));
    static final NativeComponent<Velocity> VELOCITY =
            Components.registerNative(Velocity.class, o -> o.name("docs.bulk.Velocity"));
    static final FloatField X = POSITION.floatField("x");
    static final FloatField DX = VELOCITY.floatField("dx");
    static final ScalarComponent.OfDouble HEALTH = Components.scalar("docs.bulk.Health", 100.0);
    static final ScalarComponent.OfDouble ARMOR = Components.scalar("docs.bulk.Armor", 0.0);
    /** A managed record whose default factory a batch never calls. */
    static final ManagedComponent<Inventory> INVENTORY = Components.registerManaged(Inventory.class,
            o -> o.name("docs.bulk.Inventory").defaults(() -> new Inventory(List.of())));
    static final TagComponent FROZEN = Components.tag("docs.bulk.Frozen");
    /** Requires {@code ARMOR.of(25.0)}. */
    static final TagComponent GUARD = Components.tag("docs.bulk.Guard", o -> o.requires(ARMOR.of(25.0)));
    /** Requires {@code EntityKey}: no batch spawn may include it. */
    static final TagComponent UNIQUE = Components.tag("docs.bulk.Unique", o -> o.requires(EntityKey.COMPONENT));

    static Query positioned(World world) {
        return world.newQuery(QueryDescriptor.builder().include(POSITION).build());
    }

    // ---------------------------------------------------------------- spawn batches

    @Test
    void batchSpawnWithAnInitializer() {
        try (World world = World.create()) {
            // begin-example
            List<String> seen = new ArrayList<>();
            world.observe(Entity.WORLD, OnSpawn.class, event -> seen.add("OnSpawn"));
            world.newQuery(QueryDescriptor.builder().include(POSITION).onEntitiesAdded((archetype, fromRow, toRow) ->
                    seen.add("added " + fromRow + ".." + toRow + " x=" + archetype.get(X).get(toRow - 1))).build());

            BatchIds ids = world.batchSpawn(1000, List.of(POSITION), (archetype, fromRow, toRow) -> {
                seen.add("init " + fromRow + ".." + toRow);
                FloatColumn x = archetype.getMut(X);
                for (int row = fromRow; row < toRow; row++) {
                    x.set(row, row * 0.5f);
                }
            });
            assertEquals(List.of("init 0..1000", "added 0..1000 x=499.5"), seen); // and no OnSpawn
            assertTrue(ids.isContiguous());
            assertEquals(ids.first() + 999, ids.get(999));
            assertEquals(new Position(499.5f, 0), world.get(ids.get(999), POSITION));
            // end-example
        }
    }

    @Test
    void rowsStartWithoutConstructors() {
        try (World world = World.create()) {
            // begin-example
            Inventory kit = new Inventory(new ArrayList<>(List.of("rope")));
            BatchIds ids = world.batchSpawn(3, List.of(
                    POSITION.of(new Position(1, 2)), // a constant: copied into every row
                    INVENTORY.of(kit),               // a managed record constant: copied per entity, shallowly
                    VELOCITY,                        // a native definition: zero bits
                    HEALTH,                          // a scalar definition: its default
                    GUARD));                         // requires Armor(25)
            long second = ids.get(1);
            assertEquals(new Position(1, 2), world.get(second, POSITION));
            assertEquals(new Velocity(0, 0), world.get(second, VELOCITY));
            assertEquals(100.0, world.get(second, HEALTH));
            assertEquals(25.0, world.get(second, ARMOR));

            Inventory copy = world.get(second, INVENTORY);
            assertEquals(kit, copy);
            assertNotSame(kit, copy);              // each entity has a record of its own...
            assertSame(kit.items(), copy.items()); // ...that shares the nested list
            // end-example
        }
    }

    @Test
    void managedDefinitionsStartEmpty() {
        try (World world = World.create()) {
            // begin-example
            BatchIds ids = world.batchSpawn(2, List.of(INVENTORY), (archetype, fromRow, toRow) -> {
                ObjectColumn<Inventory> inventories = archetype.getMut(INVENTORY);
                inventories.set(fromRow, new Inventory(List.of("map"))); // the first row only
            });
            assertEquals(new Inventory(List.of("map")), world.get(ids.get(0), INVENTORY));
            assertTrue(world.has(ids.get(1), INVENTORY));
            assertNull(world.get(ids.get(1), INVENTORY)); // the default factory never ran
            // end-example
        }
    }

    @Test
    void reservedIdsWorkInsideAScope() {
        try (World world = World.create()) {
            // begin-example
            List<Long> despawned = new ArrayList<>();
            world.observe(Entity.WORLD, OnDespawn.class, event -> despawned.add(event.entity()));

            world.defer();
            BatchIds ids = world.batchSpawn(4, List.of(POSITION), (archetype, fromRow, toRow) -> {
                FloatColumn x = archetype.getMut(X);
                for (int row = fromRow; row < toRow; row++) {
                    x.set(row, 1f);
                }
            });
            assertFalse(world.isAlive(ids.first())); // reserved, not published
            world.set(ids.get(0), POSITION.of(new Position(9, 9))); // applied after the initializer
            world.set(ids.get(1), FROZEN);
            world.despawn(ids.get(3));                    // cancelled: it will get no row...
            assertEquals(List.of(ids.get(3)), despawned); // ...but OnDespawn is delivered
            world.commit();

            assertEquals(new Position(9, 9), world.get(ids.get(0), POSITION));
            assertTrue(world.has(ids.get(1), FROZEN));
            assertEquals(new Position(1, 0), world.get(ids.get(1), POSITION));
            assertFalse(world.isAlive(ids.get(3)));
            assertEquals(3, world.entityCount());
            // end-example
        }
    }

    @Test
    void recycledSlotsGiveAnExplicitList() {
        try (World world = World.create()) {
            // begin-example
            long a = world.spawn(POSITION);
            long b = world.spawn(POSITION);
            world.despawn(a);
            world.despawn(b); // slots 1 and 2 are free again, at generation 1

            BatchIds ids = world.batchSpawn(4, List.of(POSITION));
            assertFalse(ids.isContiguous()); // recycled slots first, then fresh ones
            assertEquals(Entity.pack(2, 1), ids.get(0));
            assertEquals(Entity.pack(3, 0), ids.get(2));
            for (long id : ids.toArray()) {
                assertTrue(world.isAlive(id));
            }
            // end-example
        }
    }

    @Test
    void idsIntoABufferYouKeep() {
        try (World world = World.create()) {
            world.batchSpawn(1000, List.of(POSITION));
            // begin-example
            List<Input> burst = List.of(POSITION, VELOCITY.of(new Velocity(0, 1))); // kept: planned once
            long[] ids = new long[64];                                             // kept: refilled each time
            world.batchSpawn(50, burst, null, ids, 0);
            for (int frame = 0; frame < 3; frame++) {
                long first = ids[0];
                world.despawn(ids, 0, 50);                 // this frame's expired particles...
                world.batchSpawn(50, burst, null, ids, 0); // ...and the burst that replaces them
                assertFalse(world.isAlive(first));
                assertEquals(new Velocity(0, 1), world.get(ids[49], VELOCITY));
            }
            assertEquals(1050, world.entityCount());
            assertThrows(IllegalArgumentException.class, // 64 - 20 < 50: refused, nothing reserved
                    () -> world.batchSpawn(50, burst, null, ids, 20));
            // end-example
            assertEquals(1050, world.entityCount());
        }
    }

    @Test
    void badBatchInputChangesNothing() {
        try (World world = World.create(WorldConfig.defaults().maxEntities(100))) {
            // begin-example
            Query query = positioned(world);
            assertThrows(IllegalArgumentException.class, () -> world.batchSpawn(0, List.of(POSITION)));
            assertThrows(IllegalArgumentException.class,
                    () -> world.batchSpawn(2, List.of(POSITION, EntityKey.COMPONENT)));
            assertThrows(IllegalArgumentException.class, // EntityKey through a requirement
                    () -> world.batchSpawn(2, List.of(POSITION, UNIQUE)));
            assertThrows(IllegalArgumentException.class,
                    () -> world.batchSet(query, EntityKey.COMPONENT.of("boss")));
            assertThrows(IllegalStateException.class, () -> world.batchSpawn(101, List.of(POSITION)));
            try (World other = World.create()) {
                assertThrows(IllegalArgumentException.class, () -> other.batchDespawn(query));
            }
            assertFalse(world.hasPendingChanges());
            assertEquals(100, world.batchSpawn(100, List.of(POSITION)).count()); // no id was used up
            // end-example
        }
    }

    // ---------------------------------------------------------------- restoration

    @Test
    void batchSpawnAtRestoresExactIds() {
        try (World world = World.create()) {
            // begin-example
            long live = world.spawn(POSITION);
            long[] saved = {Entity.pack(5, 3), Entity.pack(2, 0), Entity.pack(9, 7)};

            long[] clash = {Entity.pack(7, 0), live}; // live is in use
            assertThrows(IllegalArgumentException.class, () -> world.batchSpawnAt(clash, List.of(POSITION), null));
            assertFalse(world.isAlive(Entity.pack(7, 0))); // checked every id, reserved none

            world.batchSpawnAt(saved, List.of(POSITION.of(new Position(1, 1))), null);
            for (long id : saved) {
                assertEquals(new Position(1, 1), world.get(id, POSITION));
            }
            world.spawnAt(Entity.pack(7, 0), POSITION); // the rejected call left slot 7 free
            // end-example
        }
    }

    @Test
    void batchSpawnAtRawClaimsKeysAfterTheInitializer() {
        try (World world = World.create()) {
            // begin-example
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment saved = arena.allocate(ValueLayout.JAVA_LONG, 2); // e.g. read from a save file
                saved.setAtIndex(ValueLayout.JAVA_LONG, 0, Entity.pack(4, 1));
                saved.setAtIndex(ValueLayout.JAVA_LONG, 1, Entity.pack(6, 0));

                world.batchSpawnAtRaw(saved, 2, List.of(POSITION, EntityKey.COMPONENT),
                        (archetype, fromRow, toRow) -> {
                            ObjectColumn<String> keys = archetype.getMut(EntityKey.COMPONENT);
                            for (int row = fromRow; row < toRow; row++) {
                                keys.set(row, "npc-" + row);
                            }
                        }); // instant path: published, and the array read, before the call returns
            }
            assertEquals(Entity.pack(4, 1), world.byKey("npc-0"));
            assertEquals(Entity.pack(6, 0), world.byKey("npc-1"));
            // end-example
        }
    }

    // ---------------------------------------------------------------- query batches

    @Test
    void batchSetAddsOrOverwrites() {
        try (World world = World.create()) {
            // begin-example
            BatchIds still = world.batchSpawn(3, List.of(POSITION));
            BatchIds moving = world.batchSpawn(2, List.of(POSITION, VELOCITY.of(new Velocity(1, 1))));
            Query query = positioned(world);

            world.batchSet(query, VELOCITY.of(new Velocity(7, 8)));
            assertEquals(new Velocity(7, 8), world.get(still.get(0), VELOCITY));  // added where missing
            assertEquals(new Velocity(7, 8), world.get(moving.get(1), VELOCITY)); // overwritten in place

            world.batchSet(query, GUARD); // requirements come along, in bulk
            assertEquals(25.0, world.get(still.get(2), ARMOR));

            world.batchRemove(query, VELOCITY);
            assertFalse(world.has(moving.get(0), VELOCITY));
            assertTrue(world.has(moving.get(0), GUARD));
            // end-example
        }
    }

    @Test
    void membersAreCapturedAtTheCall() {
        try (World world = World.create()) {
            // begin-example
            long member = world.spawn(POSITION);
            long disabled = world.spawn(POSITION, Disabled.COMPONENT);
            Query query = positioned(world);

            world.defer();
            long before = world.spawn(POSITION); // staged, so not a member yet
            world.batchSet(query, FROZEN);        // takes the members the query has now
            long after = world.spawn(POSITION);
            world.commit();

            assertTrue(world.has(member, FROZEN));
            assertFalse(world.has(disabled, FROZEN)); // the query's state filter applies
            assertFalse(world.has(before, FROZEN));
            assertFalse(world.has(after, FROZEN));
            // end-example
        }
    }

    @Test
    void writerRunsOncePerRowRange() {
        try (World world = World.create()) {
            // begin-example
            world.batchSpawn(1000, List.of(POSITION));
            List<String> seen = new ArrayList<>();
            world.newQuery(QueryDescriptor.builder().include(VELOCITY).onEntitiesAdded((archetype, fromRow, toRow) ->
                    seen.add("added " + fromRow + ".." + toRow + " dx=" + archetype.get(DX).get(fromRow))).build());

            world.batchSet(positioned(world), VELOCITY, (archetype, fromRow, toRow) -> {
                seen.add("writer " + fromRow + ".." + toRow);
                FloatColumn dx = archetype.getMut(DX); // the added column starts as zero bits
                for (int row = fromRow; row < toRow; row++) {
                    dx.set(row, dx.get(row) + 2f);
                }
            });
            assertEquals(List.of("writer 0..1000", "added 0..1000 dx=2.0"), seen);
            // end-example
        }
    }

    @Test
    void aQueryBatchKeepsCallOrder() {
        try (World world = World.create()) {
            // begin-example
            BatchIds ids = world.batchSpawn(3, List.of(POSITION, HEALTH));

            world.defer();
            world.set(ids.get(0), FROZEN);
            world.set(ids.get(0), HEALTH.of(10.0)); // staged behind the move
            world.batchSet(positioned(world), HEALTH, (archetype, fromRow, toRow) -> {
                DoubleColumn health = archetype.getMut(HEALTH);
                for (int row = fromRow; row < toRow; row++) {
                    health.set(row, health.get(row) + 1);
                }
            });
            world.set(ids.get(1), HEALTH.of(50.0)); // a batch is pending: no write-through
            assertEquals(100.0, world.get(ids.get(1), HEALTH));
            world.commit();

            assertEquals(11.0, world.get(ids.get(0), HEALTH));  // the writer saw the earlier value
            assertEquals(50.0, world.get(ids.get(1), HEALTH));  // the later value came after it
            assertEquals(101.0, world.get(ids.get(2), HEALTH));
            // end-example
        }
    }

    @Test
    void batchDespawnDeliversEventsAtTheCall() {
        try (World world = World.create()) {
            // begin-example
            BatchIds ids = world.batchSpawn(4, List.of(POSITION));
            List<String> seen = new ArrayList<>();
            world.observe(Entity.WORLD, OnDespawn.class, event -> seen.add("OnDespawn"));
            world.newQuery(QueryDescriptor.builder().include(POSITION).onEntitiesRemoved((archetype, fromRow, toRow) ->
                    seen.add("removed " + fromRow + ".." + toRow)).build());

            world.defer();
            world.batchDespawn(positioned(world));
            assertEquals(4, seen.size());          // four OnDespawn, during the call
            assertTrue(world.isAlive(ids.get(0))); // alive and readable until publication
            world.set(ids.get(1), FROZEN);         // selected: later calls are ignored
            world.despawn(ids.get(2));             // no second OnDespawn
            world.commit();

            assertEquals("removed 0..4", seen.get(4)); // one range, one truncation
            assertEquals(5, seen.size());
            assertEquals(0, world.entityCount());
            // end-example
        }
    }

    // ---------------------------------------------------------------- storage paths

    @Test
    void aWholeArchetypeMoveExchangesBuffers() {
        try (World world = World.create()) {
            // begin-example
            BatchIds ids = world.batchSpawn(100, List.of(POSITION), (archetype, fromRow, toRow) -> {
                for (int row = fromRow; row < toRow; row++) {
                    archetype.getMut(X).set(row, row);
                }
            });
            Archetype source = world.archetypeOf(ids.first());
            long buffer = source.get(X).segment().address();

            world.batchSet(positioned(world), FROZEN); // {Position, Frozen} is empty: buffers change hands
            Archetype target = world.archetypeOf(ids.first());
            assertEquals(buffer, target.get(X).segment().address()); // the same memory, now target's
            assertEquals(0, source.capacityRows());                   // the source kept no storage
            assertEquals(7, world.rowOf(ids.get(7)));                 // rows kept their order

            long resident = world.spawn(POSITION.of(new Position(-1, -1)));
            world.batchRemove(world.newQuery(QueryDescriptor.builder().include(FROZEN).build()), FROZEN);
            assertEquals(101, source.count()); // populated: copied in behind the resident
            assertEquals(0, world.rowOf(resident));
            assertEquals(8, world.rowOf(ids.get(7)));
            assertEquals(new Position(7, 0), world.get(ids.get(7), POSITION));
            // end-example
        }
    }

    @Test
    void aTagMovedOnAndOffAgainReusesTheBuffers() {
        try (World world = World.create()) {
            // begin-example
            BatchIds ids = world.batchSpawn(1000, List.of(POSITION), (archetype, fromRow, toRow) -> { });
            Archetype plain = world.archetypeOf(ids.first());
            long other = world.spawn(POSITION, FROZEN);
            Archetype cold = world.archetypeOf(other); // {Position, Frozen}: the same columns as plain
            world.despawn(other);                      // empty now, but with buffers of its own
            long coldBuffer = cold.getMut(X).segment().address();
            long plainBuffer = plain.get(X).segment().address();

            world.batchSet(positioned(world), FROZEN); // buffers change hands, both ways
            assertEquals(plainBuffer, cold.get(X).segment().address());
            assertEquals(coldBuffer, plain.getMut(X).segment().address()); // kept, not freed
            assertEquals(1000, cold.count());
            assertEquals(0, plain.count());
            // end-example
        }
    }

    @Test
    void changedArchetypesFallBackToOneByOne() {
        try (World world = World.create()) {
            // begin-example
            BatchIds ids = world.batchSpawn(4, List.of(POSITION));
            List<String> calls = new ArrayList<>();

            world.defer();
            world.despawn(ids.get(0)); // publishes before the batch, and changes its archetype
            world.batchSet(positioned(world), POSITION, (archetype, fromRow, toRow) ->
                    calls.add(fromRow + ".." + toRow));
            world.commit();
            assertEquals(3, calls.size()); // one call per surviving member, not one for the archetype
            // end-example
        }
    }

    // ---------------------------------------------------------------- maintenance

    @Test
    void despawnAListOfIds() {
        try (World world = World.create()) {
            // begin-example
            long[] ids = new long[5];
            world.batchSpawn(5, List.of(POSITION), null, ids, 0);
            List<Long> seen = new ArrayList<>();
            world.observe(Entity.WORLD, OnDespawn.class, event -> seen.add(event.entity()));

            long[] bad = {ids[0], ids[3], ids[0]};  // ids[0] twice
            IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                    () -> world.despawn(bad, 0, 3));
            assertTrue(twice.getMessage().startsWith("despawn ids[2]: entity"));
            assertEquals(List.of(), seen);          // checked first: nothing delivered, nothing staged

            world.defer();
            world.despawn(ids[3]);
            assertEquals(2, world.despawn(ids, 1, 4)); // ids[3] was being despawned already
            assertTrue(world.isAlive(ids[1]));         // staged, like despawn(id)
            world.commit();
            assertEquals(List.of(ids[3], ids[1], ids[2]), seen); // one OnDespawn each, in list order
            assertEquals(2, world.entityCount());
            // end-example
        }
    }

    @Test
    void compactShrinksStorageOnAQuietWorld() {
        try (World world = World.create()) {
            // begin-example
            world.batchSpawn(10_000, List.of(POSITION));
            world.batchDespawn(positioned(world));
            long kept = world.spawn(POSITION.of(new Position(5, 6)));
            Archetype archetype = world.archetypeOf(kept);
            long before = world.nativeBytesReserved();

            world.defer();
            assertThrows(IllegalStateException.class, world::compact); // not inside a scope
            world.commit();

            assertEquals(new CompactResult(0, 1), world.compact()); // 1 row of a 10,000 high-water mark
            assertEquals(64, archetype.capacityRows());
            assertTrue(world.nativeBytesReserved() < before);
            assertEquals(new Position(5, 6), world.get(kept, POSITION));
            assertEquals(new CompactResult(0, 0), world.compact()); // nothing left to shrink
            // end-example
        }
    }

    @Test
    void clearEntitiesKeepsTheStructure() {
        try (World world = World.create()) {
            // begin-example
            long old = world.spawn(POSITION);
            world.batchSpawn(3, List.of(POSITION));
            Query query = positioned(world);
            List<Long> spawned = new ArrayList<>();
            world.observe(Entity.WORLD, OnSpawn.class, event -> spawned.add(event.entity()));
            int archetypes = world.archetypeCount();

            world.clearEntities();
            assertEquals(0, world.entityCount());
            assertFalse(world.isAlive(old)); // every old id is stale
            assertEquals(archetypes, world.archetypeCount());

            long fresh = world.spawn(POSITION);
            assertEquals(Entity.pack(1, 1), fresh); // the lowest slot comes back first
            assertEquals(1, query.count());          // the query still works
            assertEquals(List.of(fresh), spawned);   // and so does the world observer

            BatchIds ids = world.batchSpawn(5, List.of(POSITION)); // slots 2..4 at generation 1, then 5, 6 fresh
            assertFalse(ids.isContiguous());
            assertEquals(Entity.pack(5, 0), ids.get(3));
            // end-example
        }
    }

    @Test
    void statsFillTheCallersRecord() {
        try (World world = World.create()) {
            // begin-example
            WorldStats stats = new WorldStats(); // allocated once, refilled every frame
            world.batchSpawn(3, List.of(POSITION, VELOCITY));
            world.spawn(FROZEN);

            assertSame(stats, world.getStats(stats));
            assertEquals(4, stats.entities());
            assertEquals(world.archetypeCount(), stats.archetypes());
            assertEquals(3, stats.components()); // Position, Velocity and Frozen appear in archetypes
            assertEquals(world.nativeBytesReserved(), stats.nativeBytes());
            assertEquals(world.listSystems().size(), stats.systems()); // the builtin systems count too
            assertEquals(0, stats.fixedStepsDropped()); // no frame has run
            // end-example
        }
    }

    @Test
    void aSpawnQueueWritesEachEntitysValuesIntoItsStagedRow() {
        try (World world = World.create()) {
            float[] xs = {1, 2, 3};
            // begin-example
            SpawnQueue shots = world.spawnQueue(List.of(POSITION, VELOCITY.of(new Velocity(0, 5)))); // once
            long[] ids = new long[xs.length];
            world.defer();
            for (int i = 0; i < xs.length; i++) {
                ids[i] = shots.spawn(); // an id at once, OnSpawn delivered, the active state's tag added
                shots.set(X, xs[i]); // the last spawned entity's staged row: no record, no input object
            }
            assertFalse(world.isAlive(ids[0])); // staged, like any spawn in a scope
            world.commit(); // one range in one archetype: one bulk copy per column
            assertEquals(new Position(2, 0), world.get(ids[1], POSITION)); // y kept its default
            assertEquals(new Velocity(0, 5), world.get(ids[1], VELOCITY)); // the shape's constant
            // end-example
        }
    }

    @Test
    void aSpawnQueueStartsAManagedDefinitionAtItsDefaultAsASpawnDoes() {
        try (World world = World.create()) {
            // begin-example
            SpawnQueue packs = world.spawnQueue(List.of(POSITION, INVENTORY)); // INVENTORY by its definition
            long carried = packs.spawn(); // outside a scope: published before it returns
            assertEquals(new Inventory(List.of()), world.get(carried, INVENTORY)); // its factory's default
            assertEquals(world.get(world.spawn(POSITION, INVENTORY), INVENTORY), world.get(carried, INVENTORY));
            long[] batch = world.batchSpawn(1, List.of(POSITION, INVENTORY), null).toArray();
            assertNull(world.get(batch[0], INVENTORY)); // a batch leaves it to its initializer
            // end-example
        }
    }

    @Test
    void aReservedQueueSpawnsALevelWithoutGrowing() {
        try (World world = World.create()) {
            // begin-example
            SpawnQueue rocks = world.spawnQueue(List.of(POSITION)).reserve(5_000); // at level load
            world.defer();
            for (int i = 0; i < 5_000; i++) {
                rocks.spawn();
                rocks.set(X, i);
            }
            world.commit();
            assertEquals(5_000, world.entityCount());
            assertThrows(IllegalArgumentException.class, () -> rocks.reserve(Integer.MAX_VALUE)); // beyond maxEntities
            // end-example
        }
    }
}
