package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.mutation.PartitionDimension;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.world.World;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The mutation model's entry points, driven through the world: the checks each call makes before it stages
 * anything (inputs, partition tags), so that bad input gets a clear exception naming the call and changes nothing.
 * What the calls stage is tested with {@link Staging}, {@link Batches} and {@link CommitDrain}.
 */
class MutationModelTest {
    static final ScalarComponent.OfInt HP = Components.scalar("test.model.Hp", 0);
    static final TagComponent IDLE = Components.tag("test.model.Idle");
    static final TagComponent RUNNING = Components.tag("test.model.Running");
    static final PartitionDimension MOVE = PartitionDimension.variants("test.model.move", IDLE, RUNNING);

    static final class Opaque { // no no-argument constructor (and not a record): the component has no default
        Opaque(int seed) {
        }
    }

    static final ManagedComponent<Opaque> OPAQUE = Components.registerManaged(Opaque.class,
            o -> o.name("test.model.Opaque"));

    private final World world = World.create();

    @AfterEach
    void close() {
        world.close();
    }

    private static IllegalArgumentException refused(Runnable call) {
        return assertThrows(IllegalArgumentException.class, call::run);
    }

    /** A model over {@code index} and {@code registry} with no observers, no state tag and {@code hooks}. */
    private static MutationModel model(dev.jtecs.entity.internal.EntityIndex index,
            dev.jtecs.storage.internal.ArchetypeRegistry registry, DrainHooks hooks) {
        return new MutationModel(index, registry, new dev.jtecs.event.internal.ObserverRegistry(), () -> null, null,
                hooks);
    }

    /**
     * {@code stageTagMove}: with no scope open a plain tag moves at once and stages nothing; inside a scope it is
     * staged as a compact move and moves at the commit; a partition tag is left to the general path (which
     * refuses it) at both depths, having staged nothing.
     */
    @Test
    void aTagChangeWithNoScopeOpenMovesAtOnceAndAPartitionTagIsLeftToTheGeneralPath() {
        try (ModelFixture rig = new ModelFixture()) {
            long id = rig.model.spawn(new dev.jtecs.component.Input[] {HP.of(3)});
            java.util.function.Supplier<dev.jtecs.storage.internal.Table> table = () -> rig.tableOf(id);

            assertFalse(rig.model.stageTagMove(id, IDLE, true),
                    "a destination not in the edge cache: the general path");
            assertFalse(table.get().has(IDLE.id()));
            rig.registry.withAdded(table.get(), IDLE); // which caches the edge, as a first general move does
            assertTrue(rig.model.stageTagMove(id, IDLE, true));
            assertTrue(rig.model.transaction().isEmpty(), "moved at once: nothing staged");
            assertTrue(table.get().has(IDLE.id()));

            rig.model.scopes().defer();
            assertTrue(rig.model.stageTagMove(id, IDLE, false));
            assertFalse(rig.model.transaction().isEmpty(), "staged inside the scope");
            assertTrue(table.get().has(IDLE.id()), "until the commit");
            rig.model.scopes().commit();
            assertFalse(table.get().has(IDLE.id()));

            rig.model.partitions().declare(MOVE);
            assertFalse(rig.model.stageTagMove(id, RUNNING, true), "a partition tag takes the general path");
            rig.model.scopes().defer();
            assertFalse(rig.model.stageTagMove(id, RUNNING, true));
            assertTrue(rig.model.transaction().isEmpty());
            rig.model.scopes().commit();
            assertFalse(table.get().has(RUNNING.id()));
            assertEquals(3, table.get().readValue(table.get().position(HP.id()),
                    rig.index.rowOf(dev.jtecs.entity.Entity.slot(id))));
        }
    }

    /**
     * {@code set} of a new value with no scope open moves the row during the call, as one publication (its value's
     * accessor is user code, whose calls join it); a value the entity has is written through without one, and
     * inside a scope the new value waits for the commit's.
     */
    @Test
    void aNewValueWithNoScopeOpenMovesAtOnceAsOnePublication() {
        int[] publications = {0};
        try (ModelFixture rig = new ModelFixture(new DrainHooks() {
            @Override
            public void publicationEnded(boolean published) {
                publications[0]++;
            }
        })) {
            dev.jtecs.entity.internal.EntityIndex index = rig.index;
            dev.jtecs.storage.internal.ArchetypeRegistry registry = rig.registry;
            MutationModel model = rig.model;
            long id = model.spawn(new dev.jtecs.component.Input[] {IDLE});
            assertEquals(1, publications[0], "the spawn published");
            java.util.function.IntSupplier hp = () -> {
                dev.jtecs.storage.internal.Table table = registry.ofStore(index.storeOf(
                        dev.jtecs.entity.Entity.slot(id)));
                return (Integer) table.readValue(table.position(HP.id()),
                        index.rowOf(dev.jtecs.entity.Entity.slot(id)));
            };
            long seals = model.transaction().seals();
            model.set(id, HP.of(5));
            assertEquals(2, publications[0], "moved at once, as a publication of its own");
            assertEquals(seals + 1, model.transaction().seals(), "one submission, as a sealed wave would count");
            assertTrue(model.transaction().isEmpty());
            assertEquals(5, hp.getAsInt());
            model.set(id, HP.of(6));
            assertEquals(2, publications[0], "written through");
            assertEquals(6, hp.getAsInt());
            model.remove(id, HP, null);
            model.scopes().defer();
            model.set(id, HP.of(7));
            assertFalse(model.transaction().isEmpty(), "staged inside the scope");
            model.scopes().commit();
            assertEquals(4, publications[0], "the removal's and the commit's");
            assertEquals(7, hp.getAsInt());
        }
    }

    /**
     * {@code despawn} with nobody observing despawns: with no scope open it is published at once, never staged
     * (the wave that reports it holds no quiet despawn); inside a scope it is staged in short and published by the
     * commit's wave.
     */
    @Test
    void aSilentDespawnWithNoScopeOpenIsPublishedWithoutBeingStaged() {
        try (dev.jtecs.storage.internal.NativeMemory memory = new dev.jtecs.storage.internal.NativeMemory();
                dev.jtecs.storage.internal.ArchetypeRegistry registry =
                        new dev.jtecs.storage.internal.ArchetypeRegistry(memory)) {
            dev.jtecs.entity.internal.EntityIndex index = new dev.jtecs.entity.internal.EntityIndex(100);
            java.util.List<String> log = new java.util.ArrayList<>();
            MutationModel[] model = new MutationModel[1];
            model[0] = model(index, registry, new DrainHooks() {
                @Override
                public void despawned(long id) {
                    log.add("despawned, sealed quiet despawns " + model[0].transaction().sealedQuietDespawns());
                }
            });
            long a = model[0].spawn(new dev.jtecs.component.Input[] {HP.of(1)});
            long b = model[0].spawn(new dev.jtecs.component.Input[] {HP.of(2)});
            model[0].despawn(a);
            assertEquals(java.util.List.of("despawned, sealed quiet despawns 0"), log, "published at once");
            assertFalse(index.isAlive(a));
            model[0].scopes().defer();
            model[0].despawn(b);
            assertTrue(index.isAlive(b), "staged until the commit");
            model[0].scopes().commit();
            assertEquals(java.util.List.of("despawned, sealed quiet despawns 0", "despawned, sealed quiet despawns 1"),
                    log);
            assertFalse(index.isAlive(b));
            IllegalArgumentException dead = refused(() -> model[0].despawn(a));
            assertTrue(dead.getMessage().contains("despawn"), dead.getMessage());
        }
    }

