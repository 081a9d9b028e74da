package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.Input;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.AllocationFaults;
import dev.jtecs.event.OnSpawn;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.EntityObserver;
import dev.jtecs.testing.WorldState;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Single spawns staged compactly inside a scope (ids and bits, no record): which calls take the path, that a
 * later call on such a spawn, or a batch boundary, turns them into the records they stand for, that a world that
 * stages them ends where one that stages records ends, and that failures change nothing or release what was not
 * placed.
 */
class CompactSpawnsTest {
    record Pos(float x, float y) {}

    record Vel(float x, float y) {}

    record Hue(int rgb, boolean lit) {}

    static final NativeComponent<Pos> POS = Components.registerNative(Pos.class, o -> o.name("test.compact.Pos"));
    static final NativeComponent<Vel> VEL = Components.registerNative(Vel.class, o -> o.name("test.compact.Vel"));
    static final NativeComponent<Hue> HUE = Components.registerNative(Hue.class, o -> o.name("test.compact.Hue"));
    static final TagComponent MARK = Components.tag("test.compact.Mark");
    static final TagComponent GLOW = Components.tag("test.compact.Glow", o -> o.requires(HUE.of(new Hue(7, true))));
    static final ScalarComponent.OfInt HP = Components.scalar("test.compact.Hp", 0);

    /** How many compact spawns the fixture's model holds, staged and not yet placed or made records. */
    private static int compact(ModelFixture rig) {
        return rig.model.compactSpawns().count();
    }

    /** A published entity's value of {@code component}, read from its row. */
    private static Object value(ModelFixture rig, long id, dev.jtecs.component.Component<?> component) {
        var table = rig.tableOf(id);
        return table.readValue(table.position(component.id()), rig.index.rowOf(Entity.slot(id)));
    }

    @Test
    void plainValuesAndTagsInAScopeAreStagedCompactly() {
        try (ModelFixture rig = new ModelFixture()) {
            rig.model.spawn(POS.of(new Pos(0, 0)), VEL.of(new Vel(0, 0)), null); // outside a scope: at once
            rig.model.spawn(POS.of(new Pos(0, 0)), MARK, null);
            rig.model.scopes().defer();
            long a = rig.model.spawn(POS.of(new Pos(1, 2)), VEL.of(new Vel(3, 4)), null);
            long b = rig.model.spawn(new Input[] {POS.of(new Pos(5, 6)), MARK});
            assertEquals(2, compact(rig));
            assertFalse(rig.index.isAlive(a));
            rig.model.scopes().commit();
            assertEquals(0, compact(rig));
            assertEquals(new Pos(1, 2), value(rig, a, POS));
            assertEquals(new Vel(3, 4), value(rig, a, VEL));
            assertEquals(new Pos(5, 6), value(rig, b, POS));
            assertTrue(rig.tableOf(b).position(MARK.id()) >= 0);
        }
    }

