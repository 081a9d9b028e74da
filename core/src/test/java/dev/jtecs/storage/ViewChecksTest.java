package dev.jtecs.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.world.CompactResult;
import dev.jtecs.world.World;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ViewChecksTest {
    record Pos(float x, float y) {}

    record Label(String text) {}

    static final NativeComponent<Pos> POS = Components.register(Pos.class);
    static final FloatField X = POS.floatField("x");
    static final FloatField Y = POS.floatField("y");
    static final TagComponent MARKED = Components.tag("test.viewChecks.Marked");
    static final ManagedComponent<Label> LABEL = Components.registerManaged(Label.class,
            o -> o.defaults(() -> new Label("")));

    private final World world = World.create();

    @AfterEach
    void tearDown() {
        world.close();
    }

    private Archetype archetypeWithRows(int rows) {
        long first = world.spawn(POS.of(new Pos(1, 2)), LABEL.of(new Label("a")));
        for (int i = 1; i < rows; i++) {
            world.spawn(POS.of(new Pos(i, 0)), LABEL.of(new Label("b")));
        }
        return world.archetypeOf(first);
    }

    @Test
    void theTestSuitesRunChecked() {
        assertTrue(ViewChecks.ENABLED, "surefire's argLine sets -Djtecs.checkViews=true for every module");
    }

    @Test
    void aViewKeptAcrossGrowthThrowsNamingTheViewItsArchetypeAndBothVersions() {
        Archetype archetype = archetypeWithRows(1);
        FloatColumn stale = archetype.get(X);
        long takenAt = archetype.storageVersion();
        world.defer();
        for (int i = 0; i < 64; i++) {
            world.spawn(POS, LABEL);
        }
        world.commit(); // 65 rows: every column grows
        IllegalStateException read = assertThrows(IllegalStateException.class, () -> stale.get(0));
        assertTrue(read.getMessage().contains("stale FloatColumn view of " + POS.name() + ".x in " + archetype),
                read.getMessage());
        assertTrue(read.getMessage().contains("version " + takenAt), read.getMessage());
        assertTrue(read.getMessage().contains("at version " + archetype.storageVersion()), read.getMessage());
        assertThrows(IllegalStateException.class, () -> stale.set(0, 5f), "writes too");
        assertThrows(IllegalStateException.class, stale::segment, "and the segment a kernel would take");
        assertEquals(1f, archetype.get(X).get(0), "a fresh view works, and nothing was written");
    }

    @Test
    void twoStaleColumnsOfOneTypeAreToldApartByComponentAndField() {
        Archetype archetype = archetypeWithRows(1);
        FloatColumn x = archetype.get(X);
        FloatColumn y = archetype.get(Y);
        ObjectColumn<Label> label = archetype.get(LABEL);
        growPast64Rows();
        String xMessage = assertThrows(IllegalStateException.class, () -> x.get(0)).getMessage();
        String yMessage = assertThrows(IllegalStateException.class, () -> y.set(0, 1f)).getMessage();
        String labelMessage = assertThrows(IllegalStateException.class, () -> label.get(0)).getMessage();
        assertTrue(xMessage.contains("FloatColumn view of " + POS.name() + ".x in "), xMessage);
        assertTrue(yMessage.contains("FloatColumn view of " + POS.name() + ".y in "), yMessage);
        assertTrue(labelMessage.contains("ObjectColumn view of " + LABEL.name() + " in "), labelMessage);
    }

    @Test
    void anOutOfRangeRowNamesTheColumnToo() {
        Archetype archetype = archetypeWithRows(2);
        String y = assertThrows(IndexOutOfBoundsException.class, () -> archetype.get(Y).get(2)).getMessage();
        assertTrue(y.contains("row=2 outside [0, count=2) of FloatColumn view of " + POS.name() + ".y in "), y);
        String ids = assertThrows(IndexOutOfBoundsException.class, () -> archetype.entities().get(2)).getMessage();
        assertTrue(ids.contains("LongColumn view of entity ids in "), ids);
    }

    @Test
    void aViewKeptAcrossAWholeArchetypeExchangeThrows() {
        long id = world.spawn(POS.of(new Pos(7, 8)), LABEL.of(new Label("a")), MARKED);
        Archetype marked = world.archetypeOf(id);
        FloatColumn stale = marked.get(X);
        assertEquals(7f, stale.get(0), "fresh before the exchange");
        // every row leaves for the empty [Pos, Label] archetype, which takes the buffers themselves
        world.batchRemove(world.newQuery(QueryDescriptor.builder().include(MARKED).build()), MARKED);
        Archetype unmarked = world.archetypeOf(id);
        IllegalStateException read = assertThrows(IllegalStateException.class, () -> stale.get(0));
        assertTrue(read.getMessage().contains("stale FloatColumn view of " + POS.name() + ".x in " + marked),
                read.getMessage());
        assertThrows(IllegalStateException.class, () -> stale.set(0, -1f), "no write into the buffer it lost");
        assertEquals(7f, unmarked.get(X).get(world.rowOf(id)), "the buffer's new owner keeps its value");
    }

    @Test
    void aViewKeptAcrossCompactionThrows() {
        Archetype archetype = archetypeWithRows(256);
        long kept = archetype.entities().get(0);
        long[] others = new long[255];
        for (int i = 0; i < others.length; i++) {
            others[i] = archetype.entities().get(i + 1);
        }
        world.despawn(others, 0, others.length); // rows leave, the buffers stay: views taken now are fresh
        FloatColumn stale = archetype.get(X);
        assertEquals(1f, stale.get(0));
        assertEquals(new CompactResult(0, 1), world.compact()); // 1 row of a 256-row high water: reallocated
        IllegalStateException read = assertThrows(IllegalStateException.class, () -> stale.get(0));
        assertTrue(read.getMessage().contains("stale FloatColumn view of " + POS.name() + ".x in " + archetype),
                read.getMessage());
        assertEquals(1f, archetype.get(X).get(world.rowOf(kept)), "a fresh view reads the rebuilt column");
    }

    /** Spawns 64 more rows into the {@code [Pos, Label]} archetype in one commit: its columns grow. */
    private void growPast64Rows() {
        world.defer();
        for (int i = 0; i < 64; i++) {
            world.spawn(POS, LABEL);
        }
        world.commit();
    }

    @Test
    void aStaleObjectColumnThrowsToo() {
        Archetype archetype = archetypeWithRows(1);
        ObjectColumn<Label> stale = archetype.get(LABEL);
        assertSame(archetype, stale.owner());
        world.defer();
        for (int i = 0; i < 64; i++) {
            world.spawn(POS, LABEL);
        }
        world.commit();
        assertThrows(IllegalStateException.class, () -> stale.get(0));
        assertThrows(IllegalStateException.class, () -> stale.set(0, new Label("x")));
    }

    @Test
    void rowsOutsideTheCountAreRefusedThroughViews() {
        Archetype archetype = archetypeWithRows(3);
        FloatColumn x = archetype.getMut(X);
        IndexOutOfBoundsException past = assertThrows(IndexOutOfBoundsException.class, () -> x.set(3, 9f));
        assertTrue(past.getMessage().contains("row=3 outside [0, count=3)"), past.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> x.get(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> archetype.get(LABEL).get(3));
        assertEquals(64, x.capacityRows(), "the padding is still there for kernels, through the segment");
        x.segment().setAtIndex(ValueLayout.JAVA_FLOAT, 63, 1f);
    }

    @Test
    void theEntityColumnIsReadOnly() {
        Archetype archetype = archetypeWithRows(2);
        LongColumn entities = archetype.entities();
        assertTrue(entities.isReadOnly());
        UnsupportedOperationException refused = assertThrows(UnsupportedOperationException.class,
                () -> entities.set(0, 99));
        assertTrue(refused.getMessage().contains("read-only"), refused.getMessage());
        assertTrue(entities.segment().isReadOnly(), "kernels read ids through a read-only segment");
        assertThrows(RuntimeException.class, () -> entities.segment().setAtIndex(ValueLayout.JAVA_LONG, 0, 99L));
        assertEquals(2, world.entityCount());
        assertEquals(archetype, world.archetypeOf(entities.get(0)), "nothing changed");
    }

    record Kinds(byte b, boolean z, short s, char c, int i, long l, float f, double d) {}

    static final NativeComponent<Kinds> KINDS = Components.register(Kinds.class);

    /** One view of each primitive kind, with a read and a write of a row. */
    private record Probe(String type, Column view, java.util.function.IntConsumer read,
            java.util.function.IntConsumer write) {}

    private static List<Probe> probes(Archetype archetype, boolean mut) {
        ByteColumn b = mut ? archetype.getMut(KINDS.byteField("b")) : archetype.get(KINDS.byteField("b"));
        BooleanColumn z = mut ? archetype.getMut(KINDS.booleanField("z")) : archetype.get(KINDS.booleanField("z"));
        ShortColumn s = mut ? archetype.getMut(KINDS.shortField("s")) : archetype.get(KINDS.shortField("s"));
        CharColumn c = mut ? archetype.getMut(KINDS.charField("c")) : archetype.get(KINDS.charField("c"));
        IntColumn i = mut ? archetype.getMut(KINDS.intField("i")) : archetype.get(KINDS.intField("i"));
        LongColumn l = mut ? archetype.getMut(KINDS.longField("l")) : archetype.get(KINDS.longField("l"));
        FloatColumn f = mut ? archetype.getMut(KINDS.floatField("f")) : archetype.get(KINDS.floatField("f"));
        DoubleColumn d = mut ? archetype.getMut(KINDS.doubleField("d")) : archetype.get(KINDS.doubleField("d"));
        assertFalse(l.isReadOnly(), "a component's long column is written through its view");
        return List.of(new Probe("ByteColumn", b, b::get, row -> b.set(row, (byte) 1)),
                new Probe("BooleanColumn", z, z::get, row -> z.set(row, true)),
                new Probe("ShortColumn", s, s::get, row -> s.set(row, (short) 1)),
                new Probe("CharColumn", c, c::get, row -> c.set(row, 'x')),
                new Probe("IntColumn", i, i::get, row -> i.set(row, 1)),
                new Probe("LongColumn", l, l::get, row -> l.set(row, 1L)),
                new Probe("FloatColumn", f, f::get, row -> f.set(row, 1f)),
                new Probe("DoubleColumn", d, d::get, row -> d.set(row, 1.0)));
    }

    /**
     * Every kind of view, read and write, checks its row against the archetype's count and its buffer against the
     * archetype's, and knows its archetype and the version it was taken at.
     */
    @Test
    void everyKindOfViewChecksItsRowsAndItsBuffer() {
        Kinds first = new Kinds((byte) 2, false, (short) 3, 'a', 4, 5L, 6f, 7.0);
        long id = world.spawn(KINDS.of(first));
        Archetype archetype = world.archetypeOf(id);
        for (boolean mut : new boolean[] {false, true}) {
            List<Probe> probes = probes(archetype, mut);
            for (Probe probe : probes) {
                String type = probe.type() + (mut ? " (getMut)" : " (get)");
                assertSame(archetype, probe.view().owner(), type);
                assertEquals(archetype.storageVersion(), probe.view().storageVersion(), type);
                probe.read().accept(0);
                for (int row : new int[] {-1, archetype.count()}) { // past the count: padding, or nothing
                    String message = assertThrows(IndexOutOfBoundsException.class, () -> probe.read().accept(row),
                            type).getMessage();
                    assertTrue(message.contains(probe.type() + " view of " + KINDS.name() + "."), message);
                    assertThrows(IndexOutOfBoundsException.class, () -> probe.write().accept(row), type);
                }
            }
            world.defer();
            for (int i = archetype.count(); i <= archetype.capacityRows(); i++) {
                world.spawn(KINDS);
            }
            world.commit(); // one row more than the columns hold: every column grows
            for (Probe probe : probes) {
                String type = probe.type() + (mut ? " (getMut)" : " (get)");
                String message = assertThrows(IllegalStateException.class, () -> probe.read().accept(0), type)
                        .getMessage();
                assertTrue(message.contains("stale " + probe.type() + " view of " + KINDS.name() + "."), message);
                assertThrows(IllegalStateException.class, () -> probe.write().accept(0), type);
                assertThrows(IllegalStateException.class, () -> probe.view().segment(), type);
            }
        }
        assertEquals(first, world.get(id, KINDS), "nothing was written through a refused view");
    }

    /** A view kept past its world's close says the world closed, not only that the view is stale. */
    @Test
    void aViewOfAClosedWorldSaysTheWorldIsClosed() {
        Archetype archetype = archetypeWithRows(2);
        FloatColumn x = archetype.get(X);
        world.close();
        for (org.junit.jupiter.api.function.Executable access : List.<org.junit.jupiter.api.function.Executable>of(
                () -> x.get(0), () -> x.set(5, 1f), x::segment)) {
            String message = assertThrows(IllegalStateException.class, access).getMessage();
            assertTrue(message.endsWith("belongs to a closed world; its storage is gone"), message);
        }
    }

    @Test
    void detachedViewsAreNeverChecked() {
        try (Arena arena = Arena.ofConfined()) {
            FloatColumn detached = new FloatColumn(arena.allocate(64 * Float.BYTES, 64));
            detached.set(63, 2f); // no archetype, no count: the caller owns the bounds
            assertEquals(2f, detached.get(63));
            assertEquals(null, detached.owner());
            assertEquals(0, detached.storageVersion());
        }
    }
}