    @Test
    void setAndRemoveRefusePartitionTagsNamingTheCallAtBothDepthsAndChangeNothing() {
        world.declarePartition(MOVE);
        long id = world.spawn(HP.of(3), IDLE);
        String setTag = "is a tag of partition dimension test.model.move; change it with setTag";
        for (boolean scoped : new boolean[] {false, true}) {
            inScopeOrNot(world, scoped, () -> {
                IllegalArgumentException set = refused(() -> world.set(id, RUNNING));
                assertTrue(set.getMessage().startsWith("set: test.model.Running " + setTag), set.getMessage());
                IllegalArgumentException removed = refused(() -> world.remove(id, IDLE));
                assertTrue(removed.getMessage().startsWith("remove: test.model.Idle " + setTag),
                        removed.getMessage());
            });
            assertTrue(world.has(id, IDLE), "scoped " + scoped);
            assertFalse(world.has(id, RUNNING), "scoped " + scoped);
            assertFalse(world.hasPendingChanges());
        }
    }

    /** Runs {@code calls} inside one {@code defer}/{@code commit} scope when {@code scoped}, else at depth 0. */
    private static void inScopeOrNot(World w, boolean scoped, Runnable calls) {
        if (scoped) {
            w.defer();
        }
        calls.run();
        if (scoped) {
            w.commit();
        }
    }

    /** The archetypes holding {@code HP} have {@code rows} rows, each a live entity's (no row outlived its entity). */
    private static void assertRowsAreLiveEntities(World w, int rows, String at) {
        int seen = 0;
        for (dev.jtecs.storage.Archetype archetype
                : w.newQuery(QueryDescriptor.builder().include(HP).build()).archetypes()) {
            for (int row = 0; row < archetype.count(); row++) {
                long entity = archetype.entity(row);
                assertTrue(w.isAlive(entity), at + ": a row of " + dev.jtecs.entity.Entity.toString(entity)
                        + ", which is not alive");
                seen++;
            }
        }
        assertEquals(rows, seen, at + ": one row per live entity");
    }

    /** A record whose accessor runs {@code MEDDLE} first: user code calling the world while its value is read. */
    record Meddler(int v) {
        static Runnable meddle = () -> { };

        @Override
        public int v() {
            Runnable run = meddle;
            meddle = () -> { };
            run.run();
            return v;
        }
    }

    static final dev.jtecs.component.NativeComponent<Meddler> MEDDLER =
            Components.registerNative(Meddler.class, o -> o.name("test.model.Meddler"));

    /**
     * The calls a value's accessor makes while its row moves at once publish in that move's one publication, in a
     * wave after it: the call ends with one publication, ended as published, and nothing left staged.
     */
    @Test
    void theCallsOfTheAccessorOfAValueMovedAtOncePublishInItsOnePublication() {
        try (dev.jtecs.storage.internal.NativeMemory memory = new dev.jtecs.storage.internal.NativeMemory();
                dev.jtecs.storage.internal.ArchetypeRegistry registry =
                        new dev.jtecs.storage.internal.ArchetypeRegistry(memory)) {
            dev.jtecs.entity.internal.EntityIndex index = new dev.jtecs.entity.internal.EntityIndex(100);
            java.util.List<Boolean> ended = new java.util.ArrayList<>();
            MutationModel model = model(index, registry, new DrainHooks() {
                @Override
                public void publicationEnded(boolean published) {
                    ended.add(published);
                }
            });
            long a = model.spawn(new dev.jtecs.component.Input[] {HP.of(1)});
            long c = model.spawn(new dev.jtecs.component.Input[] {HP.of(3)});
            model.set(a, MEDDLER.of(new Meddler(0))); // the tables and the edges the instant calls take exist
            model.remove(a, MEDDLER, null);
            model.set(c, IDLE);
            model.remove(c, IDLE, null);
            ended.clear();
            Meddler.meddle = () -> model.set(c, IDLE); // staged: the move's publication is running
            model.set(a, MEDDLER.of(new Meddler(7)));
            assertEquals(java.util.List.of(true), ended, "one publication, which published the accessor's call too");
            assertTrue(model.transaction().isEmpty());
            java.util.function.LongFunction<dev.jtecs.storage.internal.Table> tableOf =
                    id -> registry.ofStore(index.storeOf(dev.jtecs.entity.Entity.slot(id)));
            assertTrue(tableOf.apply(c).has(IDLE.id()));
            assertTrue(tableOf.apply(a).has(MEDDLER.id()));
        }
    }

    /**
     * A new value set with no scope open whose accessor despawns the entity and tags another: the calls join the
     * move's publication (they publish after it, in the next wave) exactly as they do when the set is staged and
     * published by a commit, so both worlds end alike and whole.
     */
    @Test
    void callsFromTheAccessorOfAValueMovedAtOnceJoinItsPublication() {
        for (boolean scoped : new boolean[] {false, true}) {
            try (World w = World.create()) {
                long a = w.spawn(HP.of(1));
                long b = w.spawn(HP.of(2));
                long c = w.spawn(HP.of(3));
                w.set(c, IDLE); // the tables and the edges exist: the set below is at once when instant
                w.remove(c, IDLE);
                w.set(a, MEDDLER.of(new Meddler(0)));
                w.remove(a, MEDDLER);
                int[] depth = {-1};
                Meddler.meddle = () -> {
                    assertTrue(w.isAlive(a), "the move is under way");
                    depth[0] = w.scopeDepth();
                    w.despawn(a);
                    w.set(c, IDLE);
                };
                inScopeOrNot(w, scoped, () -> w.set(a, MEDDLER.of(new Meddler(7))));
                String at = scoped ? "staged" : "at once";
                assertEquals(1, depth[0], at + ": the publication is a running call while user code runs");
                assertFalse(w.isAlive(a), at);
                assertEquals(2, w.get(b, HP), at);
                assertEquals(3, w.get(c, HP), at);
                assertTrue(w.has(c, IDLE), at);
                assertFalse(w.has(b, IDLE), at);
                assertFalse(w.hasPendingChanges(), at);
                assertEquals(2, w.entityCount(), at);
                assertRowsAreLiveEntities(w, 2, at);
            }
        }
    }

