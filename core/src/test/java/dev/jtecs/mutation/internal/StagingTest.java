package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.mutation.BatchIds;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The per-entity transaction table ({@link Staging}) driven through the world: what {@code set}, {@code remove} and
 * {@code despawn} stage for an entity in each transaction state, for components, dense and sparse edges.
 */
class StagingTest {
    static final ScalarComponent.OfInt N = Components.scalar("test.staging.N", 4);
    static final Relationship SPARSE = Relationships.register("test.staging.Sparse", o -> o.sparse().reverseIndex());
    static final Relationship KNOWS = Relationships.register("test.staging.Knows");
    static final Relationship ONE = Relationships.register("test.staging.One", o -> o.exclusive());

    private final World world = World.create();

    @AfterEach
    void close() {
        world.close();
    }

    @Test
    void aKeyWrittenThroughWhoseClaimFailsLeavesTheEntityAndTheIndexAsTheyWere() {
        var key = dev.jtecs.builtin.EntityKey.COMPONENT;
        long door = world.spawn(key.of("door"));
        int failures = 0;
        for (int k = 1; ; k++) { // fail each heap allocation of the write-through in turn, then let it through
            dev.jtecs.entity.internal.AllocationFaults.failAt(dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP,
                    k);
            try {
                world.set(door, key.of("gate")); // the entity has a key and nothing staged: written through
            } catch (OutOfMemoryError expected) {
                failures++;
                assertEquals("door", world.get(door, key), "allocation " + k);
                assertEquals(door, world.byKey("door"), "allocation " + k);
                assertEquals(0, world.byKey("gate"), "allocation " + k);
                continue;
            } finally {
                dev.jtecs.entity.internal.AllocationFaults.disarm();
            }
            break;
        }
        assertEquals(dev.jtecs.entity.internal.AllocationFaults.ENABLED, failures > 0, "the claim was failed");
        assertEquals(door, world.byKey("gate"));
        assertEquals(0, world.byKey("door"));
        assertThrows(IllegalArgumentException.class, () -> world.spawn(key.of("gate")), "the key is held");
        long other = world.spawn(key.of("door")); // and the old one is free
        assertEquals(other, world.byKey("door"));
    }

    static final ScalarComponent.OfInt M = Components.scalar("test.staging.M", 0);
    static final dev.jtecs.component.TagComponent FLAG = Components.tag("test.staging.Flag");

    /**
     * A new value that would be staged as a compact value move is offered to the at-once hook first, and staged
     * only when the hook declines; a write-through and a tag are never offered.
     */
    @Test
    void aNewValueIsOfferedToTheAtOnceHookBeforeItIsStagedAndNothingElseIs() {
        try (DrainFixture rig = new DrainFixture()) {
            Staging staging = new Staging(rig.index, rig.registry, rig.tx, new KeyIndex(id -> null),
                    rig.registry.pairs(), rig.sparse);
            long a = rig.stageSpawn(N.of(1));
            long b = rig.stageSpawn(N.of(2));
            long c = rig.stageSpawn(N.of(3));
            long d = rig.stageSpawn(N.of(4));
            rig.drain.drain();
            List<Long> offered = new java.util.ArrayList<>();
            boolean[] accept = {false};
            staging.moveValuesAtOnceWith((id, input, table) -> {
                assertEquals(rig.tableOf(id), table, "the entity's table");
                assertFalse(table.has(M.id()), "which lacks the component");
                assertEquals(M, input.component());
                offered.add(id);
                return accept[0];
            });
            staging.set(a, dev.jtecs.entity.Entity.slot(a), N.of(5)); // a write-through
            staging.set(b, dev.jtecs.entity.Entity.slot(b), M.of(6)); // declined: staged
            accept[0] = true;
            staging.set(c, dev.jtecs.entity.Entity.slot(c), M.of(7)); // taken: not staged
            staging.set(d, dev.jtecs.entity.Entity.slot(d), FLAG); // a tag's compact move
            assertEquals(List.of(b, c), offered);
            assertFalse(rig.tx.hasStaged(dev.jtecs.entity.Entity.slot(a)));
            assertTrue(rig.tx.hasStaged(dev.jtecs.entity.Entity.slot(b)));
            assertFalse(rig.tx.hasStaged(dev.jtecs.entity.Entity.slot(c)));
            assertTrue(rig.tx.hasStaged(dev.jtecs.entity.Entity.slot(d)));
            dev.jtecs.storage.internal.Table table = rig.tableOf(a);
            assertEquals(5, table.readValue(table.position(N.id()), rig.index.rowOf(dev.jtecs.entity.Entity.slot(a))));
            rig.drain.drain();
            assertTrue(rig.tableOf(b).has(M.id()));
            assertFalse(rig.tableOf(c).has(M.id()), "the hook took it (and here did nothing with it)");
            assertTrue(rig.tableOf(d).has(FLAG.id()));
        }
    }

    record Spot(float x, float y) {} // plain: what the compiler generates
    record Clamped(float v) { // a constructor of its own: not plain
        Clamped {
            v = Math.max(0, v);
        }
    }

    static final dev.jtecs.component.NativeComponent<Spot> SPOT = Components.registerNative(Spot.class);
    static final dev.jtecs.component.NativeComponent<Clamped> CLAMPED = Components.registerNative(Clamped.class);

    /**
     * {@code nothingStaged}, which {@code MutationModel.setBitsAtOnce} asks before its short paths: true for a
     * published entity with nothing staged, false once a change is staged for it (a record) or it is doomed by a
     * staged despawn, and true again once that is published ({@code MutationModelTest} covers an open batch
     * boundary).
     */
    @Test
    void nothingIsStagedForAnEntityUntilAChangeOrADespawnIsStagedForIt() {
        try (DrainFixture rig = new DrainFixture()) {
            Staging staging = new Staging(rig.index, rig.registry, rig.tx, new KeyIndex(id -> null),
                    rig.registry.pairs(), rig.sparse);
            long c = rig.stageSpawn(SPOT.of(new Spot(5, 6)));
            long d = rig.stageSpawn(SPOT.of(new Spot(7, 8)));
            rig.drain.drain();
            int slotC = dev.jtecs.entity.Entity.slot(c);
            int slotD = dev.jtecs.entity.Entity.slot(d);
            assertTrue(staging.nothingStaged(slotC, rig.tableOf(c)));
            assertTrue(staging.nothingStaged(slotD, rig.tableOf(d)));

            staging.set(c, slotC, N.of(2)); // a staged change for c (a scalar the entity lacks: a compact move)
            assertFalse(staging.nothingStaged(slotC, rig.tableOf(c)), "a compact move");
            assertEquals(-1, rig.tx.peek(slotC), "still a compact move: asking made no record of it");
            staging.set(c, slotC, CLAMPED.of(new Clamped(3))); // and another: c now has a record
            assertFalse(staging.nothingStaged(slotC, rig.tableOf(c)), "a record");
            staging.despawn(d, slotD);
            assertFalse(staging.nothingStaged(slotD, rig.tableOf(d)), "doomed");
            rig.drain.drain();
            assertTrue(staging.nothingStaged(slotC, rig.tableOf(c)), "published now");
            assertTrue(rig.tableOf(c).has(CLAMPED.id()));
        }
    }

    private List<Long> targets(long id, Relationship relationship) {
        List<Long> out = new ArrayList<>();
        world.forEachRelationship(id, relationship, edge -> out.add(edge.target()));
        return out;
    }

    private Query withN() {
        return world.newQuery(QueryDescriptor.builder().include(N).build());
    }

    // ---------------------------------------------------------------- compact removals

    record Mass(float kg) {}

