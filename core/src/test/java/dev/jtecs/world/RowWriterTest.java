package dev.jtecs.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.IntField;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.RelationshipDefinition;
import dev.jtecs.component.Relationships;
import dev.jtecs.component.TagComponent;
import dev.jtecs.builtin.ChildOf;
import dev.jtecs.entity.Entity;
import dev.jtecs.storage.Archetype;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RowWriterTest {
    record Pos(float x, float y) {}

    record Vel(float dx, float dy) {}

    record Every(byte b, boolean flag, short s, char c, int i, float f, long l, double d) {}

    record Link(long target, float weight) {}

    record Note(String text) {}

    static final NativeComponent<Pos> POS = Components.registerNative(Pos.class);
    static final NativeComponent<Vel> VEL = Components.registerNative(Vel.class);
    static final NativeComponent<Every> EVERY = Components.registerNative(Every.class);
    static final ManagedComponent<Note> NOTE = Components.registerManaged(Note.class);
    static final TagComponent MARK = Components.tag("test.rowWriter.Mark");
    static final TagComponent OTHER = Components.tag("test.rowWriter.Other");
    static final RelationshipDefinition<Link> LINK =
            Relationships.register(Link.class, o -> o.name("test.rowWriter.Link"));
    static final FloatField X = POS.floatField("x");
    static final FloatField Y = POS.floatField("y");

    private final World world = World.create(WorldConfig.defaults().maxEntities(1 << 16));

    @AfterEach
    void close() {
        world.close();
    }

    private long committed(dev.jtecs.component.Input... inputs) {
        long id = world.spawn(inputs);
        world.commit();
        return id;
    }

    @Test
    void writesAndReadsTheFieldsOfTheRowItFound() {
        long a = committed(POS.of(new Pos(1, 2)));
        long b = committed(POS.of(new Pos(3, 4)), MARK);
        RowWriter positions = world.rowWriter(POS);
        assertSame(POS, positions.component());
        assertEquals(0, positions.entity(), "no row before at");
        assertSame(positions, positions.at(a).set(X, 10f).set(Y, 20f));
        assertEquals(a, positions.entity());
        assertEquals(10f, positions.get(X));
        positions.at(b).set(Y, positions.get(Y) + 1f); // another archetype: the writer follows it
        assertEquals(new Pos(10, 20), world.get(a, POS));
        assertEquals(new Pos(3, 5), world.get(b, POS));
        assertEquals(20f, positions.at(a).get(Y), "and back");
    }

    @Test
    void reachesEveryKindOfField() {
        long id = committed(EVERY.of(new Every((byte) 1, false, (short) 2, 'a', 3, 4f, 5L, 6.0)));
        long other = committed(EVERY.of(new Every((byte) 9, true, (short) 9, 'z', 9, 9f, 9L, 9.0)));
        RowWriter every = world.rowWriter(EVERY);
        assertFalse(every.at(id).get(EVERY.booleanField("flag")), "a false flag reads false");
        assertSame(every, every.set(EVERY.doubleField("d"), 6.0), "every set returns the writer, the last one too");
        every.at(id).set(EVERY.byteField("b"), (byte) -7).set(EVERY.booleanField("flag"), true)
                .set(EVERY.shortField("s"), (short) 300).set(EVERY.charField("c"), 'q')
                .set(EVERY.intField("i"), -40).set(EVERY.floatField("f"), 0.5f)
                .set(EVERY.longField("l"), Long.MIN_VALUE).set(EVERY.doubleField("d"), -2.25);
        Every written = new Every((byte) -7, true, (short) 300, 'q', -40, 0.5f, Long.MIN_VALUE, -2.25);
        assertEquals(written, world.get(id, EVERY));
        assertEquals(new Every((byte) 9, true, (short) 9, 'z', 9, 9f, 9L, 9.0), world.get(other, EVERY), "one row");
        assertEquals(written, new Every(every.get(EVERY.byteField("b")), every.get(EVERY.booleanField("flag")),
                every.get(EVERY.shortField("s")), every.get(EVERY.charField("c")), every.get(EVERY.intField("i")),
                every.get(EVERY.floatField("f")), every.get(EVERY.longField("l")),
                every.get(EVERY.doubleField("d"))));
    }

    @Test
    void atMarksTheColumnDirtyAndCountsOneWriteAsGetMutDoes() {
        long id = committed(POS.of(new Pos(1, 2)), VEL.of(new Vel(0, 0)));
        Archetype archetype = world.archetypeOf(id);
        archetype.clearDirtyComponents();
        long writes = archetype.writeCount(POS);
        RowWriter positions = world.rowWriter(POS);
        positions.at(id).set(X, 5f).set(Y, 6f);
        assertTrue(archetype.isComponentDirty(POS));
        assertFalse(archetype.isComponentDirty(VEL), "only its own column");
        assertEquals(writes + 1, archetype.writeCount(POS), "one write per at, whatever it sets");
        archetype.clearDirtyComponents();
        positions.at(id); // the same archetype, nothing relocated: marked again after the clear
        assertTrue(archetype.isComponentDirty(POS));
        assertEquals(writes + 2, archetype.writeCount(POS));
    }

    @Test
    void aWriteAfterTheMarksWereClearedMarksTheColumnAgain() {
        long id = committed(POS.of(new Pos(1, 2)));
        Archetype archetype = world.archetypeOf(id);
        RowWriter positions = world.rowWriter(POS);
        positions.at(id);
        long writes = archetype.writeCount(POS);
        world.clearDirty(); // a frame's end: the row stays current, its mark is gone
        assertEquals(1f, positions.get(X));
        assertFalse(archetype.isComponentDirty(POS), "a read marks nothing");
        positions.set(X, 3f);
        assertTrue(archetype.isComponentDirty(POS), "the write is reported");
        assertTrue(world.dirtyArchetypes().contains(archetype), "and its archetype queued");
        positions.set(Y, 4f);
        assertEquals(writes + 1, archetype.writeCount(POS), "marked once again, not per field");
        assertEquals(new Pos(3, 4), world.get(id, POS));
    }

    @Test
    void aSelectorWritesItsEdgesPayloadAndMarksTheWildcardColumn() {
        long a = committed();
        long b = committed();
        long id = committed(LINK.of(new Link(a, 1f)), LINK.of(new Link(b, 2f)));
        Archetype archetype = world.archetypeOf(id);
        archetype.clearDirtyComponents();
        var toB = LINK.targeting(b);
        RowWriter links = world.rowWriter(toB);
        links.at(id).set(toB.floatField("weight"), 8f);
        assertEquals(new Link(b, 8f), world.get(id, toB));
        assertEquals(new Link(a, 1f), world.get(id, LINK), "the other edge is untouched");
        assertTrue(archetype.isComponentDirty(LINK), "the wildcard column is marked too");
        world.clearDirty();
        links.set(toB.floatField("weight"), 9f);
        assertTrue(archetype.isComponentDirty(LINK), "marked again");
        world.clearDirty();
        var pairToB = archetype.components().stream()
                .filter(c -> c instanceof dev.jtecs.component.PairComponent pair && pair.target() == b)
                .findFirst().orElseThrow();
        world.markComponentDirty(id, pairToB); // the edge's own column only: the wildcard column stays clean
        assertFalse(archetype.isComponentDirty(LINK));
        links.set(toB.floatField("weight"), 9f);
        assertTrue(archetype.isComponentDirty(LINK), "a write marks the wildcard column even when its own is marked");
        assertEquals(9f, links.get(LINK.targeting(b).floatField("weight")), "an equal selector's field is its own");
        var wrongEdge = assertThrows(IllegalArgumentException.class,
                () -> links.get(LINK.targeting(a).floatField("weight")));
        assertTrue(wrongEdge.getMessage().contains("given to a row writer of"), wrongEdge.getMessage());
        long stranger = committed(LINK.of(new Link(a, 3f))); // a row placed in an archetype holding LINK
        assertThrows(IllegalStateException.class, () -> links.get(toB.floatField("weight")), "the row expired");
        var missing = assertThrows(IllegalArgumentException.class, () -> links.at(stranger));
        assertTrue(missing.getMessage().contains("has no component"), missing.getMessage());
    }

    @Test
    void refusesWhatHasNoNativeFields() {
        for (var component : List.of(NOTE, MARK, LINK, ChildOf.COMPONENT)) {
            var refused = assertThrows(IllegalArgumentException.class, () -> world.rowWriter(component));
            assertTrue(refused.getMessage().contains("rowWriter(" + component.name() + ")"), refused.getMessage());
        }
        long parent = committed();
        assertThrows(IllegalArgumentException.class, () -> world.rowWriter(ChildOf.COMPONENT.targeting(parent)));
        assertThrows(NullPointerException.class, () -> world.rowWriter(null));
    }

    @Test
    void badIdsAreRefusedAndLeaveTheWriterWithoutARow() {
        long id = committed(POS.of(new Pos(1, 2)));
        long bare = committed(MARK);
        long dead = committed(POS.of(new Pos(0, 0)));
        world.despawn(dead);
        RowWriter positions = world.rowWriter(POS);
        var before = assertThrows(IllegalStateException.class, () -> positions.set(X, 1f));
        assertTrue(before.getMessage().contains("call at(id) first"), before.getMessage());
        positions.at(id);
        for (long bad : new long[] {dead, 0L, -3L, Entity.pack(60_000, 0)}) {
            assertThrows(IllegalArgumentException.class, () -> positions.at(bad), Entity.toString(bad));
            assertThrows(IllegalStateException.class, () -> positions.get(X), "no row after a failed at");
            assertEquals(0, positions.entity());
        }
        var lacks = assertThrows(IllegalArgumentException.class, () -> positions.at(bare));
        assertTrue(lacks.getMessage().contains("has no component"), lacks.getMessage());
        long empty = committed(); // the archetype of no component, the registry's first
        var none = assertThrows(IllegalArgumentException.class, () -> positions.at(empty));
        assertTrue(none.getMessage().contains("has no component"), none.getMessage());
        world.defer();
        long staged = world.spawn(POS.of(new Pos(7, 7)));
        var unplaced = assertThrows(IllegalStateException.class, () -> positions.at(staged));
        assertTrue(unplaced.getMessage().contains("staged for spawn"), unplaced.getMessage());
        world.commit();
        positions.at(staged).set(X, 8f);
        assertEquals(new Pos(8, 7), world.get(staged, POS));
        assertEquals(new Pos(1, 2), world.get(id, POS), "nothing else changed");
        var foreign = assertThrows(IllegalArgumentException.class, () -> positions.set(VEL.floatField("dx"), 1f));
        assertTrue(foreign.getMessage().contains("given to a row writer of"), foreign.getMessage());
    }

    @Test
    void aRowExpiresAtTheNextStructuralChangeToAnArchetypeWithTheComponent() {
        long a = committed(POS.of(new Pos(1, 1)));
        long b = committed(POS.of(new Pos(2, 2)));
        long elsewhere = committed(NOTE.of(new Note("x")));
        RowWriter positions = world.rowWriter(POS);
        positions.at(a);
        world.set(elsewhere, MARK); // an archetype without Pos: the row stays the writer's
        world.despawn(elsewhere);
        positions.set(X, 5f);
        world.despawn(b); // b's row is taken by whichever row was last: a's row may now be someone else's
        var expired = assertThrows(IllegalStateException.class, () -> positions.set(X, 6f));
        assertTrue(expired.getMessage().contains("expired"), expired.getMessage());
        assertThrows(IllegalStateException.class, () -> positions.get(Y));
        assertEquals(new Pos(5, 1), world.get(a, POS), "the refused write changed nothing");
        positions.at(a).set(X, 7f);
        for (int i = 0; i < 200; i++) { // growth replaces the buffers under the row
            world.spawn(POS.of(new Pos(i, i)));
        }
        world.commit();
        assertThrows(IllegalStateException.class, () -> positions.set(X, 8f));
        assertEquals(new Pos(7, 1), world.get(a, POS));
        positions.at(a);
        world.set(a, MARK); // a moves
        assertThrows(IllegalStateException.class, () -> positions.get(X));
        assertEquals(7f, positions.at(a).get(X), "found again in its new archetype");
        var saved = world.saveSnapshot();
        positions.at(a).set(X, 1f);
        world.loadSnapshot(saved); // every row placed again
        assertThrows(IllegalStateException.class, () -> positions.set(X, 2f));
        assertEquals(7f, positions.at(a).get(X), "the loaded value");
    }

    @Test
    void inAScopeTheValueLandsAtOnceAndAStagedMoveCarriesIt() {
        long id = committed(POS.of(new Pos(1, 1)));
        RowWriter positions = world.rowWriter(POS);
        world.defer();
        world.set(id, VEL.of(new Vel(1, 1))); // staged: id keeps its row until the commit
        positions.at(id).set(X, 9f);
        assertEquals(new Pos(9, 1), world.get(id, POS), "the published row holds it now");
        world.commit();
        assertEquals(new Pos(9, 1), world.get(id, POS), "the move carried it");
        assertTrue(world.archetypeOf(id).has(VEL));
        assertThrows(IllegalStateException.class, () -> positions.get(X), "the move expired the row");
    }

    @Test
    void aClosedWorldOrAnotherThreadIsRefused() throws InterruptedException {
        long id = committed(POS.of(new Pos(1, 2)));
        RowWriter positions = world.rowWriter(POS);
        positions.at(id);
        Throwable[] thrown = new Throwable[2];
        Thread other = new Thread(() -> {
            try {
                positions.set(X, 3f);
            } catch (Throwable t) {
                thrown[0] = t;
            }
            try {
                positions.at(id);
            } catch (Throwable t) {
                thrown[1] = t;
            }
        });
        other.start();
        other.join();
        assertTrue(thrown[0] instanceof WrongThreadException, String.valueOf(thrown[0]));
        assertTrue(thrown[1] instanceof WrongThreadException, String.valueOf(thrown[1]));
        assertEquals(new Pos(1, 2), world.get(id, POS));
        world.close();
        assertThrows(IllegalStateException.class, () -> positions.set(X, 3f));
        assertThrows(IllegalStateException.class, () -> positions.at(id));
        assertThrows(IllegalStateException.class, () -> world.rowWriter(POS));
    }

    @Test
    void writingThroughAWriterAllocatesNothing() {
        int n = 4096;
        long[] ids = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = world.spawn(POS.of(new Pos(i, -i)), i % 2 == 0 ? MARK : OTHER);
        }
        world.commit();
        RowWriter positions = world.rowWriter(POS);
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 20; round++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < n; i++) { // two archetypes in turn: the writer relocates at every call
                positions.at(ids[i]).set(X, positions.get(X) + 1f).set(Y, round);
            }
            best = Math.min(best, threads.getCurrentThreadAllocatedBytes() - before);
        }
        assertEquals(0, best, "bytes allocated by " + n + " writes");
        assertEquals(new Pos(n - 1 + 20, 19), world.get(ids[n - 1], POS));
    }

    /**
     * A random run of instant structural calls (spawns, despawns, adds and removes that move entities in and out
     * of the archetypes holding Pos, growth) interleaved with writes through one writer, checked against a map of
     * what each entity holds: a write through a row that a structural change expired must throw and change
     * nothing, any other must land on its own entity. Replay with {@code -Djtecs.seed=N}.
     */
    @Test
    void aRandomRunOfWritesAndMovesMatchesTheModel() {
        long seed = Long.getLong("jtecs.seed", new SplittableRandom().nextLong());
        System.out.println("RowWriterTest seed " + seed + " (replay: -Djtecs.seed=" + seed + ")");
        SplittableRandom random = new SplittableRandom(seed);
        Map<Long, Pos> model = new HashMap<>();
        List<Long> live = new ArrayList<>();
        RowWriter positions = world.rowWriter(POS);
        boolean holdsRow = false;
        long rowOf = 0;
        long structure = -1;
        for (int step = 0; step < 4000; step++) {
            String where = "seed " + seed + " step " + step;
            int op = random.nextInt(10);
            if (op == 0 || live.isEmpty()) {
                long id = world.spawn(POS.of(new Pos(step, -step)), random.nextBoolean() ? MARK : OTHER);
                live.add(id);
                model.put(id, new Pos(step, -step));
            } else if (op == 1) {
                long id = live.remove(random.nextInt(live.size()));
                world.despawn(id);
                model.remove(id);
            } else if (op == 2) {
                long id = live.get(random.nextInt(live.size()));
                world.set(id, random.nextBoolean() ? MARK : OTHER);
            } else if (op == 3) {
                long id = live.get(random.nextInt(live.size()));
                world.remove(id, random.nextBoolean() ? MARK : OTHER);
            } else if (op < 6) {
                long id = live.get(random.nextInt(live.size()));
                positions.at(id);
                holdsRow = true;
                rowOf = id;
                structure = world.structureVersion(POS);
            } else {
                float value = random.nextInt(1000);
                boolean x = random.nextBoolean();
                boolean current = holdsRow && model.containsKey(rowOf) && world.structureVersion(POS) == structure;
                if (!current) {
                    assertThrows(IllegalStateException.class, () -> positions.set(x ? X : Y, value), where);
                } else {
                    positions.set(x ? X : Y, value);
                    Pos old = model.get(rowOf);
                    model.put(rowOf, x ? new Pos(value, old.y()) : new Pos(old.x(), value));
                    assertEquals(value, positions.get(x ? X : Y), where);
                }
            }
            if (step % 97 == 0) {
                for (long id : live) {
                    assertEquals(model.get(id), world.get(id, POS), where + " entity " + Entity.toString(id));
                }
            }
        }
        for (long id : live) {
            assertEquals(model.get(id), world.get(id, POS), "seed " + seed + " end, " + Entity.toString(id));
        }
    }

    @Test
    void aFieldOfTheWritersComponentFromAnotherHandleIsAccepted() {
        long id = committed(POS.of(new Pos(1, 2)));
        RowWriter positions = world.rowWriter(POS);
        IntField notOurs = EVERY.intField("i");
        positions.at(id).set(POS.floatField("y"), 4f); // a handle made apart from X and Y: equal, not the same
        assertEquals(new Pos(1, 4), world.get(id, POS));
        assertThrows(IllegalArgumentException.class, () -> positions.set(notOurs, 1));
    }
}