    /**
     * An instant tag whose destination is a new archetype: its creation runs user code (an {@code ArchetypeCreated}
     * observer that despawns the moving entity and another and tags a third), which the general path runs inside
     * the drain, so the instant call ends as the staged one does, with every row a live entity's.
     */
    @Test
    void anInstantTagIntoANewArchetypeRunsItsCreationCallbacksInsideThePublication() {
        for (boolean scoped : new boolean[] {false, true}) {
            try (World w = World.create()) {
                long a = w.spawn(HP.of(1));
                long b = w.spawn(HP.of(2));
                long c = w.spawn(HP.of(3));
                boolean[] once = {false};
                int[] depth = {-1};
                w.observe(0, dev.jtecs.event.ArchetypeCreated.class, created -> {
                    if (!once[0]) {
                        once[0] = true;
                        depth[0] = w.scopeDepth();
                        w.despawn(a); // the entity whose move created the archetype
                        w.despawn(b);
                        w.set(c, RUNNING);
                    }
                });
                inScopeOrNot(w, scoped, () -> w.set(a, IDLE));
                String at = scoped ? "staged" : "instant";
                assertTrue(once[0], at);
                assertEquals(1, depth[0], at);
                assertFalse(w.isAlive(a), at);
                assertFalse(w.isAlive(b), at);
                assertTrue(w.has(c, RUNNING), at);
                assertEquals(3, w.get(c, HP), at);
                assertFalse(w.hasPendingChanges(), at);
                assertRowsAreLiveEntities(w, 1, at);
            }
        }
    }

    /**
     * A call that a publication refuses (a snapshot save) made by the accessor of a value moved at once is refused
     * as during the staged set's publication, naming the publication, and the set fails with it.
     */
    @Test
    void anAccessorOfAValueMovedAtOnceRunsDuringAPublication() {
        for (boolean scoped : new boolean[] {false, true}) {
            try (World w = World.create()) {
                long a = w.spawn(HP.of(1));
                w.set(a, MEDDLER.of(new Meddler(0))); // the tables and the edge exist: the next set is at once
                w.remove(a, MEDDLER);
                Meddler.meddle = () -> w.saveSnapshot();
                String at = scoped ? "staged" : "at once";
                IllegalStateException refused;
                if (scoped) {
                    w.defer();
                    w.set(a, MEDDLER.of(new Meddler(7)));
                    refused = assertThrows(IllegalStateException.class, w::commit, at);
                } else {
                    refused = assertThrows(IllegalStateException.class, () -> w.set(a, MEDDLER.of(new Meddler(7))),
                            at);
                }
                assertTrue(refused.getMessage().startsWith("saveSnapshot: not allowed during publication"),
                        at + ": " + refused.getMessage());
                assertFalse(w.has(a, MEDDLER), at);
                assertFalse(w.hasPendingChanges(), at);
            }
        }
    }

    /**
     * A new value set with no scope open whose accessor stages a despawn and then throws: the move is undone and
     * what the accessor staged is discarded with it, as when the failing set is staged and published.
     */
    @Test
    void whatTheFailingAccessorOfAValueMovedAtOnceStagedIsDiscardedWithTheMove() {
        for (boolean scoped : new boolean[] {false, true}) {
            try (World w = World.create()) {
                long a = w.spawn(HP.of(1));
                long b = w.spawn(HP.of(2));
                w.set(a, MEDDLER.of(new Meddler(0))); // the tables and the edge exist: the next set is at once
                w.remove(a, MEDDLER);
                Meddler.meddle = () -> {
                    w.despawn(b);
                    throw new IllegalStateException("accessor failed");
                };
                if (scoped) {
                    w.defer();
                }
                String at = scoped ? "staged" : "at once";
                if (scoped) {
                    w.set(a, MEDDLER.of(new Meddler(7)));
                    assertThrows(IllegalStateException.class, w::commit, at);
                } else {
                    assertThrows(IllegalStateException.class, () -> w.set(a, MEDDLER.of(new Meddler(7))), at);
                }
                assertFalse(w.has(a, MEDDLER), at);
                assertEquals(1, w.get(a, HP), at);
                assertTrue(w.isAlive(b), at + ": the despawn the accessor staged went with the failed move");
                assertFalse(w.hasPendingChanges(), at);
                assertEquals(0, w.scopeDepth(), at);
            }
        }
    }

    /**
     * The membership callback of an instant despawn runs inside the running call of its publication, as when the
     * despawn is staged and published by a commit: the calls it makes publish after the despawn.
     */
    @Test
    void anInstantDespawnsCallbacksRunInsideItsPublication() {
        for (boolean scoped : new boolean[] {false, true}) {
            try (World w = World.create()) {
                int[] depth = {-1};
                long[] spawned = {0};
                dev.jtecs.storage.EntityObserver observer = new dev.jtecs.storage.EntityObserver() {
                    @Override
                    public void onEntitiesRemoved(dev.jtecs.storage.Archetype archetype, int fromRow, int toRow,
                            dev.jtecs.storage.Archetype other) {
                        if (spawned[0] == 0 && other == null) {
                            depth[0] = w.scopeDepth();
                            spawned[0] = w.spawn(HP.of(9), IDLE);
                        }
                    }
                };
                w.observe(0, dev.jtecs.event.ArchetypeCreated.class,
                        created -> created.archetype().addEntityObserver(observer));
                long a = w.spawn(HP.of(1));
                long b = w.spawn(HP.of(2));
                inScopeOrNot(w, scoped, () -> w.despawn(a));
                String at = scoped ? "staged" : "instant";
                assertEquals(1, depth[0], at);
                assertFalse(w.isAlive(a), at);
                assertTrue(w.isAlive(b), at);
                assertTrue(w.isAlive(spawned[0]), at + ": published after the despawn, in the same publication");
                assertEquals(9, w.get(spawned[0], HP), at);
                assertFalse(w.hasPendingChanges(), at);
            }
        }
    }

    @Test
    void batchCallsRefusePartitionTagsNamingTheCallAndChangeNothing() {
        world.declarePartition(MOVE);
        long id = world.spawn(HP.of(3), IDLE);
        Query idle = world.newQuery(QueryDescriptor.builder().include(IDLE).build());
        long version = world.structureVersion();
        String setTag = "is a tag of partition dimension test.model.move; change it with setTag";
        IllegalArgumentException set = refused(() -> world.batchSet(idle, RUNNING));
        assertTrue(set.getMessage().startsWith("batchSet: test.model.Running " + setTag), set.getMessage());
        IllegalArgumentException written = refused(() -> world.batchSet(idle, RUNNING, (archetype, from, to) -> { }));
        assertTrue(written.getMessage().startsWith("batchSet: test.model.Running " + setTag), written.getMessage());
        IllegalArgumentException removed = refused(() -> world.batchRemove(idle, IDLE));
        assertTrue(removed.getMessage().startsWith("batchRemove: test.model.Idle " + setTag), removed.getMessage());
        world.commit();
        assertEquals(version, world.structureVersion(), "nothing was staged");
        assertTrue(world.has(id, IDLE));
        assertFalse(world.has(id, RUNNING));
    }