    static final dev.jtecs.component.NativeComponent<Mass> MASS = Components.registerNative(Mass.class,
            o -> o.name("test.staging.Mass"));
    static final dev.jtecs.component.ManagedComponent<StringBuilder> NOTE =
            Components.registerManaged(StringBuilder.class, o -> o.name("test.staging.Note"));
    static final dev.jtecs.component.TagComponent HOT = Components.tag("test.staging.Hot");

    @Test
    void onlyRemovalsThatArePlainRowMovesTakeTheCompactForm() {
        assertTrue(Staging.removesAsPlainMove(N));
        assertTrue(Staging.removesAsPlainMove(MASS));
        assertTrue(Staging.removesAsPlainMove(NOTE));
        assertTrue(Staging.removesAsPlainMove(HOT));
        assertFalse(Staging.removesAsPlainMove(dev.jtecs.builtin.EntityKey.COMPONENT), "releases a key");
        assertFalse(Staging.removesAsPlainMove(SPARSE), "a sparse marker goes with its edges");
        assertFalse(Staging.removesAsPlainMove(KNOWS), "a dense relationship's edges");
        long t = world.spawn();
        long e = world.spawn(KNOWS.to(t));
        world.forEachRelationship(e, KNOWS, edge -> { });
        assertFalse(Staging.removesAsPlainMove(world.archetypeOf(e).components().stream()
                .filter(c -> c instanceof dev.jtecs.component.PairComponent).findFirst().orElseThrow()), "a pair");
    }

    @Test
    void aCompactRemovalFollowedByMoreCallsForTheEntityKeepsCallOrder() {
        long a = world.spawn(N.of(1), MASS.of(new Mass(2)), NOTE.of(new StringBuilder("a")));
        long b = world.spawn(N.of(1), MASS.of(new Mass(3)));
        long c = world.spawn(N.of(1), MASS.of(new Mass(4)));
        world.defer();
        world.remove(a, MASS);            // compact
        world.set(a, MASS.of(new Mass(9))); // turns it into a record: removal, then the new value
        world.remove(b, N);               // compact
        world.set(b, HOT);                // another change: both publish
        world.remove(c, NOTE);            // c lacks it: nothing staged
        world.remove(c, MASS);
        world.despawn(c);                 // the removal gives way to the despawn
        assertEquals(new Mass(2), world.get(a, MASS), "nothing publishes before the commit");
        world.commit();
        assertEquals(new Mass(9), world.get(a, MASS));
        assertEquals("a", world.get(a, NOTE).toString(), "the other columns moved with the row");
        assertFalse(world.has(b, N));
        assertTrue(world.has(b, HOT));
        assertEquals(new Mass(3), world.get(b, MASS));
        assertFalse(world.isAlive(c));
    }

