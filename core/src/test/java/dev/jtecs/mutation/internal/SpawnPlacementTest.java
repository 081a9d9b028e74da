package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.Components;
import dev.jtecs.component.Input;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.storage.internal.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Placing single spawns by their cached shape, and planning batches at the call. */
class SpawnPlacementTest {
    static final ScalarComponent.OfInt HP = Components.scalar("test.spawnplace.Hp", 3);
    static final TagComponent A = Components.tag("test.spawnplace.A");
    static final TagComponent B = Components.tag("test.spawnplace.B", o -> o.requires(HP.of(9)));

    static final class Cursed {
        Cursed() {
            throw new IllegalStateException("constructor failed");
        }
    }

    static final ManagedComponent<Cursed> CURSED = Components.registerManaged(Cursed.class,
            o -> o.name("test.spawnplace.Cursed").defaults(Cursed::new));

    record Plain(float v) {} // generated accessor: a plain record

    record Doubled(float v) { // an accessor of its own: writing it runs user code
        @Override
        public float v() {
            return v * 2;
        }
    }

    static final dev.jtecs.component.NativeComponent<Plain> PLAIN = Components.registerNative(Plain.class);
    static final dev.jtecs.component.NativeComponent<Doubled> DOUBLED = Components.registerNative(Doubled.class);

    private final DrainFixture fixture = new DrainFixture();
    private final RequirementPlan requirements = new RequirementPlan(fixture.registry.pairs());
    private final SpawnPlacement spawns = new SpawnPlacement(fixture.drain, fixture.index, fixture.registry,
            fixture.tx, requirements, new Destinations(fixture.registry, fixture.tx, requirements),
            new RequiredEdges());

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    private int stage(Input... inputs) {
        long id = fixture.stageSpawn(inputs);
        return fixture.tx.find(Entity.slot(id));
    }

    @Test
    void consecutiveSpawnsOfOneSequenceShareTheirShape() {
        int first = stage(A, HP.of(1));
        int second = stage(A, HP.of(2));
        int other = stage(HP.of(3), A);
        SpawnPlacement.SpawnShape shape = spawns.shapeOf(first);
        assertSame(shape, spawns.shapeOf(second), "same components in the same order: no signature work");
        SpawnPlacement.SpawnShape reordered = spawns.shapeOf(other);
        assertNotSame(shape, reordered, "another order is another shape");
        assertSame(shape.table(), reordered.table(), "of the same archetype");
    }

    /** The table of exactly {@code components}, made (as the general path would) for a spawn at once to find. */
    private Table archetype(dev.jtecs.component.Component<?>... components) {
        Table table = fixture.registry.root();
        for (dev.jtecs.component.Component<?> component : components) {
            table = fixture.registry.withAdded(table, component);
        }
        return table;
    }

    /** Asserts that a spawn at once of {@code inputs} is refused and changed nothing. */
    private void refused(String why, Input... inputs) {
        int highWater = fixture.index.highWater();
        int alive = fixture.index.aliveCount();
        assertEquals(0, spawns.spawnAtOnce(inputs, null, null, null, inputs.length), why);
        assertEquals(highWater, fixture.index.highWater(), why + ": no id handed out");
        assertEquals(alive, fixture.index.aliveCount(), why);
    }