    @Test
    void aBatchSetOfAnInputThatIsNoValueIsRefusedBeforeAnythingIsStaged() {
        long id = world.spawn(HP.of(3));
        Query withHp = world.newQuery(QueryDescriptor.builder().include(HP).build());
        world.defer();
        IllegalArgumentException bad = refused(() -> world.batchSet(withHp, OPAQUE));
        assertTrue(bad.getMessage().contains("test.model.Opaque has no default value"), bad.getMessage());
        world.commit();
        assertFalse(world.has(id, OPAQUE));
        assertEquals(3, world.get(id, HP));
    }

    @Test
    void spawnsRefuseABadInputInAnyPlaceBeforeTakingAnId() {
        long before = world.spawn();
        world.despawn(before); // its slot is the next to be taken
        IllegalArgumentException third = refused(() -> world.spawn(HP.of(1), IDLE, OPAQUE));
        assertTrue(third.getMessage().contains("test.model.Opaque has no default value"), third.getMessage());
        long restored = Entity.pack(40, 3);
        IllegalArgumentException at = refused(() -> world.spawnAt(restored, HP.of(1), OPAQUE));
        assertTrue(at.getMessage().contains("test.model.Opaque has no default value"), at.getMessage());
        assertFalse(world.isAlive(restored));
        assertEquals(0, world.entityCount());
        long next = world.spawn(HP.of(2));
        assertEquals(Entity.slot(before), Entity.slot(next), "no slot was taken by the refused spawns");
        world.spawnAt(restored, HP.of(1)); // the id was never reserved
        assertTrue(world.isAlive(restored));
    }

    static final TagComponent HEARD = Components.tag("test.model.Heard");
    static final dev.jtecs.component.Relationship KNOWS = dev.jtecs.component.Relationships.register(
            "test.model.Knows");

    @Test
    void aDespawnKeepsItsScopeOpenWhileItsObserversRunSoTheirCallsPublishWithIt() {
        long going = world.spawn(HP.of(1));
        long other = world.spawn(HP.of(2));
        boolean[] seenInside = {true};
        world.observe(0, dev.jtecs.event.OnDespawn.class, event -> {
            world.set(other, HEARD);
            seenInside[0] = world.has(other, HEARD);
        });
        world.despawn(going); // no scope open: the call's own scope publishes when it returns
        assertFalse(seenInside[0], "inside the observer the call is still open: the tag is staged");
        assertTrue(world.has(other, HEARD), "published with the despawn");
        assertFalse(world.isAlive(going));
    }

    @Test
    void aSpawnAtKeepsItsScopeOpenWhileItsObserversRunSoTheirCallsPublishWithIt() {
        long other = world.spawn(HP.of(2));
        long id = Entity.pack(500, 0);
        boolean[] seenInside = {true};
        world.observe(0, dev.jtecs.event.OnSpawn.class, event -> {
            if (event.entity() == id) {
                world.set(other, HEARD);
                seenInside[0] = world.has(other, HEARD);
            }
        });
        world.spawnAt(id, HP.of(7));
        assertFalse(seenInside[0], "inside the observer the call is still open: the tag is staged");
        assertTrue(world.has(other, HEARD));
        assertEquals(7, world.get(id, HP));
    }

    @Test
    void aRemovalAnEdgesRemovalOrAPartitionCallMadeByAnObserverLeavesTheOuterCallsScopeOpen() {
        world.declarePartition(MOVE);
        long going = world.spawn(HP.of(1));
        long friend = world.spawn(HP.of(3));
        long other = world.spawn(HP.of(2), IDLE, dev.jtecs.builtin.EntityKey.COMPONENT.of("model.other"));
        world.set(other, KNOWS.to(friend));
        boolean[] stagedInside = {false, false, false};
        world.observe(0, dev.jtecs.event.OnDespawn.class, event -> {
            world.remove(other, KNOWS.to(friend)); // one edge: its own overload
            stagedInside[2] = world.has(other, KNOWS);
            world.remove(other, dev.jtecs.builtin.EntityKey.COMPONENT); // a key's removal: the general path
            stagedInside[0] = world.has(other, dev.jtecs.builtin.EntityKey.COMPONENT); // the despawn's scope is open
            world.setTag(other, RUNNING);
            stagedInside[1] = world.has(other, IDLE);
        });
        world.despawn(going);
        assertTrue(stagedInside[0], "the removal waited for the despawn's scope");
        assertTrue(stagedInside[1], "the switch waited too");
        assertTrue(stagedInside[2], "the edge's removal waited too");
        assertFalse(world.has(other, KNOWS));
        assertFalse(world.has(other, dev.jtecs.builtin.EntityKey.COMPONENT));
        assertSame(RUNNING, world.partitionOf(other, MOVE));
    }

    @Test
    void aPartitionCallOnADeadEntityIsRefusedUnderItsOwnName() {
        world.declarePartition(MOVE);
        long dead = world.spawn(IDLE);
        world.despawn(dead);
        String set = assertThrows(IllegalArgumentException.class, () -> world.setTag(dead, RUNNING)).getMessage();
        assertTrue(set.startsWith("setTag: "), set);
        dev.jtecs.mutation.PartitionDimension flag = PartitionDimension.presence("test.model.flag", HEARD);
        world.declarePartition(flag);
        String unset = assertThrows(IllegalArgumentException.class, () -> world.unsetTag(dead, HEARD)).getMessage();
        assertTrue(unset.startsWith("unsetTag: "), unset);
    }

    record Spot(float x, float y) {} // plain: generated accessors and constructor

    static final dev.jtecs.component.NativeComponent<Spot> SPOT = Components.registerNative(Spot.class);

    /** A record whose accessor is code of its own: it notes whether an entity is alive when it runs. */
    record Probe(float v) {
        static World world;
        static long watched;
        static Boolean watchedAlive;

        @Override
        public float v() {
            if (world != null) {
                world.despawn(watched); // staged when the call's scope is open around the accessor
                watchedAlive = world.isAlive(watched);
            }
            return v;
        }
    }

    static final dev.jtecs.component.NativeComponent<Probe> PROBE = Components.registerNative(Probe.class);

