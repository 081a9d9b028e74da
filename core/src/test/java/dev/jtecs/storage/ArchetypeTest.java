package dev.jtecs.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.world.World;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ArchetypeTest {
    record Pos(float x, float y) {}

    record Note(String text) {}

    static final NativeComponent<Pos> POS = Components.registerNative(Pos.class);
    static final FloatField X = POS.floatField("x");
    static final FloatField Y = POS.floatField("y");
    static final ManagedComponent<Note> NOTE = Components.registerManaged(Note.class);
    static final ScalarComponent.OfDouble HP = Components.scalar("test.archetype.Hp", 10.0);
    static final ScalarComponent.OfLong SCORE = Components.scalar("test.archetype.Score", 0L);
    static final ScalarComponent.OfInt LEVEL = Components.scalar("test.archetype.Level", 1);
    static final ScalarComponent.OfBoolean ON = Components.scalar("test.archetype.On", false);
    static final ScalarComponent.OfString NAME = Components.scalar("test.archetype.Name", "n");
    static final TagComponent TAG = Components.tag("test.archetype.Tag");
    static final dev.jtecs.component.Relationship FOLLOWS =
            dev.jtecs.component.Relationships.register("test.archetype.Follows");

    private World world;
    private Archetype archetype;
    private long a;
    private long b;

    @BeforeEach
    void setUp() {
        world = World.create();
        a = world.spawn(POS.of(new Pos(1, 2)), NOTE.of(new Note("a")), HP.of(5.0), TAG);
        b = world.spawn(POS.of(new Pos(3, 4)), NOTE.of(new Note("b")), HP, TAG);
        world.commit();
        archetype = world.archetypeOf(a);
    }

    @AfterEach
    void tearDown() {
        world.close();
    }

    @Test
    void touchedRowsGoIntoTheCallersArrayAscending() {
        long[] more = new long[8];
        for (int i = 0; i < more.length; i++) {
            more[i] = world.spawn(POS.of(new Pos(i, i)), NOTE.of(new Note("m")), HP, TAG);
        }
        archetype.clearDirtyComponents();
        world.despawn(more[5]); // rows 7 and 3 get the last rows
        world.despawn(more[1]);
        int[] rows = new int[Archetype.STRUCTURAL_TOUCHED_LIMIT];
        java.util.Arrays.fill(rows, -9);
        int n = archetype.structuralTouched(rows);
        assertArrayEquals(archetype.structuralTouched(), java.util.Arrays.copyOf(rows, n));
        assertEquals(2, n);
        assertTrue(rows[0] < rows[1]);
        assertEquals(-9, rows[2], "nothing past the rows listed is written");
        IllegalArgumentException small = assertThrows(IllegalArgumentException.class,
                () -> archetype.structuralTouched(new int[1]));
        assertEquals("rows.length=1 size=2 (an array of 64 always fits)", small.getMessage());
        assertThrows(NullPointerException.class, () -> archetype.structuralTouched(null));
    }

    @Test
    void describesItsSignatureAndRows() {
        assertEquals(archetype, world.archetypeOf(b));
        assertEquals(2, archetype.count());
        assertEquals(List.of(POS, NOTE, HP, TAG).stream().sorted((p, q) -> p.id() - q.id()).toList(),
                archetype.components());
        int[] signature = archetype.signature();
        for (int i = 1; i < signature.length; i++) {
            assertTrue(signature[i - 1] < signature[i]);
        }
        assertEquals(a, archetype.entity(0));
        assertEquals(b, archetype.entities().get(1));
        assertEquals(0, archetype.capacityRows() % 64);
        assertTrue(archetype.has(TAG));
        assertFalse(archetype.has(SCORE));
    }

    @Test
    void columnsExposeRowsAndAlignedSegments() {
        FloatColumn x = archetype.get(X);
        assertEquals(1f, x.get(0));
        assertEquals(3f, x.get(1));
        assertEquals(4f, archetype.get(Y).get(1));
        assertEquals(0, x.segment().address() % 64);
        assertEquals(archetype.capacityRows(), x.capacityRows());
        assertEquals("b", archetype.get(NOTE).get(1).text());
        assertEquals(10.0, archetype.get(HP).get(1));
        assertNull(archetype.get(SCORE));
        assertNull(archetype.get(LEVEL));
        assertNull(archetype.get(ON));
        assertNull(archetype.get(NAME));
    }

    @Test
    void columnByAnyFieldHandleIsTheTypedReadViewAndMarksNothing() {
        archetype.clearDirtyComponents();
        dev.jtecs.component.FieldHandle handle = Y;
        assertEquals(archetype.get(Y).segment().address(), archetype.column(handle).segment().address());
        assertFalse(archetype.anyComponentDirty(), "a read view marks nothing");
        dev.jtecs.component.NativeComponent<Absent> absent = Components.registerNative(Absent.class);
        assertNull(archetype.column(absent.floatField("v")), "a component the archetype lacks has no column");
        assertThrows(NullPointerException.class, () -> archetype.column(null));
    }

    record Absent(float v) {}

    @Test
    void getMutMarksOnlyThatColumn() {
        archetype.clearDirtyComponents();
        assertFalse(archetype.anyComponentDirty());
        archetype.getMut(X).set(0, 9f);
        assertTrue(archetype.isComponentDirty(POS));
        assertFalse(archetype.isComponentDirty(HP));
        assertEquals(List.of(POS), archetype.dirtyComponents());
        assertEquals(9f, world.get(a, POS).x());
        archetype.getMut(HP);
        archetype.getMut(NOTE);
        assertEquals(3, archetype.dirtyComponents().size());
    }

    @Test
    void readsNeverMark() {
        archetype.clearDirtyComponents();
        archetype.get(X);
        archetype.get(NOTE);
        archetype.get(HP);
        archetype.getValue(0, POS);
        assertFalse(archetype.anyComponentDirty());
    }

    @Test
    void structuralFlagComposesIntoEveryReader() {
        assertTrue(archetype.isComponentDirty(HP), "placement marks every column");
        assertTrue(archetype.anyComponentDirty());
        assertEquals(4, archetype.dirtyComponents().size());
        long structural = archetype.structuralCount();
        archetype.clearDirtyComponents();
        assertFalse(archetype.isComponentDirty(HP));
        world.despawn(b);
        world.commit();
        assertTrue(archetype.isComponentDirty(HP), "swap-remove marks the archetype");
        assertTrue(archetype.structuralCount() > structural);
        assertFalse(archetype.isComponentDirty(SCORE), "a component the archetype lacks is never dirty");
    }

    @Test
    void countsSurviveClearing() {
        archetype.clearDirtyComponents();
        archetype.markComponentDirty(HP);
        archetype.set(0, HP.of(1.0));
        long writes = archetype.writeCount(HP);
        assertEquals(2, writes);
        archetype.clearDirtyComponents();
        assertEquals(writes, archetype.writeCount(HP));
        archetype.markAllComponentsDirty();
        assertEquals(4, archetype.dirtyComponents().size());
    }

    @Test
    void markDirtyAtMarksTheComponentAtAPositionFromPositionOf() {
        archetype.clearDirtyComponents();
        int hp = archetype.positionOf(HP);
        assertEquals(-1, archetype.positionOf(SCORE), "absent");
        assertEquals(HP, archetype.components().get(hp));
        long writes = archetype.writeCount(HP);
        archetype.markDirtyAt(hp);
        assertEquals(java.util.List.of(HP), archetype.dirtyComponents());
        assertEquals(writes + 1, archetype.writeCount(HP), "a mark like markComponentDirty's");
        for (int bad : new int[] {-1, archetype.components().size()}) {
            assertThrows(IndexOutOfBoundsException.class, () -> archetype.markDirtyAt(bad));
        }
        assertEquals(java.util.List.of(HP), archetype.dirtyComponents(), "rejected positions mark nothing");
        assertEquals(writes + 1, archetype.writeCount(HP));
        assertThrows(NullPointerException.class, () -> archetype.positionOf(null));
    }

    @Test
    void setWritesOneRowAndRejectsAbsentComponentsOrRows() {
        archetype.set(1, POS.of(new Pos(7, 8)));
        assertEquals(new Pos(7, 8), world.get(b, POS));
        archetype.set(1, POS);
        assertEquals(new Pos(0, 0), world.get(b, POS));
        assertEquals(new Pos(1, 2), archetype.getValue(0, POS));
        assertThrows(IllegalArgumentException.class, () -> archetype.set(0, SCORE.of(1L)));
        assertThrows(IndexOutOfBoundsException.class, () -> archetype.set(2, HP.of(1.0)));
        assertThrows(IndexOutOfBoundsException.class, () -> archetype.entity(-1));
        assertThrows(IllegalArgumentException.class, () -> archetype.markComponentDirty(SCORE));
        assertThrows(IllegalArgumentException.class, () -> archetype.writeCount(SCORE));
        assertEquals(5.0, world.get(a, HP), "rejected writes change nothing");
    }

    @Test
    void everyScalarColumnKindIsReachable() {
        long c = world.spawn(SCORE.of(5L), LEVEL.of(6), ON.of(true), NAME.of("z"));
        world.commit();
        Archetype scalars = world.archetypeOf(c);
        assertEquals(5L, scalars.get(SCORE).get(0));
        assertEquals(6, scalars.get(LEVEL).get(0));
        assertTrue(scalars.get(ON).get(0));
        assertEquals("z", scalars.get(NAME).get(0));
        scalars.getMut(SCORE).set(0, 50L);
        scalars.getMut(LEVEL).set(0, 60);
        scalars.getMut(ON).set(0, false);
        scalars.getMut(NAME).set(0, "y");
        assertEquals(50L, world.get(c, SCORE));
        assertEquals(60, world.get(c, LEVEL));
        assertEquals(false, world.get(c, ON));
        assertEquals("y", world.get(c, NAME));
        assertEquals(4, scalars.dirtyComponents().size());
        assertArrayEquals(scalars.signature(), scalars.components().stream().mapToInt(x -> x.id()).toArray());
    }

    @Test
    void viewsFailAfterTheWorldCloses() {
        FloatColumn x = archetype.get(X);
        world.close();
        assertThrows(IllegalStateException.class, () -> x.get(0));
    }

    /** Every archetype call that reads or changes rows, views or marks: each must refuse a released archetype. */
    private static List<org.junit.jupiter.api.function.Executable> rowCalls(Archetype archetype) {
        EntityObserver observer = new EntityObserver() {};
        return List.of(archetype::count, archetype::capacityRows, archetype::entities,
                () -> archetype.entity(0), () -> archetype.addEntityObserver(observer),
                () -> archetype.removeEntityObserver(observer), () -> archetype.get(X), () -> archetype.getMut(X),
                () -> archetype.column(X), () -> archetype.get(HP), () -> archetype.getMut(HP),
                () -> archetype.get(NOTE), () -> archetype.getMut(NOTE), () -> archetype.getValue(0, POS),
                () -> archetype.set(0, HP.of(1.0)), () -> archetype.isComponentDirty(POS),
                archetype::anyComponentDirty, archetype::dirtyComponents, () -> archetype.markComponentDirty(POS),
                () -> archetype.markDirtyAt(0), archetype::markAllComponentsDirty, archetype::clearDirtyComponents,
                archetype::structuralCount, () -> archetype.structuralDescribed(0), archetype::structuralAdded,
                archetype::structuralTouched, () -> archetype.structuralTouched(new int[64]),
                () -> archetype.trackValueCount(POS), archetype::valueCount,
                () -> archetype.writeCount(POS), () -> archetype.get(FOLLOWS), () -> archetype.getMut(FOLLOWS),
                () -> archetype.firstTarget(FOLLOWS, 0), () -> archetype.getFirstRelationship(FOLLOWS, 0),
                () -> archetype.forEachRelationship(FOLLOWS, 0, edge -> {}));
    }

    // issue 18, smaller item: archetype methods after the world's close() answered IOOBE or nothing
    @Test
    void everyRowCallOnAnArchetypeOfAClosedWorldSaysTheWorldIsClosed() {
        List<org.junit.jupiter.api.function.Executable> calls = rowCalls(archetype);
        for (org.junit.jupiter.api.function.Executable call : calls) {
            assertDoesNotThrow(call, "open: the call works"); // each call is valid while the world is open
        }
        world.close();
        for (int i = 0; i < calls.size(); i++) {
            IllegalStateException e = assertThrows(IllegalStateException.class, calls.get(i), "call #" + i);
            assertTrue(e.getMessage().endsWith("belongs to a closed world; its storage is gone"), e.getMessage());
            assertTrue(e.getMessage().startsWith("Archetype#" + archetype.id() + "["), e.getMessage());
        }
        assertTrue(archetype.has(POS), "its identity stays readable");
        assertTrue(archetype.storageVersion() > 0, "and its storage version, which moved when the storage went");
        assertEquals(4, archetype.components().size());
    }

    // issue 18, smaller item: the same for an archetype compact() pruned
    @Test
    void everyRowCallOnAPrunedArchetypeSaysItWasPruned() {
        long target = world.spawn();
        long follower = world.spawn(FOLLOWS.to(target), POS, HP, NOTE.of(new Note("f")));
        Archetype pruned = world.archetypeOf(follower);
        List<org.junit.jupiter.api.function.Executable> calls = rowCalls(pruned);
        world.despawn(follower);
        world.despawn(target);
        assertEquals(1, world.compact().pruned());
        for (int i = 0; i < calls.size(); i++) {
            IllegalStateException e = assertThrows(IllegalStateException.class, calls.get(i), "call #" + i);
            assertTrue(e.getMessage().contains("was pruned by compact()"), e.getMessage());
        }
        assertEquals(2, archetype.count(), "other archetypes are untouched");
    }

    @Test
    void storageVersionChangesExactlyWhenBuffersAreReplaced() {
        long version = archetype.storageVersion();
        world.set(a, HP.of(6.0));
        world.spawn(POS, NOTE.of(new Note("c")), HP, TAG);
        assertEquals(version, archetype.storageVersion(), "writes and appends within capacity keep the buffers");
        for (int i = 0; i < 100; i++) {
            world.spawn(POS, NOTE.of(new Note("g")), HP, TAG);
        }
        long grown = archetype.storageVersion();
        assertTrue(grown > version, "growth replaced them");
        dev.jtecs.query.Query all = world.newQuery(dev.jtecs.query.QueryDescriptor.builder().include(TAG).build());
        world.batchRemove(all, TAG); // a whole-archetype exchange into an empty archetype
        assertTrue(archetype.storageVersion() > grown, "the exchange took them away");
    }

    record Rope(long target, java.util.List<String> knots) {}

    record Tension(long target, float pull) {}

    static final dev.jtecs.component.RelationshipDefinition<Tension> TENSION =
            dev.jtecs.component.Relationships.register(Tension.class, o -> o.name("test.archetype.Tension"));

    /** The edge calls that take a row refuse one outside the count, as every other row call does. */
    @Test
    void edgeCallsRefuseRowsOutsideTheCount() {
        long target = world.spawn();
        long id = world.spawn(FOLLOWS.to(target));
        Archetype follows = world.archetypeOf(id);
        for (int row : new int[] {-1, follows.count()}) {
            assertThrows(IndexOutOfBoundsException.class, () -> follows.firstTarget(FOLLOWS, row), "row " + row);
            assertThrows(IndexOutOfBoundsException.class, () -> follows.getFirstRelationship(FOLLOWS, row));
            assertThrows(IndexOutOfBoundsException.class, () -> follows.forEachRelationship(FOLLOWS, row, e -> {}));
        }
        assertEquals(target, follows.firstTarget(FOLLOWS, world.rowOf(id)));
    }

    /** Only an edge whose records are stored by reference has a record column; the refusal says why. */
    @Test
    void aRecordColumnOfATargetOnlyOrNativelyStoredEdgeIsRefusedWithTheReason() {
        long target = world.spawn();
        long id = world.spawn(FOLLOWS.to(target), TENSION.of(new Tension(target, 2f)));
        Archetype held = world.archetypeOf(id);
        String targetOnly = assertThrows(IllegalArgumentException.class, () -> held.get(FOLLOWS.targeting(target)))
                .getMessage();
        assertTrue(targetOnly.endsWith("has no record column (target-only)"), targetOnly);
        String stored = assertThrows(IllegalArgumentException.class, () -> held.get(TENSION.targeting(target)))
                .getMessage();
        assertTrue(stored.endsWith("has no record column (stored natively: use field handles)"), stored);
        world.close();
        assertThrows(IllegalStateException.class, () -> held.get(ROPE.targeting(target)), "a closed world's");
    }

    @Test
    void positionsStartAtZeroAndTheNameListsTheSignatureAndTheRows() {
        assertEquals(0, archetype.positionOf(archetype.components().get(0)));
        StringBuilder names = new StringBuilder();
        for (Component<?> component : archetype.components()) {
            names.append(names.isEmpty() ? "" : ", ").append(component.name());
        }
        assertEquals("Archetype#" + archetype.id() + "[" + names + "] count=2", archetype.toString());
    }

    static final dev.jtecs.component.RelationshipDefinition<Rope> ROPE = dev.jtecs.component.Relationships.register(
            Rope.class, o -> o.name("test.archetype.Rope"));
    static final dev.jtecs.component.RelationshipDefinition<Rope> LOOSE_ROPE =
            dev.jtecs.component.Relationships.register(Rope.class, o -> o.name("test.archetype.LooseRope").sparse());

    @Test
    void wildcardRelationshipColumn() {
        long low = world.spawn();
        long high = world.spawn();
        long id = world.spawn(ROPE.of(new Rope(high, new java.util.ArrayList<>())),
                ROPE.of(new Rope(low, new java.util.ArrayList<>())), LOOSE_ROPE.of(new Rope(high,
                        new java.util.ArrayList<>())));
        Archetype archetype = world.archetypeOf(id);
        int row = world.rowOf(id);
        archetype.clearDirtyComponents();

        RelationshipColumn<Rope> wildcard = archetype.get(ROPE);
        assertEquals(archetype.count(), wildcard.size());
        Rope first = wildcard.get(row);
        assertEquals(low, first.target(), "the first edge: lowest target");
        assertTrue(first == world.get(id, ROPE), "world.get reaches the same payload");
        assertTrue(first == archetype.get(ROPE.targeting(low)).get(row), "so does the targeted column");
        java.util.List<Rope> visited = new java.util.ArrayList<>();
        archetype.forEachRelationship(ROPE, row, visited::add);
        assertTrue(first == visited.get(0), "and iteration");
        assertFalse(archetype.isComponentDirty(ROPE), "get marks nothing");

        RelationshipColumn<Rope> writable = archetype.getMut(ROPE);
        assertTrue(archetype.isComponentDirty(ROPE));
        java.util.List<Long> markedEdges = archetype.dirtyComponents().stream()
                .filter(c -> c instanceof dev.jtecs.component.PairComponent pair && pair.relationship() == ROPE)
                .map(c -> ((dev.jtecs.component.PairComponent) c).target()).toList();
        assertEquals(java.util.List.of(low), markedEdges, "the first edge's column is marked, no other");
        writable.get(row).knots().add("bowline");
        assertEquals(java.util.List.of("bowline"), archetype.get(ROPE.targeting(low)).get(row).knots());
        assertEquals(java.util.List.of("bowline"), world.get(id, ROPE.targeting(low)).knots());

        Rope loose = archetype.getMut(LOOSE_ROPE).get(row); // sparse: from the edge store, same object
        assertTrue(loose == world.get(id, LOOSE_ROPE));
        loose.knots().add("hitch");
        assertEquals(java.util.List.of("hitch"), world.get(id, LOOSE_ROPE).knots());

        assertNull(world.archetypeOf(low).get(ROPE), "no edge of it: no column");
        assertNull(world.archetypeOf(low).getMut(ROPE));
        assertTrue(archetype.get(FOLLOWS) == null);
    }
}