    @Test
    void compactRemovalsOfEveryRowTellTheQueriesTheyLeave() {
        List<Long> left = new ArrayList<>();
        Query masses = world.newQuery(QueryDescriptor.builder().include(MASS)
                .onEntitiesRemoved((archetype, from, to) -> {
                    for (int row = from; row < to; row++) {
                        left.add(archetype.entity(row)); // departing rows are still readable
                    }
                }).build());
        long[] ids = new long[20];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = world.spawn(N.of(i), MASS.of(new Mass(i)));
        }
        world.defer();
        for (long id : ids) {
            world.remove(id, MASS);
        }
        world.commit();
        assertEquals(20, left.size());
        assertEquals(0, masses.count());
        for (int i = 0; i < ids.length; i++) {
            assertFalse(world.has(ids[i], MASS));
            assertEquals(i, world.get(ids[i], N), "each entity kept its own values");
        }
    }

    /** A record whose accessor throws while {@code failing} is set: user code failing as the drain reads it. */
    record Brittle(float v) {
        static boolean failing;

        @Override
        public float v() {
            if (failing) {
                throw new IllegalStateException("accessor failed");
            }
            return v;
        }
    }

    static final dev.jtecs.component.NativeComponent<Brittle> BRITTLE = Components.registerNative(Brittle.class,
            o -> o.name("test.staging.Brittle"));
    static final ScalarComponent.OfInt NEEDS = Components.scalar("test.staging.Needs", 0, o -> o.requires(HOT));

    @Test
    void onlyAdditionsThatArePlainRowMovesCarryTheirValueInTheCompactForm() {
        assertTrue(Staging.addsAsPlainMove(N.of(3)));
        assertTrue(Staging.addsAsPlainMove(MASS.of(new Mass(1))));
        assertTrue(Staging.addsAsPlainMove(NOTE.of(new StringBuilder())));
        assertFalse(Staging.addsAsPlainMove(MASS), "a bare component asks for its default: a record");
        assertFalse(Staging.addsAsPlainMove(HOT), "a tag carries no value (it has its own compact form)");
        assertFalse(Staging.addsAsPlainMove(NEEDS.of(1)), "requirements need a plan");
        assertFalse(Staging.addsAsPlainMove(dev.jtecs.builtin.EntityKey.COMPONENT.of("k")), "claims a key");
        assertFalse(Staging.addsAsPlainMove(KNOWS.to(world.spawn())), "an edge");
        assertFalse(Staging.addsAsPlainMove(SPARSE.to(world.spawn())), "a sparse edge");
    }

    @Test
    void aCompactAdditionFollowedByMoreCallsForTheEntityKeepsCallOrder() {
        long a = world.spawn(N.of(1));
        long b = world.spawn(N.of(1));
        long c = world.spawn(N.of(1));
        long d = world.spawn(N.of(1));
        world.defer();
        world.set(a, MASS.of(new Mass(1)));   // compact, with its value
        world.set(a, MASS.of(new Mass(2)));   // a record now: the later value wins
        world.set(b, MASS.of(new Mass(3)));
        world.remove(b, MASS);                // added, then removed: no trace
        world.set(c, MASS.of(new Mass(4)));
        world.despawn(c);
        world.set(d, NOTE.of(new StringBuilder("d")));
        world.set(d, HOT);                    // another change: both publish, value included
        assertFalse(world.has(a, MASS), "nothing publishes before the commit");
        world.commit();
        assertEquals(new Mass(2), world.get(a, MASS));
        assertFalse(world.has(b, MASS));
        assertFalse(world.isAlive(c));
        assertEquals("d", world.get(d, NOTE).toString());
        assertTrue(world.has(d, HOT));
        assertEquals(1, world.get(d, N));
    }

    @Test
    void compactAdditionsOfEveryRowArriveWithTheirValuesBeforeTheQueriesHear() {
        List<Float> seen = new ArrayList<>();
        world.newQuery(QueryDescriptor.builder().include(MASS).onEntitiesAdded((archetype, from, to) -> {
            for (int row = from; row < to; row++) {
                seen.add(archetype.get(MASS.floatField("kg")).get(row));
            }
        }).build());
        long[] ids = new long[30];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = world.spawn(N.of(i));
        }
        world.defer();
        for (int i = ids.length - 1; i >= 0; i--) { // staged in the reverse of row order
            world.set(ids[i], MASS.of(new Mass(i * 10)));
        }
        world.commit();
        assertEquals(30, seen.size());
        for (int i = 0; i < ids.length; i++) {
            assertEquals(new Mass(i * 10), world.get(ids[i], MASS), "each row its own value");
            assertEquals(i, world.get(ids[i], N));
            assertTrue(seen.contains((float) (i * 10)));
        }
        assertTrue(world.archetypeOf(ids[0]).isComponentDirty(MASS));
    }

    @Test
    void additionsThatAreMoreThanARowMoveKeepTheirRulesInAScope() {
        long e = world.spawn(N.of(1));
        long k = world.spawn(N.of(2));
        long taken = world.spawn(dev.jtecs.builtin.EntityKey.COMPONENT.of("taken"));
        world.defer();
        world.set(e, NEEDS.of(5));                                  // its requirement comes along
        world.set(k, dev.jtecs.builtin.EntityKey.COMPONENT.of("k")); // a key claim
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> world.set(e, dev.jtecs.builtin.EntityKey.COMPONENT.of("taken")), "the claim is checked");
        world.commit();
        assertEquals(5, world.get(e, NEEDS));
        assertTrue(world.has(e, HOT), "the requirement was added with it");
        assertEquals(k, world.byKey("k"));
        assertEquals(taken, world.byKey("taken"));
    }

    @Test
    void aValueWritesThroughAfterWholeTableMovesHandedItsTableAnotherStore() {
        long[] ids = new long[10];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = world.spawn(); // the empty archetype, the first table made
        }
        world.defer();
        for (long id : ids) {
            world.set(id, MASS.of(new Mass(1))); // every row moves at once: the tables exchange their stores
        }
        world.commit();
        world.defer();
        world.set(ids[3], MASS.of(new Mass(9))); // has the component, nothing staged: written now
        assertEquals(new Mass(9), world.get(ids[3], MASS), "written through before the commit");
        world.remove(ids[4], MASS);
        assertTrue(world.has(ids[4], MASS), "a removal waits for the commit");
        world.commit();
        assertFalse(world.has(ids[4], MASS));
        assertEquals(new Mass(1), world.get(ids[5], MASS));
        world.defer();
        world.remove(ids[5], N); // lacks it: nothing to stage
        assertFalse(world.hasPendingChanges());
        world.commit();
    }

    @Test
    void aCompactAdditionWhoseValueThrowsLeavesItsEntityWhereItWas() {
        long a = world.spawn(N.of(1));
        long b = world.spawn(N.of(2)); // stays: a's is a lone move, not a whole-table run
        world.defer();
        world.set(a, BRITTLE.of(new Brittle(5)));
        Brittle.failing = true;
        try {
            org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, world::commit);
        } finally {
            Brittle.failing = false;
        }
        assertTrue(world.isAlive(a));
        assertFalse(world.has(a, BRITTLE), "the move was undone");
        assertEquals(1, world.get(a, N));
        assertFalse(world.hasPendingChanges());
        world.set(a, BRITTLE.of(new Brittle(6))); // the world keeps working
        assertEquals(new Brittle(6), world.get(a, BRITTLE));
        assertEquals(2, world.get(b, N));
        assertFalse(world.has(b, BRITTLE));
    }

    @Test
    void aWholeTableOfCompactAdditionsWhoseValueThrowsLeavesEveryRowMovedAndInitialized() {
        long[] ids = new long[12];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = world.spawn(N.of(i));
        }
        world.defer();
        for (long id : ids) {
            world.set(id, BRITTLE.of(new Brittle(7)));
        }
        Brittle.failing = true;
        try {
            org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, world::commit);
        } finally {
            Brittle.failing = false;
        }
        for (int i = 0; i < ids.length; i++) { // published rows stay (no atomic rollback), at the default value
            assertTrue(world.isAlive(ids[i]));
            assertEquals(new Brittle(0), world.get(ids[i], BRITTLE));
            assertEquals(i, world.get(ids[i], N));
        }
        assertFalse(world.hasPendingChanges());
    }

    // ---------------------------------------------------------------- sparse edges

    @Test
    void aSparseEdgeAddedAfterAnotherStagedChangeOfTheSameEntityIsKept() {
        long t = world.spawn();
        long e = world.spawn(N.of(1));
        world.defer();
        world.set(e, N.of(2)); // e now has an open record
        world.set(e, SPARSE.to(t));
        world.commit();
        assertEquals(2, world.get(e, N));
        assertTrue(world.has(e, SPARSE));
        assertEquals(List.of(t), targets(e, SPARSE));
    }

    @Test
    void aSparseEdgeAddedToAnEntityThatAlreadyHasOneIsKeptEvenWhenABatchIsPending() {
        long t = world.spawn();
        long u = world.spawn();
        long e = world.spawn(N.of(1), SPARSE.to(t));
        world.defer();
        world.batchSet(withN(), N.of(3)); // a pending batch: the edge is staged in call order
        world.set(e, SPARSE.to(u));
        world.commit();
        assertEquals(3, world.get(e, N));
        assertEquals(List.of(t, u), targets(e, SPARSE));
        world.set(e, SPARSE.to(t)); // published, already marked, nothing pending: only the edge write
        assertEquals(List.of(t, u), targets(e, SPARSE));
    }

    @Test
    void sparseEdgeCallsOnAnEntityWhoseDespawnIsStagedAreDropped() {
        long t = world.spawn();
        long u = world.spawn();
        long e = world.spawn(N.of(1), SPARSE.to(t));
        long f = world.spawn(N.of(1), SPARSE.to(t));
        world.defer();
        world.despawn(e); // the first record of the scope
        world.set(e, SPARSE.to(u));
        world.remove(e, SPARSE.to(t));
        world.remove(e, SPARSE);
        world.batchDespawn(world.newQuery(QueryDescriptor.builder().include(N).build())); // f is selected
        world.set(f, SPARSE.to(u));
        world.remove(f, SPARSE.to(t));
        world.remove(f, SPARSE);
        world.commit();
        assertFalse(world.isAlive(e));
        assertFalse(world.isAlive(f));
        assertArrayEquals(new long[0], world.relationshipSources(SPARSE, t));
        assertArrayEquals(new long[0], world.relationshipSources(SPARSE, u), "no edge of a dead entity was written");
        long g = world.spawn(N.of(1)); // the world goes on
        world.set(g, SPARSE.to(u));
        assertArrayEquals(new long[] {g}, world.relationshipSources(SPARSE, u));
    }

    @Test
    void removingEverySparseEdgeOfAStagedChangeRemovesTheMarkerToo() {
        long t = world.spawn();
        long e = world.spawn(N.of(1), SPARSE.to(t));
        world.defer();
        world.set(e, N.of(2));
        world.remove(e, SPARSE);
        world.commit();
        assertFalse(world.has(e, SPARSE));
        assertEquals(List.of(), targets(e, SPARSE));
        assertArrayEquals(new long[0], world.relationshipSources(SPARSE, t));
    }

    // ---------------------------------------------------------------- dense edges

    @Test
    void anExclusiveEdgeReplacesTheOtherInAStagedSpawnACommittedEntityAndAcrossABatch() {
        long a = world.spawn();
        long b = world.spawn();
        long c = world.spawn();
        world.defer();
        long spawned = world.spawn(N.of(1), ONE.to(a));
        world.set(spawned, ONE.to(b)); // replaces a in the staged spawn
        world.commit();
        assertEquals(List.of(b), targets(spawned, ONE));

        long e = world.spawn(N.of(1), ONE.to(a));
        world.defer();
        world.set(e, ONE.to(b)); // replaces the committed edge
        world.commit();
        assertEquals(List.of(b), targets(e, ONE));

        world.defer();
        world.set(e, ONE.to(c));
        world.batchSet(withN(), N.of(2)); // a batch boundary: the record above is closed
        world.set(e, ONE.to(a)); // replaces both the committed b and the staged c
        world.commit();
        assertEquals(List.of(a), targets(e, ONE));
        assertEquals(2, world.get(e, N));
    }

    @Test
    void removingADenseRelationshipRemovesEveryEdgeCommittedStagedOrStagedBeforeABatch() {
        long a = world.spawn();
        long b = world.spawn();
        long c = world.spawn();
        world.defer();
        long spawned = world.spawn(N.of(1), KNOWS.to(a), KNOWS.to(b));
        world.remove(spawned, KNOWS); // from the staged spawn
        world.commit();
        assertFalse(world.has(spawned, KNOWS));
        assertEquals(List.of(), targets(spawned, KNOWS));

        long e = world.spawn(N.of(1), KNOWS.to(a), KNOWS.to(b));
        world.defer();
        world.set(e, KNOWS.to(c));
        world.batchSet(withN(), N.of(2)); // a batch boundary: the record above is closed
        world.remove(e, KNOWS); // the committed a, b and the staged c
        world.commit();
        assertFalse(world.has(e, KNOWS));
        assertEquals(List.of(), targets(e, KNOWS));
        assertEquals(2, world.get(e, N));

        int archetypes = world.archetypeCount();
        world.remove(e, KNOWS); // nothing to remove: nothing changes
        assertFalse(world.hasPendingChanges());
        assertEquals(archetypes, world.archetypeCount());
        assertEquals(2, world.get(e, N));
    }

    @Test
    void aPayloadlessEdgeToATargetTheEntityAlreadyHasChangesNothing() {
        long a = world.spawn();
        long e = world.spawn(N.of(1), KNOWS.to(a));
        var archetype = world.archetypeOf(e);
        world.set(e, KNOWS.to(a));
        assertEquals(archetype, world.archetypeOf(e));
        assertEquals(List.of(a), targets(e, KNOWS));
        world.defer();
        world.set(e, KNOWS.to(a));
        world.set(e, ONE.to(a)); // the first edge of another relationship: staged
        world.set(e, ONE.to(a)); // the same edge again, while staged: still one
        world.commit();
        assertEquals(List.of(a), targets(e, KNOWS));
        assertEquals(List.of(a), targets(e, ONE));
        world.defer();
        world.set(e, KNOWS.to(a)); // published and present: nothing to stage
        world.set(e, ONE.to(a));
        assertFalse(world.hasPendingChanges(), "an edge the entity already has stages nothing");
        world.commit();
    }

    // ---------------------------------------------------------------- despawn

    /**
     * One scope of despawns mixed with the calls around them, on a fresh world: despawns of entities with nothing
     * staged (quiet despawns, staged in short unless a world {@code OnDespawn} observer sends every despawn down the
     * general path), calls on an entity after its despawn, a tag move turned into a despawn, a run from one archetype, and
     * despawns after a batch boundary. Returns who is alive where, at which row with which value, and the ids the
     * next spawns get (freed slots come back in the order the despawns freed them).
     */
    private static List<Object> scopedDespawns(boolean observed) {
        try (World w = World.create()) {
            List<Long> heard = new ArrayList<>();
            if (observed) {
                w.observe(0, dev.jtecs.event.OnDespawn.class, event -> heard.add(event.entity()));
            }
            long[] a = new long[20];
            for (int i = 0; i < a.length; i++) {
                a[i] = w.spawn(N.of(i));
            }
            long m = w.spawn(N.of(50), HOT);
            long h = w.spawn(N.of(60), HOT);
            w.defer();
            w.despawn(a[2]);
            w.set(a[2], N.of(99)); // dropped: it is being despawned
            w.remove(a[2], N);
            w.set(a[2], HOT);
            w.despawn(a[2]); // nothing more
            long s = w.spawn(N.of(100));
            w.set(a[3], HOT); // a compact move turned into a record by the despawn: it publishes between the others
            w.despawn(a[3]);
            for (int i = 4; i < 13; i++) {
                w.despawn(a[i]);
            }
            w.remove(m, HOT); // a compact move, then its despawn: a record either way
            w.despawn(m);
            w.despawn(h);
            w.batchSet(w.newQuery(QueryDescriptor.builder().include(N).include(HOT).build()), N.of(7)); // a boundary
            w.despawn(a[0]); // after the boundary: records either way
            w.despawn(a[13]);
            w.commit();
            // call order: a[2] left first (a[19] filled its row), then a[3] (a[18]), then the run (a[17] to a[13])
            assertEquals(List.of(1, 7, 6, 5, 4, 3, 2), java.util.stream.Stream.of(a[1], a[14], a[15], a[16],
                    a[17], a[18], a[19]).map(w::rowOf).toList());
            List<Object> state = new ArrayList<>();
            for (long id : new long[] {m, h, s}) {
                state.add(w.isAlive(id) ? w.archetypeOf(id).components() + "@" + w.rowOf(id) + "=" + w.get(id, N)
                        : "dead");
            }
            for (long id : a) {
                state.add(w.isAlive(id) ? w.archetypeOf(id).components() + "@" + w.rowOf(id) + "=" + w.get(id, N)
                        : "dead");
            }
            for (int k = 0; k < 16; k++) {
                state.add(w.spawn());
            }
            if (observed) {
                assertEquals(List.of(a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], m, h, a[0],
                        a[13]), heard, "each despawn heard once, at its call");
            }
            return state;
        }
    }

    @Test
    void despawnsInAScopeEndTheSameWhetherOrNotTheyAreStagedInShort() {
        List<Object> general = scopedDespawns(true);
        assertEquals("dead", general.get(0), "m");
        assertEquals("dead", general.get(3), "a[0]");
        assertEquals("dead", general.get(5), "a[2]");
        assertEquals(general, scopedDespawns(false));
    }


    @Test
    void despawningAChangedMemberOfAStagedSpawnBatchCancelsItsPlacement() {
        world.defer();
        BatchIds ids = world.batchSpawn(3, List.of(N.of(1)));
        world.set(ids.get(1), N.of(7)); // a record for a member not placed yet
        world.despawn(ids.get(1));
        world.commit();
        assertTrue(world.isAlive(ids.get(0)));
        assertFalse(world.isAlive(ids.get(1)), "the batch skipped the despawned member");
        assertTrue(world.isAlive(ids.get(2)));
        assertEquals(2, world.entityCount());
    }

    @Test
    void despawningAMemberOfAnEmptyStagedSpawnBatchCancelsItsPlacement() {
        world.defer();
        BatchIds ids = world.batchSpawn(3, List.of()); // bound for the empty archetype, whose id is 0
        world.despawn(ids.get(1));
        world.commit();
        assertTrue(world.isAlive(ids.get(0)));
        assertFalse(world.isAlive(ids.get(1)), "the batch skipped the despawned member");
        assertTrue(world.isAlive(ids.get(2)));
        assertEquals(2, world.entityCount());

        world.defer();
        BatchIds more = world.batchSpawn(2, List.of());
        world.set(more.get(0), N.of(5)); // a record first, then the despawn
        world.despawn(more.get(0));
        world.commit();
        assertFalse(world.isAlive(more.get(0)));
        assertTrue(world.isAlive(more.get(1)));
    }

    @Test
    void callsAfterTheDespawnOfAChangedEntityAreDropped() {
        long e = world.spawn(N.of(1));
        long t = world.spawn();
        world.defer();
        world.set(e, N.of(2)); // a mutate record
        world.despawn(e); // turned into a despawn
        world.set(e, N.of(3));
        world.set(e, KNOWS.to(t));
        world.remove(e, N);
        world.despawn(e); // a second despawn does nothing
        world.commit();
        assertFalse(world.isAlive(e));
        assertTrue(world.isAlive(t));
        assertEquals(1, world.entityCount());
    }

    @Test
    void aChangedEntityWhoseDespawnIsStagedHearsOneDespawnWhenItsParentsCascadeReachesItFirst() {
        long parent = world.spawn(N.of(1));
        long child = world.spawn(N.of(1), dev.jtecs.builtin.ChildOf.COMPONENT.to(parent));
        List<Long> despawns = new ArrayList<>();
        world.observe(0, dev.jtecs.event.OnDespawn.class, event -> despawns.add(event.entity()));
        world.defer();
        world.despawn(parent); // its segment publishes first, and its cascade reaches the child
        world.batchSet(withN(), N.of(2)); // a batch boundary: what follows publishes in a later segment
        world.set(child, N.of(3)); // a record for the child...
        world.despawn(child); // ...turned into its despawn
        world.commit();
        assertFalse(world.isAlive(parent));
        assertFalse(world.isAlive(child));
        assertEquals(List.of(parent, child), despawns, "each despawn is heard once");
    }

    // ---------------------------------------------------------------- issue 27: calls around boundaries and despawns

    @Test
    void removingOneSparseEdgeKeepsTheMarkerAndRemovingTheLastOneTakesIt() {
        long t = world.spawn();
        long u = world.spawn();
        long e = world.spawn(N.of(1), SPARSE.to(t), SPARSE.to(u));
        world.defer();
        world.remove(e, SPARSE.to(t));
        world.commit();
        assertEquals(List.of(u), targets(e, SPARSE));
        assertTrue(world.has(e, SPARSE));
        world.defer();
        world.remove(e, SPARSE.to(u));
        world.commit();
        assertEquals(List.of(), targets(e, SPARSE));
        assertFalse(world.has(e, SPARSE), "the last edge took the marker with it");
        assertArrayEquals(new long[0], world.relationshipSources(SPARSE, u));
    }

    @Test
    void removingASparseRelationshipOfAnEntityWithAStagedRecordRemovesEveryEdgeAndTheMarker() {
        long t = world.spawn();
        long u = world.spawn();
        long e = world.spawn(N.of(1), SPARSE.to(t), SPARSE.to(u));
        world.defer();
        world.set(e, MASS); // a default asks for a record: the entity has one open now
        world.remove(e, SPARSE);
        world.commit();
        assertTrue(world.has(e, MASS));
        assertFalse(world.has(e, SPARSE));
        assertEquals(List.of(), targets(e, SPARSE));
        assertArrayEquals(new long[0], world.relationshipSources(SPARSE, t));
    }

    @Test
    void anEdgeAddedAfterABatchRemovedItsRelationshipBringsTheMarkerBack() {
        long t = world.spawn();
        long u = world.spawn();
        long e = world.spawn(N.of(1), SPARSE.to(t));
        world.defer();
        world.batchRemove(withN(), SPARSE); // the marker and every edge go first
        world.set(e, SPARSE.to(u)); // then this edge lands
        world.commit();
        assertEquals(List.of(u), targets(e, SPARSE));
        assertTrue(world.has(e, SPARSE), "the marker follows the edge the wave left");
    }

    @Test
    void aWriteThroughIsMarkedAndAKeyWrittenThroughMovesAtOnce() {
        long e = world.spawn(N.of(1), dev.jtecs.builtin.EntityKey.COMPONENT.of("a"));
        world.clearDirty();
        world.defer();
        world.set(e, N.of(5)); // present, nothing staged: written now
        assertEquals(5, world.get(e, N));
        assertTrue(world.archetypeOf(e).isComponentDirty(N), "the write is marked");
        world.set(e, dev.jtecs.builtin.EntityKey.COMPONENT.of("b"));
        assertEquals(e, world.byKey("b"), "the new key holds at once");
        assertEquals(0, world.byKey("a"), "the old one is released");
        world.commit();
        assertEquals(e, world.byKey("b"));
    }

    @Test
    void aCommittedEntityWhoseDespawnIsStagedHearsOneDespawnWhenItsParentsCascadeReachesItFirst() {
        long parent = world.spawn(N.of(1));
        long child = world.spawn(N.of(1), dev.jtecs.builtin.ChildOf.COMPONENT.to(parent));
        List<Long> despawns = new ArrayList<>();
        world.observe(0, dev.jtecs.event.OnDespawn.class, event -> despawns.add(event.entity()));
        world.defer();
        world.despawn(parent); // its segment publishes first, and its cascade reaches the child
        world.batchSet(withN(), N.of(2)); // a batch boundary: what follows publishes in a later segment
        world.despawn(child); // no record before: its slot is marked
        world.commit();
        assertFalse(world.isAlive(parent));
        assertFalse(world.isAlive(child));
        assertEquals(List.of(parent, child), despawns, "each despawn is heard once");
    }

    @Test
    void aSecondDespawnOfACancelledSpawnAfterABatchBoundaryDoesNothing() {
        List<Long> despawns = new ArrayList<>();
        world.observe(0, dev.jtecs.event.OnDespawn.class, event -> despawns.add(event.entity()));
        long other = world.spawn(N.of(1));
        world.defer();
        long s = world.spawn(N.of(1)); // the scope's first record
        world.despawn(s);
        world.batchSet(withN(), N.of(2)); // the record is closed
        world.despawn(s);
        world.commit();
        assertFalse(world.isAlive(s));
        assertEquals(List.of(s), despawns, "one despawn heard");
        assertEquals(2, world.get(other, N));
        assertEquals(1, world.entityCount());
    }

    @Test
    void callsAfterABatchBoundaryApplyAfterTheBatchEvenForTheScopesFirstRecord() {
        long e = world.spawn(N.of(1));
        world.defer();
        world.set(e, MASS); // the scope's first record (a default asks for a record)
        world.batchSet(withN(), N.of(5));
        world.set(e, N.of(7)); // after the batch: a record of its own
        world.commit();
        assertEquals(7, world.get(e, N), "the batch's value, then this one");
        assertTrue(world.has(e, MASS));

        world.defer();
        world.set(e, NOTE.of(new StringBuilder("n"))); // the first record again (a compact move, turned into one below)
        world.set(e, HOT);
        world.batchSet(withN(), N.of(6));
        world.remove(e, N); // after the batch
        world.commit();
        assertFalse(world.has(e, N), "removed after the batch set it");
        assertTrue(world.has(e, HOT));
    }

    // ---------------------------------------------------------------- issue 27, fifth round

    static final Relationship SPARSE_TOO = Relationships.register("test.staging.SparseToo", o -> o.sparse());
    static final dev.jtecs.component.TagComponent CALM = Components.tag("test.staging.Calm");
    static final dev.jtecs.component.TagComponent ANGRY = Components.tag("test.staging.Angry");
    static final dev.jtecs.mutation.PartitionDimension MOOD =
            dev.jtecs.mutation.PartitionDimension.variants("test.staging.mood", CALM, ANGRY);
    static final Relationship NEEDS_HOT = Relationships.register("test.staging.NeedsHot", o -> o.requires(HOT));

    /** Counts the rows that move from one archetype to another, in every archetype created from here on. */
    private int[] watchMoves() {
        int[] moved = {0};
        world.observe(0, dev.jtecs.event.ArchetypeCreated.class, created -> created.archetype().addEntityObserver(
                new dev.jtecs.storage.EntityObserver() {
                    @Override
                    public void onEntitiesAdded(dev.jtecs.storage.Archetype archetype, int fromRow, int toRow,
                            dev.jtecs.storage.Archetype other) {
                        if (other != null) {
                            moved[0] += toRow - fromRow;
                        }
                    }
                }));
        return moved;
    }

    @Test
    void edgeCallsOnAStagedSpawnInTheSlotOfAnEntityWhoseTableABatchDespawnHoldsStillApply() {
        long t = world.spawn();
        long u = world.spawn();
        long x1 = world.spawn(N.of(1));
        long x2 = world.spawn(N.of(1));
        long kept = world.spawn(N.of(2)); // keeps the table
        world.despawn(x2);
        world.despawn(x1); // both slots free; the index still names the table their entities were in
        world.defer();
        world.batchDespawn(withN()); // holds every row of that table (no slot is marked)
        long y1 = world.spawn();
        long y2 = world.spawn();
        assertEquals(List.of(dev.jtecs.entity.Entity.slot(x1), dev.jtecs.entity.Entity.slot(x2)),
                List.of(dev.jtecs.entity.Entity.slot(y1), dev.jtecs.entity.Entity.slot(y2)), "the slots are reused");
        world.set(y1, SPARSE.to(t));
        world.set(y1, SPARSE.to(u));
        world.remove(y1, SPARSE.to(u));
        world.set(y1, KNOWS.to(t));
        world.set(y1, ONE.to(u));
        world.remove(y1, ONE);
        world.set(y2, SPARSE_TOO.to(t));
        world.remove(y2, SPARSE_TOO);
        world.commit();
        assertFalse(world.isAlive(kept));
        assertEquals(List.of(t), targets(y1, SPARSE), "a sparse edge set, another set and removed");
        assertTrue(world.has(y1, SPARSE));
        assertEquals(List.of(t), targets(y1, KNOWS), "a dense edge set");
        assertFalse(world.has(y1, ONE), "a dense relationship set and removed");
        assertFalse(world.has(y2, SPARSE_TOO), "a sparse relationship set and removed");
        assertEquals(List.of(), targets(y2, SPARSE_TOO));
    }

    @Test
    void partitionCallsAreDroppedExactlyForEntitiesWhoseDespawnIsStaged() {
        try (World w = World.create(dev.jtecs.world.WorldConfig.defaults()
                .partitionConflicts(dev.jtecs.mutation.PartitionConflicts.RAISE))) {
            w.declarePartition(MOOD);
            long x = w.spawn(N.of(1));
            long held = w.spawn(N.of(2));
            w.despawn(x); // its slot free; the index still names the table x was in
            w.defer();
            w.batchDespawn(w.newQuery(QueryDescriptor.builder().include(N).build())); // holds the table whole
            w.setTag(held, CALM); // both dropped: no conflict raised
            w.setTag(held, ANGRY);
            long spawned = w.spawn(); // in x's slot
            assertEquals(dev.jtecs.entity.Entity.slot(x), dev.jtecs.entity.Entity.slot(spawned));
            w.setTag(spawned, ANGRY); // not despawning: applies
            BatchIds members = w.batchSpawn(2, List.of());
            w.despawn(members.get(0)); // a member not placed yet: its slot is marked
            w.setTag(members.get(0), CALM); // both dropped: no conflict raised
            w.setTag(members.get(0), ANGRY);
            w.setTag(members.get(1), CALM);
            w.commit();
            assertFalse(w.isAlive(held));
            assertTrue(w.has(spawned, ANGRY));
            assertFalse(w.isAlive(members.get(0)));
            assertTrue(w.has(members.get(1), CALM));
        }
    }

    @Test
    void anEdgeAddedBesideTheMarkerWritesNothingIntoTheRow() {
        long t = world.spawn();
        long u = world.spawn();
        long e = world.spawn(N.of(1), SPARSE.to(t));
        world.clearDirty();
        world.set(e, SPARSE.to(u));
        assertEquals(List.of(t, u), targets(e, SPARSE));
        assertFalse(world.archetypeOf(e).isComponentDirty(SPARSE), "the marker column was not written");
        assertFalse(world.archetypeOf(e).isComponentDirty(N));
    }

    @Test
    void aSparseRelationshipRemovedAndAnEdgeOfItAddedInOneRecordNeverLeavesTheTable() {
        int[] moved = watchMoves();
        long t = world.spawn();
        long u = world.spawn();
        long e = world.spawn(N.of(1), SPARSE.to(t));
        int archetypes = world.archetypeCount();
        world.defer();
        world.remove(e, SPARSE); // the scope's first record: the marker goes...
        world.set(e, SPARSE.to(u)); // ...and comes back in the same record
        world.commit();
        assertEquals(List.of(u), targets(e, SPARSE));
        assertTrue(world.has(e, SPARSE));
        assertEquals(0, moved[0], "the entity never left its table");
        assertEquals(archetypes, world.archetypeCount());
    }

    @Test
    void aMarkerCorrectionGivesWayToALaterCallThatDecidesTheMarker() {
        int[] moved = watchMoves();
        long t = world.spawn();
        long u = world.spawn();
        long e = world.spawn(N.of(1), SPARSE.to(t));
        long m = world.spawn(N.of(2));
        world.newQuery(QueryDescriptor.builder().include(HOT).onEntitiesAdded((archetype, from, to) -> {
            world.remove(e, SPARSE); // staged in the wave's callback: the open part's first record...
            world.set(e, SPARSE.to(u)); // ...which keeps the marker, with another edge
        }).build());
        world.defer();
        world.remove(e, SPARSE.to(t)); // e's last edge: at the wave's end its marker disagrees with the store
        world.set(m, HOT); // the move that runs the callback
        world.commit();
        assertEquals(List.of(u), targets(e, SPARSE));
        assertTrue(world.has(e, SPARSE));
        assertEquals(1, moved[0], "m moved; e stayed where it was (no correction took its marker away)");
    }

    @Test
    void edgeCallsAfterABatchBoundaryApplyAfterTheBatchForTheScopesFirstRecord() {
        long a = world.spawn();
        long b = world.spawn();
        long c = world.spawn();
        long e = world.spawn(N.of(1));
        world.defer();
        world.set(e, MASS); // the scope's first record (a default asks for a record)
        world.batchSet(withN(), ONE.to(a)); // a boundary: record 0 is closed
        world.set(e, ONE.to(b)); // after the batch: replaces a
        world.commit();
        assertEquals(List.of(b), targets(e, ONE));

        world.defer();
        world.set(e, NOTE); // the first record again
        world.batchSet(withN(), KNOWS.to(c));
        world.remove(e, KNOWS); // after the batch: c goes too
        world.commit();
        assertFalse(world.has(e, KNOWS));
        assertEquals(List.of(), targets(e, KNOWS));
        assertTrue(world.has(e, NOTE));
    }

    @Test
    void removingADenseRelationshipThatIsNotThereStagesNothing() {
        long a = world.spawn();
        long e = world.spawn(N.of(1));
        world.defer();
        world.remove(e, KNOWS);
        assertFalse(world.hasPendingChanges(), "nothing to remove, no batch pending: nothing staged");
        BatchIds ids = world.batchSpawn(2, List.of(N.of(1), KNOWS.to(a)));
        world.remove(ids.get(0), KNOWS); // a member not placed yet: its planned edges go
        world.commit();
        assertFalse(world.has(ids.get(0), KNOWS));
        assertEquals(List.of(), targets(ids.get(0), KNOWS));
        assertEquals(List.of(a), targets(ids.get(1), KNOWS));
    }

    @Test
    void aDenseRelationshipRemovedFromAStagedSpawnTakesWhatItsMarkerRequiresWithIt() {
        long a = world.spawn();
        world.defer();
        long s = world.spawn(N.of(1), NEEDS_HOT.to(a));
        world.remove(s, NEEDS_HOT);
        world.commit();
        assertFalse(world.has(s, NEEDS_HOT));
        assertFalse(world.has(s, HOT), "the relationship was never added, nor what it requires");
        long kept = world.spawn(N.of(1), NEEDS_HOT.to(a));
        assertTrue(world.has(kept, HOT), "a relationship kept brings what it requires");
    }

    @Test
    void anEdgeStagedWhileItsEntitysMarkerWasBeingRemovedBringsTheMarkerBack() {
        long t = world.spawn();
        long u = world.spawn();
        long e = world.spawn(N.of(1), SPARSE.to(t));
        long m = world.spawn(N.of(2));
        world.newQuery(QueryDescriptor.builder().include(NOTE).onEntitiesAdded((archetype, from, to) -> {
            // runs before e's record publishes: e still shows its marker, so only the edge write is staged
            world.set(e, SPARSE.to(u));
        }).build());
        world.defer();
        world.set(m, NOTE); // publishes first and runs the callback
        world.remove(e, SPARSE); // the marker and every edge go
        world.commit();
        assertEquals(List.of(u), targets(e, SPARSE), "the callback's edge came after the removal");
        assertTrue(world.has(e, SPARSE), "and the marker follows it");
        assertFalse(world.hasPendingChanges());
    }

    /**
     * A sparse edge in a scope takes the short way ({@code Staging.stageSparseEdge}: queued alone) only where the
     * general path would queue nothing but the edge: the entity carries the marker and has nothing staged. Every
     * case ends as the general path ends it.
     */
    @Test
    void aSparseEdgeInAScopeIsQueuedAloneOnlyAsTheGeneralPathWould() {
        long t = world.spawn();
        long u = world.spawn();
        long marked = world.spawn(SPARSE.to(t));
        long unmarked = world.spawn(N.of(1));
        long changed = world.spawn(SPARSE.to(t));
        long going = world.spawn(SPARSE.to(t));
        Query all = world.newQuery(QueryDescriptor.builder().include(N).build());
        world.defer();
        world.set(marked, SPARSE.to(u));     // the short way
        world.set(unmarked, SPARSE.to(u));   // no marker: the general path stages it too
        world.set(changed, N.of(2));         // a record staged for it
        world.set(changed, SPARSE.to(u));    // so the general path
        world.despawn(going);
        world.set(going, SPARSE.to(u));      // dropped: the entity is going
        assertEquals(List.of(t), targets(marked, SPARSE), "queued: published state until the commit");
        world.batchRemove(all, N);           // a boundary: the next edge waits for the batch
        world.set(unmarked, SPARSE.to(t));
        world.commit();
        assertEquals(List.of(t, u), targets(marked, SPARSE));
        assertEquals(List.of(t, u), targets(unmarked, SPARSE));
        assertTrue(world.has(unmarked, SPARSE) && !world.has(unmarked, N), "marker added, N removed by the batch");
        assertEquals(List.of(t, u), targets(changed, SPARSE));
        assertFalse(world.isAlive(going));
        assertFalse(world.hasPendingChanges());
    }

    @Test
    void aDenseRelationshipRemovedFromASpawnTheDrainIsPublishingGoes() {
        long a = world.spawn();
        long[] spawned = new long[1];
        boolean[] unpublished = new boolean[1];
        world.newQuery(QueryDescriptor.builder().include(NOTE).onEntitiesAdded((archetype, from, to) -> {
            unpublished[0] = !world.isAlive(spawned[0]); // its record is sealed: staging no longer finds it
            world.remove(spawned[0], KNOWS);
        }).build());
        world.defer();
        world.batchSpawn(1, List.of(NOTE.of(new StringBuilder()))); // placed first, so its callback runs before...
        spawned[0] = world.spawn(N.of(1), KNOWS.to(a)); // ...this spawn publishes
        world.commit();
        assertTrue(unpublished[0], "the callback ran while the spawn was being published");
        assertTrue(world.isAlive(spawned[0]));
        assertFalse(world.has(spawned[0], KNOWS), "the removal came after the spawn in call order");
        assertEquals(List.of(), targets(spawned[0], KNOWS));
        assertEquals(1, world.get(spawned[0], N));
    }

    // ---------------------------------------------------------------- the short write-through of set

    @Test
    void aValueTheEntityHasIsWrittenAtOnceOnlyWhenNothingIsStagedForIt() {
        long tagged = world.spawn(MASS.of(new Mass(1)));
        long grown = world.spawn(MASS.of(new Mass(1)));
        long doomed = world.spawn(MASS.of(new Mass(1)));
        long plain = world.spawn(MASS.of(new Mass(1)), N.of(1));
        long bare = world.spawn(N.of(1));
        world.archetypeOf(plain).clearDirtyComponents();
        world.defer();
        world.set(tagged, HOT);                         // a compact tag move
        world.set(tagged, MASS.of(new Mass(2)));
        world.set(grown, N.of(5));                      // a compact value move
        world.set(grown, MASS.of(new Mass(3)));
        world.despawn(doomed);
        world.set(doomed, MASS.of(new Mass(4)));
        world.set(plain, MASS.of(new Mass(5)));         // nothing staged: written through now
        world.set(bare, MASS.of(new Mass(6)));          // lacks it: staged
        assertEquals(new Mass(5), world.get(plain, MASS));
        assertTrue(world.archetypeOf(plain).isComponentDirty(MASS));
        assertEquals(new Mass(1), world.get(tagged, MASS), "staged with the tag move, for the commit");
        assertEquals(new Mass(1), world.get(grown, MASS), "staged with the value move");
        assertEquals(new Mass(1), world.get(doomed, MASS), "dropped: the entity is going");
        assertNull(world.get(bare, MASS));
        world.commit();
        assertEquals(new Mass(2), world.get(tagged, MASS));
        assertTrue(world.has(tagged, HOT));
        assertEquals(new Mass(3), world.get(grown, MASS));
        assertFalse(world.isAlive(doomed));
        assertEquals(new Mass(6), world.get(bare, MASS));
    }

    @Test
    void aValueSetAfterABatchBoundaryWaitsForItsTurn() {
        long e = world.spawn(MASS.of(new Mass(1)), N.of(1));
        world.defer();
        world.batchSet(withN(), N.of(2)); // a query batch: what follows publishes after it
        world.set(e, MASS.of(new Mass(7)));
        assertEquals(new Mass(1), world.get(e, MASS));
        world.commit();
        assertEquals(new Mass(7), world.get(e, MASS));
        assertEquals(2, world.get(e, N));
    }

    @Test
    void aSetWithNoScopeOpenPublishesWhatAFailedCallLeftBeforeWritingThrough() {
        long going = world.spawn(MASS.of(new Mass(1)));
        long kept = world.spawn(MASS.of(new Mass(1)));
        boolean[] refuse = {true};
        world.observe(0, dev.jtecs.event.OnDespawn.class, event -> {
            if (refuse[0]) {
                refuse[0] = false;
                throw new IllegalStateException("not now");
            }
        });
        assertThrows(IllegalStateException.class, () -> world.despawn(going));
        assertTrue(world.isAlive(going), "the despawn stays staged after the failed call");
        world.set(kept, MASS.of(new Mass(9)));
        assertFalse(world.isAlive(going), "the set published it, as every call outside a scope does");
        assertEquals(new Mass(9), world.get(kept, MASS));
    }

    @Test
    void valuesThatAreNotPlainNativeOnesTakeTheGeneralPath() {
        long e = world.spawn(MASS.of(new Mass(1)), N.of(1), NOTE.of(new StringBuilder("a")));
        world.defer();
        world.set(e, N.of(4));                                 // scalar
        world.set(e, NOTE.of(new StringBuilder("b")));         // managed
        assertEquals(4, world.get(e, N), "a scalar the entity has is written through by the general path");
        assertEquals("b", world.get(e, NOTE).toString(), "and a managed value");
        world.commit();
        assertEquals(4, world.get(e, N));
    }

    // ---------------------------------------------------------------- the short compact move of set(tag) and remove

    static final dev.jtecs.component.TagComponent NEEDS_MASS = Components.tag("test.staging.NeedsMass",
            o -> o.requires(MASS.of(new Mass(8))));

    @Test
    void aTagInAScopeTakesTheCompactFormOnlyAsTheGeneralPathWould() {
        long fresh = world.spawn(MASS.of(new Mass(1)));
        long tagged = world.spawn(MASS.of(new Mass(1)), HOT);
        long needs = world.spawn(N.of(1));
        long going = world.spawn(N.of(1));
        world.archetypeOf(tagged).clearDirtyComponents();
        world.defer();
        world.set(fresh, HOT);
        world.set(tagged, HOT);          // has it: the column is marked, nothing moves
        world.set(needs, NEEDS_MASS);    // requirements: a record plans them
        world.despawn(going);
        world.set(going, HOT);           // dropped: the entity is going
        assertFalse(world.has(fresh, HOT), "staged");
        assertTrue(world.archetypeOf(tagged).isComponentDirty(HOT));
        world.commit();
        assertTrue(world.has(fresh, HOT));
        assertTrue(world.has(tagged, HOT));
        assertTrue(world.has(needs, NEEDS_MASS));
        assertEquals(new Mass(8), world.get(needs, MASS), "the requirement came with the tag");
        assertFalse(world.isAlive(going));
    }

    @Test
    void addingATagAfterRemovingItFromAnEntityOfTheSameTableChecksWhetherTheEntityHasIt() {
        long losing = world.spawn(MASS.of(new Mass(1)), HOT);
        long keeping = world.spawn(MASS.of(new Mass(2)), HOT);
        world.archetypeOf(keeping).clearDirtyComponents();
        world.defer();
        world.remove(losing, HOT); // the last compact move: a removal, from this table
        world.set(keeping, HOT);   // the opposite change in the same table: it has HOT, so the column is marked
        assertTrue(world.archetypeOf(keeping).isComponentDirty(HOT), "the general path's write-through");
        world.commit();
        assertTrue(world.has(keeping, HOT));
        assertFalse(world.has(losing, HOT));
    }

    @Test
    void aRemovalLikeTheLastCompactOneOfAnEntityInAnotherTableThatLacksTheComponentStagesNothing() {
        long tagged = world.spawn(MASS.of(new Mass(1)), HOT);
        long lacking = world.spawn(N.of(1));
        world.defer();
        world.remove(tagged, HOT); // a compact move: the last one, remembered with its table
        world.commit();
        world.defer();
        world.remove(lacking, HOT); // the same change, from another table, which lacks HOT
        assertFalse(world.hasPendingChanges(), "nothing to remove: nothing staged");
        world.commit();
    }

    @Test
    void aTagAfterABatchBoundaryOrOtherStagedWorkKeepsCallOrder() {
        long e = world.spawn(N.of(1));
        long f = world.spawn(N.of(1));
        world.defer();
        world.set(f, MASS.of(new Mass(2)));       // a compact value move: the tag joins it as a record
        world.set(f, HOT);
        world.batchRemove(withN(), N);            // a boundary: what follows publishes after it
        world.set(e, HOT);
        world.remove(e, HOT);                     // the same entity again: a record now, in call order
        world.set(e, HOT);
        world.commit();
        assertTrue(world.has(f, HOT));
        assertEquals(new Mass(2), world.get(f, MASS));
        assertTrue(world.has(e, HOT));
        assertFalse(world.has(e, N));
        assertFalse(world.has(f, N));
    }

    @Test
    void aRemovalInAScopeTakesTheCompactFormOnlyAsTheGeneralPathWould() {
        long plain = world.spawn(MASS.of(new Mass(1)), HOT);
        long lacking = world.spawn(N.of(1));
        long keyed = world.spawn(HOT, dev.jtecs.builtin.EntityKey.COMPONENT.of("staging.removal"));
        world.defer();
        world.remove(plain, HOT);
        world.remove(plain, MASS);                             // a second call: both in one record
        world.remove(lacking, HOT);                            // nothing to remove: nothing staged
        world.remove(keyed, dev.jtecs.builtin.EntityKey.COMPONENT); // releases a key: a record
        assertTrue(world.has(plain, HOT), "staged");
        world.commit();
        assertFalse(world.has(plain, HOT));
        assertFalse(world.has(plain, MASS));
        assertEquals(1, world.get(lacking, N));
        assertEquals(0, world.byKey("staging.removal"), "the key went with its component");
        assertThrows(NullPointerException.class, () -> world.remove(plain, (dev.jtecs.component.Component<?>) null));
        world.defer();
        assertThrows(IllegalArgumentException.class, () -> world.remove(world.spawn(HOT) + 1_000_000, HOT),
                "a dead id is refused, scope or not");
        world.commit();
    }

    static final dev.jtecs.component.TagComponent LATE = Components.tag("test.staging.Late");

    @Test
    void aTagStagedAfterABatchBoundaryMovesTheEntityAfterTheBatch() {
        long e = world.spawn(N.of(1), MASS.of(new Mass(1)));
        List<String> created = new ArrayList<>();
        world.observe(0, dev.jtecs.event.ArchetypeCreated.class,
                event -> created.add(event.archetype().has(N) + "/" + event.archetype().has(LATE)));
        world.defer();
        world.batchRemove(withN(), N); // e leaves {N, Mass} for {Mass} first...
        world.set(e, LATE);            // ...then gains the tag: {Mass, Late}
        world.commit();
        assertTrue(world.has(e, LATE));
        assertFalse(world.has(e, N));
        assertFalse(created.contains("true/true"), "the entity never held N and Late together: " + created);
    }

    @Test
    void aTagSetOrRemovedWithNoScopeOpenIsPublishedBeforeTheCallReturns() {
        long e = world.spawn(MASS.of(new Mass(1)));
        world.set(e, HOT);
        assertTrue(world.has(e, HOT));
        world.remove(e, HOT);
        assertFalse(world.has(e, HOT));
    }

    @Test
    void aPartitionTagIsRefusedInAScopeAsOutsideOne() {
        world.declarePartition(MOOD);
        long e = world.spawn(MASS.of(new Mass(1)), CALM);
        world.defer();
        assertThrows(IllegalArgumentException.class, () -> world.set(e, ANGRY));
        assertThrows(IllegalArgumentException.class, () -> world.remove(e, CALM));
        world.commit();
        assertTrue(world.has(e, CALM));
        assertFalse(world.has(e, ANGRY));
    }

    /** A record whose accessor calls back into the world: what a record accessor may do, since it is user code. */
    record Meddling(float kg) {
        static World world;
        static long victim;

        @Override
        public float kg() {
            if (victim != 0) {
                long id = victim;
                victim = 0;
                world.despawn(id); // inside set's call: staged, published when set returns
            }
            return kg;
        }
    }

    static final dev.jtecs.component.NativeComponent<Meddling> MEDDLING = Components.registerNative(Meddling.class,
            o -> o.name("test.staging.Meddling"));

    @Test
    void anAccessorThatCallsTheWorldRunsInsideSetsCall() {
        long first = world.spawn(MEDDLING.of(new Meddling(1)));
        long last = world.spawn(MEDDLING.of(new Meddling(2)));
        Meddling.world = world;
        Meddling.victim = first; // despawning it would move last into first's row before the write
        world.set(first, MEDDLING.of(new Meddling(5)));
        assertFalse(world.isAlive(first), "the despawn was published when set returned");
        assertEquals(new Meddling(2), world.get(last, MEDDLING), "the value went into first's row, not last's");
        assertEquals(0, world.rowOf(last));
        Meddling.world = null;
    }

    @Test
    void aWriteThroughCountsOneWriteAndATagMoveOneChange() {
        long e = world.spawn(MASS.of(new Mass(1)));
        dev.jtecs.storage.Archetype archetype = world.archetypeOf(e);
        long writes = archetype.writeCount(MASS);
        world.set(e, MASS.of(new Mass(2)));
        assertEquals(writes + 1, archetype.writeCount(MASS), "one set, one write");
        world.defer();
        world.set(e, MASS.of(new Mass(3)));
        world.set(e, HOT);
        assertEquals(writes + 2, archetype.writeCount(MASS));
        world.commit();
        assertTrue(world.has(e, HOT));
        assertEquals(new Mass(3), world.get(e, MASS));
    }
}