    /**
     * The short path of {@code set} ({@link #shortSet}) writes a plain record through to a published entity that has
     * the component, with no scope open and inside one, staging nothing; it declines (changing nothing) for a value
     * of any other component, an entity that is not published, and, with no scope open, while earlier work waits to
     * be published, which the general path then publishes as it always did.
     */
    @Test
    void aPlainRecordOnAPublishedEntityIsWrittenAtOnceAndEverythingElseIsLeftToSet() {
        try (ModelFixture rig = new ModelFixture()) {
            long id = rig.model.spawn(new dev.jtecs.component.Input[] {SPOT.of(new Spot(1, 2)), HP.of(3)});
            java.util.function.Supplier<dev.jtecs.storage.internal.Table> table = () -> rig.tableOf(id);
            java.util.function.Supplier<Object> spot = () -> table.get().readValue(table.get().position(SPOT.id()),
                    rig.index.rowOf(Entity.slot(id)));

            assertTrue(shortSet(rig.model, id, SPOT.of(new Spot(3, 4))));
            assertEquals(new Spot(3, 4), spot.get());
            assertTrue(rig.model.transaction().isEmpty());
            assertTrue(table.get().dirty().isDirty(table.get().position(SPOT.id())), "a write-through marks");
            rig.model.scopes().defer();
            assertTrue(shortSet(rig.model, id, SPOT.of(new Spot(5, 6))), "inside a scope too");
            assertEquals(new Spot(5, 6), spot.get());
            rig.model.scopes().commit();

            long other = assertDeclinesTheCommonCases(rig, id, (entity, value) -> shortSet(rig.model, entity, value),
                    spot);
            rig.model.set(id, SPOT.of(new Spot(7, 8))); // the general path writes it and publishes the waiting spawn
            assertEquals(new Spot(7, 8), spot.get());
            assertTrue(rig.index.isAlive(other));
            assertTrue(rig.model.transaction().isEmpty());
        }
    }

    /**
     * What the short path's write-through declines, writing nothing: a scalar component's value, a
     * stale id, and, with no scope open, a value while earlier work waits (a staged spawn, left unpublished here:
     * its id is returned).
     */
    private static long assertDeclinesTheCommonCases(ModelFixture rig, long id,
            java.util.function.BiPredicate<Long, dev.jtecs.component.ComponentValue<?>> path,
            java.util.function.Supplier<Object> spot) {
        Object before = spot.get();
        assertFalse(path.test(id, HP.of(7)), "a scalar component");
        assertFalse(path.test(Entity.pack(Entity.slot(id), Entity.generation(id) + 1), SPOT.of(new Spot(9, 9))),
                "a stale id");
        long other = rig.index.allocate(); // earlier work that waits: a staged spawn left unpublished
        rig.model.transaction().put(rig.model.transaction().begin(other, Entity.slot(other), TxState.STAGED_SPAWN),
                HP, HP.of(8));
        assertFalse(path.test(id, SPOT.of(new Spot(9, 9))), "work waits, no scope open");
        assertEquals(before, spot.get(), "nothing written");
        return other;
    }

    /**
     * What {@code World.set} does with a component value before its general path: a plain record's bits through
     * {@code setBits}, any other value through {@code setAtOnce}.
     */
    static boolean shortSet(MutationModel model, long id, dev.jtecs.component.ComponentValue<?> value) {
        long[] bits = model.plainBits(value);
        return bits != null ? model.setBits(id, value.component(), bits) : model.setAtOnce(id, value);
    }

    /**
     * {@code plainBits} reads a plain record's fields into the model's one array (the same array each call) and
     * answers null for every value it does not read: a record with an accessor of its own, a scalar component.
     */
    @Test
    void onlyAPlainRecordIsReadAsItsBitsAndAlwaysIntoTheSameArray() {
        try (ModelFixture rig = new ModelFixture()) {
            long[] first = rig.model.plainBits(SPOT.of(new Spot(1.5f, Float.intBitsToFloat(0x7fc00003))));
            assertEquals(Float.floatToRawIntBits(1.5f), (int) first[0]);
            assertEquals(0x7fc00003, (int) first[1], "raw bits");
            assertSame(first, rig.model.plainBits(HEADING.of(new Heading(2))), "one array, reused");
            assertEquals(Float.floatToRawIntBits(2), (int) first[0]);
            assertNull(rig.model.plainBits(PROBE.of(new Probe(3))), "an accessor of its own");
            assertNull(rig.model.plainBits(HP.of(4)), "a scalar component");
            assertNull(rig.model.plainBits(PROBE.of(new Probe(5))), "and again, once known");
        }
    }

    /**
     * {@code setAtOnce} takes what {@code setBits} leaves, a record with an accessor of its own, only as a move: a
     * new component on a published entity moves with no scope open (its accessor runs) and is staged inside one;
     * a component the entity has is left to the general path, having changed nothing.
     */
    @Test
    void aRecordWithAnAccessorOfItsOwnTakesOnlyTheMoveOfTheShortPath() {
        try (ModelFixture rig = new ModelFixture()) {
            long id = rig.model.spawn(new dev.jtecs.component.Input[] {HP.of(3)});
            assertTrue(rig.model.setAtOnce(id, PROBE.of(new Probe(1))));
            dev.jtecs.storage.internal.Table table = rig.tableOf(id);
            assertTrue(table.has(PROBE.id()), "moved");
            assertEquals(new Probe(1), table.readValue(table.position(PROBE.id()), rig.index.rowOf(Entity.slot(id))));
            assertFalse(rig.model.setAtOnce(id, PROBE.of(new Probe(2))), "it has the component: the general path");
            assertEquals(new Probe(1), table.readValue(table.position(PROBE.id()), rig.index.rowOf(Entity.slot(id))));
            long other = rig.model.spawn(new dev.jtecs.component.Input[] {HP.of(4)});
            rig.model.scopes().defer();
            assertTrue(rig.model.setAtOnce(other, PROBE.of(new Probe(3))));
            assertTrue(rig.model.transaction().hasStaged(Entity.slot(other)), "staged inside a scope");
            rig.model.scopes().commit();
            assertTrue(rig.tableOf(other).has(PROBE.id()));
            assertFalse(rig.model.setAtOnce(other, HP.of(5)), "not a native component");
        }
    }

    record Heading(float angle) {} // plain

    static final dev.jtecs.component.NativeComponent<Heading> HEADING = Components.registerNative(Heading.class);
    record Guide(float weight) {} // plain, with a requirement

    static final dev.jtecs.component.NativeComponent<Guide> GUIDE = Components.registerNative(Guide.class,
            o -> o.requires(RUNNING));