    /**
     * A shape's staged rows grow by chunks (StagedRows): a thousand compact spawns span five of them, each record's
     * fields written into its chunk, and the next scope's spawns go into the same chunks from the first again; a
     * call on one of them turns them all into records, reading every chunk back.
     */
    @Test
    void compactSpawnsSpanningChunksKeepTheirValuesScopeAfterScopeAndAsRecords() {
        try (ModelFixture rig = new ModelFixture(3_001)) {
            rig.model.spawn(POS.of(new Pos(0, 0)), VEL.of(new Vel(0, 0)), null); // outside a scope: the table exists
            for (int round = 0; round < 3; round++) {
                rig.model.scopes().defer();
                long[] ids = new long[1_000];
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = rig.model.spawn(POS.of(new Pos(i, round)), VEL.of(new Vel(-i, round)), null);
                }
                assertEquals(ids.length, compact(rig));
                if (round == 2) {
                    rig.model.set(ids[700], HP.of(5)); // all of them become records, in call order
                    assertEquals(0, compact(rig));
                }
                rig.model.scopes().commit();
                for (int i = 0; i < ids.length; i++) {
                    assertEquals(new Pos(i, round), value(rig, ids[i], POS), "round " + round + ", spawn " + i);
                    assertEquals(new Vel(-i, round), value(rig, ids[i], VEL), "round " + round + ", spawn " + i);
                }
                if (round == 2) {
                    assertEquals(5, value(rig, ids[700], HP), "the call's own value too");
                }
            }
        }
    }

    @Test
    void aSpawnTheCompactFormCannotHoldIsARecord() {
        try (ModelFixture rig = new ModelFixture()) {
            rig.model.spawn(POS.of(new Pos(0, 0)), null, null);
            rig.model.spawn(HP.of(1), null, null);
            rig.model.spawn(HUE.of(new Hue(1, false)), GLOW, null);
            rig.model.scopes().defer();
            rig.model.spawn(HP.of(2), null, null); // a scalar value
            assertEquals(0, compact(rig));
            rig.model.scopes().commit();
            rig.model.scopes().defer();
            rig.model.spawn(POS, null, null); // a bare component: its default
            rig.model.spawn(HUE.of(new Hue(2, true)), GLOW, null); // a requirement
            rig.model.spawn(new Input[] {POS.of(new Pos(1, 1)), POS.of(new Pos(2, 2))}); // named twice
            rig.model.spawn(POS.of(new Pos(3, 3)), VEL.of(new Vel(3, 3)), null); // no such archetype yet
            assertEquals(0, compact(rig));
            rig.model.scopes().commit();
        }
    }

    /** A call is matched against the last shape met first: a call like it in components but not in kinds is not it. */
    @Test
    void aCallLikeTheLastShapeButForItsInputsKindsIsARecord() {
        try (ModelFixture rig = new ModelFixture()) {
            rig.model.spawn(POS.of(new Pos(0, 0)), MARK, null);
            rig.model.spawn(POS.of(new Pos(0, 0)), null, null);
            rig.model.scopes().defer();
            long first = rig.model.spawn(POS.of(new Pos(1, 1)), MARK, null); // the shape, now the last one met
            assertEquals(1, compact(rig));
            long bare = rig.model.spawn(POS, MARK, null); // its components, the first one bare (its default)
            assertEquals(1, compact(rig), "a default is the record path's");
            long alone = rig.model.spawn(POS.of(new Pos(2, 2)), null, null); // one input fewer: another shape
            long back = rig.model.spawn(new Input[] {POS.of(new Pos(3, 3)), MARK}); // the first shape again
            assertEquals(3, compact(rig));
            rig.model.scopes().commit();
            assertEquals(new Pos(1, 1), value(rig, first, POS));
            assertEquals(new Pos(0, 0), value(rig, bare, POS));
            assertEquals(new Pos(2, 2), value(rig, alone, POS));
            assertEquals(new Pos(3, 3), value(rig, back, POS));
            int row = rig.index.rowOf(Entity.slot(first)); // call order in the table, the record among them
            assertEquals(row + 1, rig.index.rowOf(Entity.slot(bare)));
            assertEquals(row + 2, rig.index.rowOf(Entity.slot(back)));
            assertTrue(rig.tableOf(first) == rig.tableOf(back) && rig.tableOf(first) == rig.tableOf(bare));
        }
    }

    /** After a record, a compact spawn publishes after it, as its own record would: call order holds per table. */
    @Test
    void aCompactSpawnAfterARecordLandsAfterIt() {
        try (ModelFixture rig = new ModelFixture()) {
            rig.model.spawn(POS.of(new Pos(0, 0)), null, null);
            rig.model.scopes().defer();
            long before = rig.model.spawn(POS.of(new Pos(1, 1)), null, null); // compact
            long record = rig.model.spawn(POS, null, null); // a default: a record
            long after = rig.model.spawn(POS.of(new Pos(2, 2)), null, null); // compact, after the record
            assertEquals(2, compact(rig));
            rig.model.scopes().commit();
            assertEquals(new Pos(0, 0), value(rig, record, POS));
            assertEquals(new Pos(2, 2), value(rig, after, POS));
            int row = rig.index.rowOf(Entity.slot(before));
            assertEquals(row + 1, rig.index.rowOf(Entity.slot(record)));
            assertEquals(row + 2, rig.index.rowOf(Entity.slot(after)));
        }
    }

    @Test
    void aCallOnACompactSpawnTurnsThemAllIntoRecordsInCallOrder() {
        try (ModelFixture rig = new ModelFixture()) {
            rig.model.spawn(POS.of(new Pos(0, 0)), null, null);
            rig.model.scopes().defer();
            long a = rig.model.spawn(POS.of(new Pos(1, 1)), null, null);
            long b = rig.model.spawn(POS.of(new Pos(2, 2)), null, null);
            long c = rig.model.spawn(POS.of(new Pos(3, 3)), null, null);
            assertEquals(3, compact(rig));
            rig.model.set(b, VEL.of(new Vel(9, 9))); // b's spawn record takes the new component
            assertEquals(0, compact(rig));
            rig.model.set(a, POS.of(new Pos(-1, -1))); // merged into a's record: the last value wins
            rig.model.scopes().commit();
            assertEquals(new Pos(-1, -1), value(rig, a, POS));
            assertEquals(new Pos(2, 2), value(rig, b, POS));
            assertEquals(new Vel(9, 9), value(rig, b, VEL));
            assertEquals(new Pos(3, 3), value(rig, c, POS));
            assertEquals(rig.tableOf(a), rig.tableOf(c));
            assertEquals(rig.index.rowOf(Entity.slot(a)) + 1, rig.index.rowOf(Entity.slot(c)), "call order");
        }
    }

    @Test
    void aDespawnOfACompactSpawnCancelsIt() {
        try (ModelFixture rig = new ModelFixture()) {
            rig.model.spawn(POS.of(new Pos(0, 0)), null, null);
            rig.model.scopes().defer();
            long a = rig.model.spawn(POS.of(new Pos(1, 1)), null, null);
            long b = rig.model.spawn(POS.of(new Pos(2, 2)), null, null);
            rig.model.despawn(a);
            rig.model.scopes().commit();
            assertFalse(rig.index.isAlive(a));
            assertEquals(new Pos(2, 2), value(rig, b, POS));
        }
    }

    /**
     * The world that stages compactly ends where the world that stages records ends: twin worlds take the same
     * random scopes (spawns of several shapes, calls on the spawns of the scope and on older entities, despawns,
     * removals, spawn batches, batch despawns, which are batch boundaries, each scope committed), and their whole
     * states stay equal but for two counters of structural changes ({@link #withoutStructureCounts}). The twin has
     * an {@code OnSpawn} observer, which keeps every spawn of it a record. The seed is printed and replayable with
     * {@code -Djtecs.seed}.
     */
    @Test
    void aWorldThatStagesCompactlyEndsWhereOneThatStagesRecordsEnds() {
        long base = Long.getLong("jtecs.seed", new Random().nextLong());
        System.out.println("CompactSpawnsTest twins seed " + base + " (replay: -Djtecs.seed=" + base + ")");
        for (long seed = base; seed < base + 6; seed++) {
            Random random = new Random(seed);
            try (World compact = World.create(); World records = World.create()) {
                records.observe(Entity.WORLD, OnSpawn.class, event -> { });
                var query = compact.newQuery(dev.jtecs.query.QueryDescriptor.builder().include(MARK).build());
                var twinQuery = records.newQuery(dev.jtecs.query.QueryDescriptor.builder().include(MARK).build());
                List<Long> ids = new ArrayList<>();
                for (World world : List.of(compact, records)) { // the archetypes exist: compact spawns need them
                    world.spawn(POS.of(new Pos(0, 0)));
                    world.spawn(POS.of(new Pos(0, 0)), VEL.of(new Vel(0, 0)));
                    world.spawn(VEL.of(new Vel(0, 0)), MARK);
                    world.spawn(POS.of(new Pos(0, 0)), HUE.of(new Hue(0, false)), MARK);
                }
                for (int scope = 0; scope < 40; scope++) {
                    String where = "seed " + seed + " scope " + scope;
                    compact.defer();
                    records.defer();
                    int calls = 1 + random.nextInt(60);
                    for (int call = 0; call < calls; call++) {
                        int op = ids.isEmpty() ? 0 : random.nextInt(20);
                        long state = random.nextLong();
                        if (op < 11) {
                            long id = spawn(compact, new Random(state), call);
                            assertEquals(id, spawn(records, new Random(state), call), where + " call " + call);
                            ids.add(id);
                        } else if (op < 13) {
                            long id = ids.remove(random.nextInt(ids.size()));
                            compact.despawn(id);
                            records.despawn(id);
                        } else if (op == 13 && random.nextInt(4) == 0) {
                            compact.batchDespawn(query);
                            records.batchDespawn(twinQuery);
                        } else if (op == 14 && random.nextInt(3) == 0) { // a spawn batch: no boundary
                            List<Input> inputs = List.of(POS.of(new Pos(call, call)), VEL.of(new Vel(-call, 0)));
                            int n = 1 + random.nextInt(4);
                            assertEquals(compact.batchSpawn(n, inputs).first(), records.batchSpawn(n, inputs).first(),
                                    where);
                        } else {
                            long id = ids.get(random.nextInt(ids.size()));
                            Input change = switch (op % 4) {
                                case 0 -> MARK;
                                case 1 -> VEL.of(new Vel(call, -call));
                                case 2 -> POS.of(new Pos(-call, call));
                                default -> HUE.of(new Hue(call, true));
                            };
                            if (random.nextInt(3) == 0) {
                                compact.remove(id, change.component());
                                records.remove(id, change.component());
                            } else {
                                compact.set(id, change);
                                records.set(id, change);
                            }
                        }
                    }
                    compact.commit();
                    records.commit();
                    ids.removeIf(id -> !compact.isAlive(id));
                    assertSameState(withoutStructureCounts(WorldState.of(records, twinQuery)),
                            withoutStructureCounts(WorldState.of(compact, query)), where);
                }
            }
        }
    }

    /**
     * A state without the structure clock's reading and the tables' structural counts: what counts as one
     * structural change depends on how the commit groups its work, and a compact spawn stands between the calls
     * around it less than a record does. The clock counts a run of changes to one table (or two in turn) once, so
     * rows placed a range per table advance it less than the same rows placed one by one across three tables;
     * and compact moves or quiet despawns staged around compact spawns can form one run where records between them
     * would have made two, each run one structural change of its tables. Both counters keep their contract (they
     * grow whenever something changed); rows, values, ids, the free list and everything else stay compared.
     */
    private static String withoutStructureCounts(String state) {
        return state.replaceFirst(" structure=\\d+ ", " structure=? ").replaceAll(" structural=\\d+ ",
                " structural=? ");
    }

    /** Equal states, or a failure that names the first lines that differ (a whole dump is thousands of lines). */
    private static void assertSameState(String expected, String actual, String where) {
        if (expected.equals(actual)) {
            return;
        }
        String[] e = expected.split("\n");
        String[] a = actual.split("\n");
        StringBuilder differences = new StringBuilder(where);
        int shown = 0;
        for (int i = 0; i < Math.max(e.length, a.length) && shown < 6; i++) {
            String left = i < e.length ? e[i] : "<none>";
            String right = i < a.length ? a[i] : "<none>";
            if (!left.equals(right)) {
                differences.append("\nline ").append(i).append("\n  records: ").append(left.length() > 400
                        ? left.substring(0, 400) : left).append("\n  compact: ").append(right.length() > 400
                        ? right.substring(0, 400) : right);
                shown++;
            }
        }
        throw new AssertionError(differences.toString());
    }

    /** A random spawn for the twins: mostly plain values and a tag in random order, sometimes a record's. */
    private static long spawn(World world, Random random, int i) {
        return switch (random.nextInt(9)) {
            case 0, 1, 2 -> world.spawn(POS.of(new Pos(i, random.nextFloat())));
            case 3, 4 -> world.spawn(POS.of(new Pos(i, i)), VEL.of(new Vel(random.nextFloat(), i)));
            case 5 -> world.spawn(VEL.of(new Vel(i, -i)), POS.of(new Pos(random.nextFloat(), i))); // another order
            case 6 -> world.spawn(MARK, VEL.of(new Vel(i, random.nextFloat())));
            case 7 -> world.spawn(new Input[] {POS.of(new Pos(i, i)), HUE.of(new Hue(i, i % 2 == 0)), MARK});
            default -> world.spawn(HP.of(i), POS.of(new Pos(i, i))); // no such archetype: a record
        };
    }

    /**
     * A failed allocation while a compact spawn is staged (the staged rows, the run and mark arrays, the slot
     * marks, the entity index growing) changes nothing: the world the commit publishes is the one a world that
     * never failed publishes.
     */
    @Test
    void aFailedAllocationWhileStagingChangesNothing() {
        try (World world = World.create(); World reference = World.create()) {
            for (World w : List.of(world, reference)) {
                w.spawn(POS.of(new Pos(0, 0)), VEL.of(new Vel(0, 0)));
                w.spawn(VEL.of(new Vel(0, 0)), MARK);
                w.defer();
            }
            int failures = 0;
            AllocationFaults.Kind[] kinds = AllocationFaults.Kind.values();
            for (int i = 1; i < 400; i++) {
                Input first = i % 3 == 0 ? MARK : POS.of(new Pos(i, -i));
                Input second = VEL.of(new Vel(-i, i));
                failures += failingEachGrowth(kinds[i % kinds.length], () -> world.spawn(first, second));
                reference.spawn(first, second);
            }
            world.commit();
            reference.commit();
            assertEquals(AllocationFaults.ENABLED, failures > 0, "growths were failed");
            assertEquals(WorldState.of(reference), WorldState.of(world));
        }
    }

    /**
     * Runs {@code call} with its first growth of {@code kind} failed, then its second, and so on until it succeeds
     * (a call needs only so many); returns how many failed. Without {@code jtecs.allocationFaults} it runs once.
     */
    private static int failingEachGrowth(AllocationFaults.Kind kind, Runnable call) {
        int failures = 0;
        for (int k = 1; ; k++) {
            if (AllocationFaults.ENABLED) {
                AllocationFaults.failAt(kind, k);
            }
            try {
                call.run();
                return failures;
            } catch (OutOfMemoryError expected) {
                failures++;
            } finally {
                if (AllocationFaults.ENABLED) {
                    AllocationFaults.disarm();
                }
            }
        }
    }

    /**
     * A failed allocation while compact spawns become records (their values rebuilt, the record and entry arrays
     * growing) fails the call that asked for it and changes nothing: the spawns stay compact, and the commit
     * publishes what a world that never failed publishes.
     */
    @Test
    void aFailedAllocationWhileTheyBecomeRecordsChangesNothing() {
        try (World world = World.create(); World reference = World.create()) {
            int failures = 0;
            for (int round = 0; round < 40; round++) {
                for (World w : List.of(world, reference)) {
                    w.spawn(POS.of(new Pos(0, 0)), VEL.of(new Vel(0, 0)));
                    w.defer();
                }
                long first = 0;
                for (int i = 0; i < 20 + round * 10; i++) {
                    long id = world.spawn(POS.of(new Pos(i, round)), VEL.of(new Vel(round, i)));
                    assertEquals(id, reference.spawn(POS.of(new Pos(i, round)), VEL.of(new Vel(round, i))));
                    first = first == 0 ? id : first;
                }
                long target = first;
                AllocationFaults.Kind[] kinds = AllocationFaults.Kind.values();
                failures += failingEachGrowth(kinds[round % kinds.length], () -> world.set(target, MARK));
                reference.set(target, MARK);
                world.commit();
                reference.commit();
            }
            assertEquals(AllocationFaults.ENABLED, failures > 0, "growths were failed");
            assertEquals(WorldState.of(reference), WorldState.of(world));
        }
    }

    /**
     * Once a table of theirs has observers, the compact spawns are placed one row at a time in call order, each
     * reported as it lands, as spawn records are; when a report throws, the rows placed stay and the spawns not
     * placed yet are released: their ids are stale and the world goes on.
     */
    @Test
    void anObservedTableTakesItsRowsOneByOneAndAFailingReportReleasesTheRest() {
        try (World world = World.create()) {
            long first = world.spawn(POS.of(new Pos(0, 0)));
            Archetype archetype = world.archetypeOf(first);
            world.defer();
            long a = world.spawn(POS.of(new Pos(1, 1)));
            long b = world.spawn(POS.of(new Pos(2, 2)));
            long c = world.spawn(POS.of(new Pos(3, 3)));
            List<String> heard = new ArrayList<>();
            archetype.addEntityObserver(new EntityObserver() {
                @Override
                public void onEntitiesAdded(Archetype in, int from, int to, Archetype other) {
                    heard.add(from + ".." + to);
                    if (heard.size() == 2) {
                        throw new IllegalStateException("second report");
                    }
                }
            });
            assertThrows(IllegalStateException.class, world::commit);
            assertEquals(List.of("1..2", "2..3"), heard);
            assertEquals(new Pos(1, 1), world.get(a, POS));
            assertEquals(new Pos(2, 2), world.get(b, POS)); // placed before its report threw
            assertFalse(world.isAlive(c));
            long d = world.spawn(POS.of(new Pos(4, 4)));
            assertEquals(new Pos(4, 4), world.get(d, POS));
            assertEquals(4, world.entityCount());
        }
    }
}