    /**
     * A spawn at once: plain values and tags into an archetype that exists, unobserved and without pairs, are
     * placed and published with no record; the same components in either calling form and order reuse one answer;
     * anything else (a requirement, a default, a component named twice, an archetype not made yet, an observer,
     * a record with an accessor of its own, a pruned table) is refused having changed nothing.
     */
    @Test
    void aSpawnAtOnceOfPlainValuesIsPlacedWhereItsArchetypeExistsAndRefusedOtherwise() {
        refused("no archetype of these components yet", A, HP.of(5));
        Table table = archetype(A, HP);
        long id = spawns.spawnAtOnce(new Input[] {A, HP.of(5)}, null, null, null, 2);
        assertTrue(fixture.index.isAlive(id));
        assertSame(table, fixture.tableOf(id));
        int row = fixture.index.rowOf(Entity.slot(id));
        assertEquals(5, table.readValue(table.position(HP.id()), row));
        assertEquals(id, table.entityAt(row));
        assertTrue(fixture.tx.isEmpty(), "nothing staged");
        long second = spawns.spawnAtOnce(null, HP.of(6), A, null, 2);
        assertSame(table, fixture.tableOf(second), "another order, the same archetype");
        assertEquals(6, table.readValue(table.position(HP.id()), fixture.index.rowOf(Entity.slot(second))));
        assertEquals(2, table.count());

        refused("a tag with a requirement", B);
        refused("a bare component asks for its default, in the order of the answer kept too", HP, A);
        refused("a component named twice: the last wins, as the general path decides", HP.of(1), A, HP.of(2));
        Table plain = archetype(PLAIN);
        long p = spawns.spawnAtOnce(new Input[] {PLAIN.of(new Plain(1.5f))}, null, null, null, 1);
        assertEquals(new Plain(1.5f), plain.readValue(plain.position(PLAIN.id()), fixture.index.rowOf(Entity.slot(p))));
        archetype(DOUBLED);
        refused("an accessor of its own is user code", DOUBLED.of(new Doubled(1)));
        dev.jtecs.storage.EntityObserver watcher = new dev.jtecs.storage.EntityObserver() { };
        table.addObserver(watcher);
        refused("an observer of the archetype hears the row arrive", A, HP.of(7));
        table.removeObserver(watcher);
        assertTrue(spawns.spawnAtOnce(new Input[] {A, HP.of(7)}, null, null, null, 2) != 0);

        Table lone = archetype(HP);
        long last = spawns.spawnAtOnce(null, HP.of(1), null, null, 1); // the answer kept is now this archetype
        assertSame(lone, fixture.tableOf(last));
        assertTrue(fixture.drain.despawnAtOnce(last));
        fixture.registry.prune(lone);
        refused("the archetype kept was pruned", HP.of(2));
        long bare = spawns.spawnAtOnce(new Input[0], null, null, null, 0);
        assertSame(fixture.registry.root(), fixture.tableOf(bare), "no input: the root archetype");
    }

    /**
     * Spawns placed at once allocate nothing per entity, also when consecutive calls alternate between shapes (each
     * a miss of the answer kept): the inputs are made once, outside the measured frames, and the world's arrays
     * and columns have grown in the warm frames.
     */
    @Test
    void spawnsAtOnceOfAlternatingShapesAllocateNothingPerEntity() {
        try (dev.jtecs.world.World world = dev.jtecs.world.World.create()) {
            Input hp = HP.of(4);
            Input plain = PLAIN.of(new Plain(2));
            long[] ids = new long[1_000];
            world.spawn(A, hp); // the two archetypes exist: later spawns of them are placed at once
            world.spawn(plain, A);
            Runnable frame = () -> {
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = (i & 1) == 0 ? world.spawn(A, hp) : world.spawn(plain, A);
                }
                world.despawn(ids, 0, ids.length);
            };
            long bytes = dev.jtecs.testing.Allocations.quietestWindow(frame, 100, 10, 20);
            assertTrue(bytes < 10 * 1_000, "10 frames of 1,000 spawns allocated " + bytes + " B: not per entity");
            assertEquals(2, world.entityCount());
        }
    }

    @Test
    void aSpawnWritesRequirementsThenItsValuesAndPublishesItsId() {
        int record = stage(B);
        long id = fixture.tx.id(record);
        spawns.spawn(record);
        assertTrue(fixture.index.isAlive(id));
        Table table = fixture.tableOf(id);
        assertEquals(9, table.readValue(table.position(HP.id()), fixture.index.rowOf(Entity.slot(id))),
                "B's requirement");
        assertEquals(TxState.COMMITTED, fixture.tx.state(record));
    }

    @Test
    void aWriteThatThrowsRemovesTheRowAndPublishesNothing() {
        int record = stage(A, CURSED);
        long id = fixture.tx.id(record);
        Table table = spawns.shapeOf(record).table();
        table.ensureCapacity(1);
        assertThrows(IllegalStateException.class, () -> spawns.spawn(record));
        assertEquals(0, table.count(), "the appended row went again");
        assertTrue(!fixture.index.isAlive(id));
    }

    @Test
    void aBatchPlanRefusesEntityKeyUnlessAskedAndNamesEveryColumnsWrite() {
        assertThrows(IllegalArgumentException.class, () -> spawns.planBatch(new Input[] {EntityKey.COMPONENT}, false));
        BatchOp.SpawnPlan plan = spawns.planBatch(new Input[] {B, HP.of(4), A}, false);
        assertEquals(3, plan.positions().length, "A, B and the required HP");
        int hp = plan.table().position(HP.id());
        assertEquals(BatchOp.VALUE, plan.modes()[hp], "the explicit value wins over the requirement");
    }
}