    /**
     * The short path's move, a new native component on a published entity with nothing staged: with no
     * scope open it moves the row at once, or, while earlier work waits, stages the move and publishes it with that
     * work before it returns; inside a scope it stages a compact value move (published by the commit, nothing
     * visible before). It declines for an entity with something staged already and for a component with
     * requirements, which the general path handles as before.
     */
    @Test
    void aNewNativeComponentInsideAScopeIsStagedAsACompactMoveOnTheShortPath() {
        try (ModelFixture rig = new ModelFixture()) {
            long id = rig.model.spawn(new dev.jtecs.component.Input[] {HP.of(3)});
            long other = rig.model.spawn(new dev.jtecs.component.Input[] {HP.of(4)});
            java.util.function.LongFunction<dev.jtecs.storage.internal.Table> table = rig::tableOf;

            long moved = rig.model.spawn(new dev.jtecs.component.Input[] {HP.of(6)});
            assertTrue(shortSet(rig.model, moved, HEADING.of(new Heading(1))));
            assertTrue(table.apply(moved).has(HEADING.id()), "no scope open: moved at once");
            assertTrue(rig.model.transaction().isEmpty());
            long waiting = rig.index.allocate(); // earlier work that waits: the move is staged and published with it
            rig.model.transaction().put(rig.model.transaction().begin(waiting, Entity.slot(waiting),
                    TxState.STAGED_SPAWN), HP, HP.of(8));
            long late = rig.model.spawn(new dev.jtecs.component.Input[] {HP.of(7)}); // (publishes the waiting spawn)
            assertTrue(rig.index.isAlive(waiting));
            long waitingToo = rig.index.allocate();
            rig.model.transaction().put(rig.model.transaction().begin(waitingToo, Entity.slot(waitingToo),
                    TxState.STAGED_SPAWN), HP, HP.of(9));
            assertTrue(shortSet(rig.model, late, HEADING.of(new Heading(5))));
            assertTrue(table.apply(late).has(HEADING.id()), "staged behind the waiting work, published on return");
            assertTrue(rig.index.isAlive(waitingToo), "the waiting spawn published with it");
            assertTrue(rig.model.transaction().isEmpty());
            rig.model.scopes().defer();
            assertTrue(shortSet(rig.model, id, HEADING.of(new Heading(2))));
            assertTrue(rig.model.transaction().hasStaged(Entity.slot(id)), "staged");
            assertFalse(table.apply(id).has(HEADING.id()), "not published before the commit");
            assertFalse(shortSet(rig.model, id, HEADING.of(new Heading(3))), "something is staged for it now");
            assertFalse(shortSet(rig.model, other, GUIDE.of(new Guide(1))), "a component with requirements");
            assertFalse(rig.model.transaction().hasStaged(Entity.slot(other)), "declined: nothing staged");
            rig.model.set(other, IDLE); // a compact tag move for other
            assertFalse(shortSet(rig.model, other, HEADING.of(new Heading(4))), "a compact move is staged for it");
            rig.model.set(other, GUIDE.of(new Guide(2))); // the general path: with its requirement
            rig.model.scopes().commit();
            assertTrue(table.apply(id).has(HEADING.id()));
            assertTrue(table.apply(other).has(IDLE.id()));
            assertTrue(table.apply(other).has(RUNNING.id()), "the requirement came with it");
            assertFalse(table.apply(other).has(HEADING.id()));
            assertEquals(new Heading(2), table.apply(id).readValue(table.apply(id).position(HEADING.id()),
                    rig.index.rowOf(Entity.slot(id))));
        }
    }

    /**
     * With no scope open, a new plain record whose destination the entity's table already knows moves at once as
     * one publication: one submission, one publication ended, nothing staged, the value in its row beside the
     * row's other values, its column dirty, and the entity that moved there first untouched.
     */
    @Test
    void aNewPlainRecordWithNoScopeOpenMovesAsALonePublicationOnceItsDestinationIsKnown() {
        int[] ended = new int[2]; // failed, published
        try (ModelFixture rig = new ModelFixture(new DrainHooks() {
            @Override
            public void publicationEnded(boolean published) {
                ended[published ? 1 : 0]++;
            }
        })) {
            dev.jtecs.entity.internal.EntityIndex index = rig.index;
            dev.jtecs.storage.internal.ArchetypeRegistry registry = rig.registry;
            MutationModel model = rig.model;
            long first = model.spawn(new dev.jtecs.component.Input[] {HP.of(1)});
            long second = model.spawn(new dev.jtecs.component.Input[] {HP.of(2)});
            dev.jtecs.storage.internal.Table from = registry.ofStore(index.storeOf(Entity.slot(second)));
            assertTrue(shortSet(model, first, HEADING.of(new Heading(1)))); // the first move makes the destination
            assertTrue(from.addEdge(HEADING.id()) != null, "which the source table now knows");
            int published = ended[1];
            long seals = model.transaction().seals();
            assertTrue(shortSet(model, second, HEADING.of(new Heading(2))));
            assertEquals(published + 1, ended[1], "one publication");
            assertEquals(0, ended[0]);
            assertEquals(seals + 1, model.transaction().seals(), "one submission");
            assertTrue(model.transaction().isEmpty(), "nothing staged");
            dev.jtecs.storage.internal.Table to = registry.ofStore(index.storeOf(Entity.slot(second)));
            assertSame(from.addEdge(HEADING.id()), to);
            int row = index.rowOf(Entity.slot(second));
            assertEquals(new Heading(2), to.readValue(to.position(HEADING.id()), row));
            assertEquals(2, to.readValue(to.position(HP.id()), row), "the row's other value came with it");
            assertTrue(to.dirty().isDirty(to.position(HEADING.id())), "the new column reads dirty");
            assertEquals(new Heading(1), to.readValue(to.position(HEADING.id()),
                    index.rowOf(Entity.slot(first))), "the first entity's row is untouched");
        }
    }

    /**
     * Runs {@code call} with the {@code k}-th allocation of {@code kind} made to fail, for k = 1, 2, ... until
     * it succeeds; after each failure the world's whole state must be what it was before the call. Returns how
     * many calls failed (none when the suite runs without injected faults).
     */
    private int failingEachAllocation(dev.jtecs.entity.internal.AllocationFaults.Kind kind, String what,
            Runnable call) {
        int failures = 0;
        for (int k = 1; ; k++) {
            String before = dev.jtecs.testing.WorldState.of(world);
            if (dev.jtecs.entity.internal.AllocationFaults.ENABLED) {
                dev.jtecs.entity.internal.AllocationFaults.failAt(kind, k);
            }
            try {
                call.run();
                return failures;
            } catch (OutOfMemoryError expected) {
                failures++;
                assertEquals(before, dev.jtecs.testing.WorldState.of(world), kind + " allocation " + k + " of " + what);
            } finally {
                if (dev.jtecs.entity.internal.AllocationFaults.ENABLED) {
                    dev.jtecs.entity.internal.AllocationFaults.disarm();
                }
            }
        }
    }

    /** A random shape of plain components and a tag for the despawn twins (one in four has a tag). */
    private static dev.jtecs.component.Input[] randomShape(java.util.Random random, int i) {
        java.util.List<dev.jtecs.component.Input> inputs = new java.util.ArrayList<>();
        inputs.add(HP.of(i));
        if (random.nextBoolean()) {
            inputs.add(SPOT.of(new Spot(i, -i)));
        }
        if (random.nextInt(3) == 0) {
            inputs.add(HEADING.of(new Heading(i * 0.5f)));
        }
        if (random.nextInt(4) == 0) {
            inputs.add(IDLE);
        }
        return inputs.toArray(dev.jtecs.component.Input[]::new);
    }

    /**
     * An instant despawn that nothing can hear (no relationship, no observer of the entity's archetype) removes
     * the row and frees the slot without a publication around it ({@code CommitDrain.despawnUnheard}); the world
     * it leaves is the one the published despawn leaves. The twin world has an observer on every archetype, which
     * sends each of its despawns through the publication; both take the same random spawns and despawns (fixed
     * seeds, named in each message), and their states and the ids their next spawns get stay equal.
     */
    @Test
    void anInstantDespawnNobodyCanHearLeavesTheWorldAHeardOneLeaves() {
        for (long seed = 1; seed <= 8; seed++) {
            java.util.Random random = new java.util.Random(seed);
            try (World unheard = World.create(); World heard = World.create()) {
                dev.jtecs.storage.EntityObserver listener = new dev.jtecs.storage.EntityObserver() { };
                heard.observe(Entity.WORLD, dev.jtecs.event.ArchetypeCreated.class,
                        event -> event.archetype().addEntityObserver(listener));
                java.util.List<Long> alive = new java.util.ArrayList<>();
                for (int step = 0; step < 600; step++) {
                    if (alive.isEmpty() || random.nextInt(5) < 3) {
                        dev.jtecs.component.Input[] shape = randomShape(random, step);
                        long id = unheard.spawn(shape);
                        assertEquals(id, heard.spawn(shape), "seed " + seed + " step " + step);
                        alive.add(id);
                    } else {
                        long id = alive.remove(random.nextInt(alive.size()));
                        unheard.despawn(id);
                        heard.despawn(id);
                        assertFalse(unheard.isAlive(id));
                    }
                    if (step % 100 == 99) {
                        assertEquals(dev.jtecs.testing.WorldState.of(heard), dev.jtecs.testing.WorldState.of(unheard),
                                "seed " + seed + " step " + step);
                    }
                }
                for (long id : alive) {
                    assertEquals(unheard.get(id, HP), heard.get(id, HP), "seed " + seed);
                }
            }
        }
    }

    /** A random spawn for the spawn twins, through the varargs form or a fixed-arity one. */
    private static long spawnRandom(World world, java.util.Random random, int i) {
        dev.jtecs.component.Input[] shape = randomShape(random, i);
        int form = random.nextInt(6);
        if (form == 0) {
            shape = java.util.Arrays.copyOf(shape, shape.length + 1);
            shape[shape.length - 1] = HP.of(-i); // named twice: the last wins
        } else if (form == 1) {
            shape[0] = HP; // a bare component: its default
        }
        return switch (shape.length) {
            case 1 -> world.spawn(shape[0]);
            case 2 -> form < 4 ? world.spawn(shape[0], shape[1]) : world.spawn(shape);
            default -> world.spawn(shape);
        };
    }

    /**
     * The instant calls nobody hears take short ways: a spawn of plain values is placed without a record
     * ({@code CommitDrain.spawnAtOnce}), a despawn leaves without a publication around it
     * ({@code despawnUnheard}), a tag, a plain value and a removal move the row with no publication machinery
     * ({@code moveAtOnce}, {@code movePlainBitsAtOnce}). The world they leave is the one the general paths leave.
     * The twin world has an {@code OnSpawn} observer and an observer on every archetype, which send each of its
     * calls down the general path; both take the same random spawns (values, tags, defaults, a component named
     * twice; each calling form), sets of existing and new components, removals and despawns (fixed seeds, named
     * in each message), give the same ids and keep equal states.
     */
    @Test
    void anInstantSpawnNobodyHearsLeavesTheWorldAHeardOneLeaves() {
        for (long seed = 1; seed <= 8; seed++) {
            java.util.Random random = new java.util.Random(seed);
            try (World quiet = World.create(); World heard = World.create()) {
                heard.observe(Entity.WORLD, dev.jtecs.event.OnSpawn.class, event -> { });
                dev.jtecs.storage.EntityObserver listener = new dev.jtecs.storage.EntityObserver() { };
                heard.observe(Entity.WORLD, dev.jtecs.event.ArchetypeCreated.class,
                        event -> event.archetype().addEntityObserver(listener));
                heard.forEachArchetype(archetype -> archetype.addEntityObserver(listener));
                java.util.List<Long> alive = new java.util.ArrayList<>();
                for (int step = 0; step < 600; step++) {
                    String where = "seed " + seed + " step " + step;
                    int op = alive.isEmpty() ? 0 : random.nextInt(12);
                    if (op < 5) {
                        long state = random.nextLong();
                        long id = spawnRandom(quiet, new java.util.Random(state), step);
                        assertEquals(id, spawnRandom(heard, new java.util.Random(state), step), where);
                        alive.add(id);
                    } else if (op < 7) {
                        long id = alive.remove(random.nextInt(alive.size()));
                        quiet.despawn(id);
                        heard.despawn(id);
                    } else {
                        long id = alive.get(random.nextInt(alive.size()));
                        dev.jtecs.component.Input change = switch (op) {
                            case 7 -> HP.of(step);
                            case 8 -> SPOT.of(new Spot(step, step));
                            case 9 -> HEADING.of(new Heading(step));
                            default -> IDLE;
                        };
                        if (random.nextBoolean()) {
                            quiet.set(id, change);
                            heard.set(id, change);
                        } else {
                            quiet.remove(id, change.component());
                            heard.remove(id, change.component());
                        }
                    }
                    if (step % 100 == 99) {
                        assertEquals(dev.jtecs.testing.WorldState.of(heard), dev.jtecs.testing.WorldState.of(quiet),
                                where);
                    }
                }
            }
        }
    }

    /**
     * A failed allocation during an instant spawn placed at once (the entity index or the archetype's columns
     * growing) leaves the world as it was, and the next call spawns the entity.
     */
    @Test
    void aFailedAllocationDuringAnInstantSpawnChangesNothing() {
        world.spawn(HP.of(0), SPOT.of(new Spot(0, 0))); // the archetype exists: later spawns are placed at once
        int failures = 0;
        for (dev.jtecs.entity.internal.AllocationFaults.Kind kind : dev.jtecs.entity.internal.AllocationFaults.Kind
                .values()) {
            for (int i = 1; i < 300; i++) {
                int value = i;
                long[] spawned = new long[1];
                failures += failingEachAllocation(kind, "spawn " + i,
                        () -> spawned[0] = world.spawn(HP.of(value), SPOT.of(new Spot(value, -value))));
                long id = spawned[0];
                assertEquals(i, world.get(id, HP));
                assertEquals(new Spot(i, -i), world.get(id, SPOT));
            }
        }
        assertEquals(dev.jtecs.entity.internal.AllocationFaults.ENABLED, failures > 0, "growths were failed");
    }

    /**
     * A failed allocation during an instant despawn nothing hears (the free list or the table's record of
     * overwritten rows growing) leaves the world as it was, and the next call despawns the entity.
     */
    @Test
    void aFailedAllocationDuringAnUnheardDespawnChangesNothing() {
        long[] ids = new long[300];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = world.spawn(HP.of(i), SPOT.of(new Spot(i, i)));
        }
        int failures = 0;
        for (int i = 0; i < ids.length; i += 3) { // from the front: every despawn moves the last row into the hole
            long id = ids[i];
            failures += failingEachAllocation(dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP, "despawn " + i,
                    () -> world.despawn(id));
            assertFalse(world.isAlive(id));
        }
        assertEquals(dev.jtecs.entity.internal.AllocationFaults.ENABLED, failures > 0, "growths were failed");
        for (int i = 0; i < ids.length; i++) {
            assertEquals(i % 3 != 0, world.isAlive(ids[i]));
            if (i % 3 != 0) {
                assertEquals(i, world.get(ids[i], HP));
                assertEquals(new Spot(i, i), world.get(ids[i], SPOT));
            }
        }
    }

    record Gauge(float level, double rate, long ticks) {} // plain, three fields; set first by the test below

    static final dev.jtecs.component.NativeComponent<Gauge> GAUGE = Components.registerNative(Gauge.class);

    /**
     * The first {@code set} of a component has the world note whether its record type is plain and make room for
     * its fields' bits; a failed allocation there leaves the world as it was, and the call succeeds when allowed,
     * as a write-through and as a move.
     */
    @Test
    void aFailedAllocationWhileSetLearnsARecordTypeChangesNothing() {
        long has = world.spawn(HP.of(1), GAUGE.of(new Gauge(1, 2, 3)));
        long lacks = world.spawn(HP.of(2));
        int failures = failingEachAllocation(dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP, "a first set",
                () -> world.set(has, GAUGE.of(new Gauge(4, 5, 6))));
        assertEquals(new Gauge(4, 5, 6), world.get(has, GAUGE));
        world.set(lacks, GAUGE.of(new Gauge(7, 8, 9)));
        assertEquals(new Gauge(7, 8, 9), world.get(lacks, GAUGE));
        assertEquals(dev.jtecs.entity.internal.AllocationFaults.ENABLED, failures > 0, "growths were failed");
    }

    /**
     * A failed allocation during such a move (the destination's columns or the engine's arrays growing) leaves
     * the world as it was, and the next call moves the entity.
     */
    @Test
    void aFailedAllocationDuringAnInstantPlainValueMoveChangesNothing() {
        long[] ids = new long[300];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = world.spawn(HP.of(i));
        }
        world.set(ids[0], HEADING.of(new Heading(0))); // the destination exists and the source knows it
        int failures = 0;
        for (dev.jtecs.entity.internal.AllocationFaults.Kind kind : dev.jtecs.entity.internal.AllocationFaults.Kind
                .values()) {
            for (int i = 1; i < ids.length; i++) {
                long id = ids[i];
                if (world.has(id, HEADING)) {
                    continue;
                }
                int value = i;
                failures += failingEachAllocation(kind, "entity " + i,
                        () -> world.set(id, HEADING.of(new Heading(value))));
                assertEquals(new Heading(i), world.get(id, HEADING));
                assertEquals(i, world.get(id, HP));
                if (i % 2 == 0) {
                    world.remove(id, HEADING); // rows leave the destination too, so growth comes again later
                }
            }
        }
        assertEquals(dev.jtecs.entity.internal.AllocationFaults.ENABLED, failures > 0, "growths were failed");
    }

    /**
     * Through the world: a value set after a batch operation in the same scope is not written before the batch
     * (which would let the batch overwrite it), and a record with an accessor of its own is written by the general
     * path, its accessor running inside the call's scope (a despawn it makes waits for the call's end).
     */
    @Test
    void aBatchBoundaryAndARecordWithCodeOfItsOwnTakeTheGeneralPath() {
        long a = world.spawn(SPOT.of(new Spot(1, 1)));
        Query spots = world.newQuery(QueryDescriptor.builder().include(SPOT).build());
        world.defer();
        world.batchSet(spots, SPOT.of(new Spot(9, 9)));
        world.set(a, SPOT.of(new Spot(2, 2))); // after the batch in call order
        assertEquals(new Spot(1, 1), world.get(a, SPOT), "staged behind the batch, not written through");
        world.commit();
        assertEquals(new Spot(2, 2), world.get(a, SPOT), "the later call wins");

        long probed = world.spawn(PROBE.of(new Probe(1)));
        long watched = world.spawn(HP.of(1));
        Probe.world = world;
        Probe.watched = watched;
        try {
            world.set(probed, PROBE.of(new Probe(2)));
        } finally {
            Probe.world = null;
        }
        assertEquals(Boolean.TRUE, Probe.watchedAlive, "the accessor ran inside the call's scope");
        assertFalse(world.isAlive(watched), "and its despawn was published when the call returned");
        assertEquals(new Probe(2), world.get(probed, PROBE));
    }

    /**
     * Clearing the entities in a scope that holds a staged batch: the batch's copies of its tables' rows are taken
     * before any row leaves (clearing drops the batch, but its copies allocate), so failing any one allocation of
     * the clear (each in turn, on a world built the same way) leaves every table and entity as it was.
     */
    @Test
    void clearingEntitiesWhoseStagedBatchCannotCopyItsRowsChangesNothing() {
        boolean failed = false;
        for (int k = 1; ; k++) {
            try (World w = World.create()) {
                long[] ids = {w.spawn(HP.of(1)), w.spawn(HP.of(2)), w.spawn(HP.of(3), SPOT.of(new Spot(3, 3))),
                    w.spawn(HP.of(4), SPOT.of(new Spot(4, 4)))}; // two tables
                Query hp = w.newQuery(QueryDescriptor.builder().include(HP).build());
                w.defer();
                w.batchSet(hp, HP.of(9)); // staged: captures both tables' rows, copied at their next change
                dev.jtecs.entity.internal.AllocationFaults.failAt(
                        dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP, k);
                try {
                    w.clearEntities();
                } catch (OutOfMemoryError e) {
                    failed = true;
                    dev.jtecs.entity.internal.AllocationFaults.disarm();
                    assertEquals(ids.length, w.entityCount(), "growth " + k);
                    assertEquals(ids.length, hp.count(), "growth " + k + ": every row still in its table");
                    for (int i = 0; i < ids.length; i++) {
                        assertTrue(w.isAlive(ids[i]), "growth " + k + ", entity " + i);
                        assertEquals(i + 1, w.get(ids[i], HP), "growth " + k + ", entity " + i);
                    }
                    assertEquals(new Spot(4, 4), w.get(ids[3], SPOT), "growth " + k);
                    continue;
                } finally {
                    dev.jtecs.entity.internal.AllocationFaults.disarm();
                }
                assertTrue(failed, "clearing allocated nothing to fail");
                assertEquals(0, w.entityCount());
                w.commit(); // the batch went with the entities
                assertEquals(0, w.entityCount());
                long next = w.spawn(HP.of(5));
                assertEquals(5, w.get(next, HP));
                return;
            }
        }
    }
}
