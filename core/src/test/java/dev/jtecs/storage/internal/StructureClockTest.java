package dev.jtecs.storage.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.TagComponent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The registry's structure clock advances on every structural change of its tables (creation, appends,
 * removals, moves, exchanges, growth, rebuilds, pruning) and on nothing else (value writes, dirty marks, clears).
 */
class StructureClockTest {
    record Spot(float x, float y) {}

    static final NativeComponent<Spot> SPOT = Components.registerNative(Spot.class, o -> o.name("test.clock.Spot"));
    static final TagComponent TAG = Components.tag("test.clock.Tag");

    private final NativeMemory memory = new NativeMemory();
    private final ArchetypeRegistry registry = new ArchetypeRegistry(memory);

    @AfterEach
    void tearDown() {
        registry.close();
        memory.close();
    }

    private long version() {
        return registry.clock().version();
    }

    /** Runs {@code change} and checks that the clock moved forward. */
    private void advances(String what, Runnable change) {
        long before = version();
        change.run();
        assertTrue(version() > before, what + " must advance the clock (stayed at " + before + ")");
    }

    /** Runs {@code change} and checks that the clock stood still. */
    private void standsStill(String what, Runnable change) {
        long before = version();
        change.run();
        assertEquals(before, version(), what + " must not advance the clock");
    }

    @Test
    void advancesOnEveryStructuralChangeOfItsTables() {
        Table[] spots = new Table[1];
        Table[] tagged = new Table[1];
        advances("creating a table", () -> spots[0] = registry.withAdded(registry.root(), SPOT));
        advances("creating a second table", () -> tagged[0] = registry.withAdded(spots[0], TAG));
        Table from = spots[0];
        Table to = tagged[0];
        advances("appending a row (and growing)", () -> from.appendRow(1));
        advances("appending rows", () -> {
            int first = from.appendRows(3);
            from.writeConsecutiveEntities(first, 3, 2);
        });
        advances("moving a row to another table", () -> from.moveRowTo(0, to));
        advances("swap-removing a row", () -> from.swapRemove(0));
        advances("moving every row", () -> from.moveAllTo(to));
        advances("truncating", () -> to.truncate(2));
        advances("exchanging buffers into an empty table", () -> registry.exchange(to, from));
        advances("growing", () -> from.ensureCapacity(1000));
        advances("rebuilding after shrinkage", from::rebuild);
        advances("pruning an empty table", () -> registry.prune(to));
    }

    @Test
    void standsStillOnValueWritesMarksAndClears() {
        Table table = registry.withAdded(registry.root(), SPOT);
        table.appendRow(1);
        int position = table.position(SPOT.id());
        standsStill("a value write", () -> table.writeValue(position, 0, new Spot(3, 4)));
        standsStill("a dirty mark", () -> table.markDirty(position));
        standsStill("clearing dirty state", registry::clearDirty);
        standsStill("finding an existing table", () -> registry.withAdded(registry.root(), SPOT));
        standsStill("growing within capacity", () -> table.ensureCapacity(2));
    }

    @Test
    void aTableOutsideARegistryKeepsAClockOfItsOwn() {
        long before = version();
        Table loose = new Table(7, new dev.jtecs.component.Component<?>[] {SPOT}, memory);
        loose.appendRow(1);
        assertEquals(before, version(), "a loose table does not advance the registry's clock");
    }

    @Test
    void aComponentsCounterAdvancesOnlyForTablesHoldingIt() {
        Table spots = registry.withAdded(registry.root(), SPOT);
        Table tags = registry.withAdded(registry.root(), TAG);
        long spot = registry.clock().version(SPOT.id());
        long tag = registry.clock().version(TAG.id());
        tags.appendRow(1);
        assertEquals(spot, registry.clock().version(SPOT.id()), "a row placed in a table without SPOT");
        assertTrue(registry.clock().version(TAG.id()) > tag);
        spots.appendRow(2);
        assertTrue(registry.clock().version(SPOT.id()) > spot, "a row placed in a table with SPOT");
        long both = registry.clock().version(SPOT.id());
        Table spotsAndTags = registry.withAdded(spots, TAG);
        assertTrue(registry.clock().version(SPOT.id()) > both, "a table holding SPOT created");
        long beforeMove = registry.clock().version(SPOT.id());
        spots.moveRowTo(0, spotsAndTags);
        assertTrue(registry.clock().version(SPOT.id()) > beforeMove, "a move between two SPOT tables");
    }

    @Test
    void aPeekAnswersAsAReadingWouldButDoesNotEndARun() {
        Table spots = registry.withAdded(registry.root(), SPOT);
        StructureClock clock = registry.clock();
        long read = clock.version(SPOT.id());
        assertEquals(read, clock.peek(SPOT.id()), "nothing changed");
        spots.appendRow(1);
        long afterOne = clock.peek(SPOT.id());
        assertTrue(afterOne > read, "the first change after a reading ticks, and a peek sees it");
        spots.appendRow(2); // the same table again with no reading between: the run goes on, peek or not
        assertEquals(afterOne, clock.peek(SPOT.id()), "a peek is not a reading");
        assertEquals(afterOne, clock.version(SPOT.id()));
        spots.appendRow(3);
        assertTrue(clock.peek(SPOT.id()) > afterOne, "after a reading the next change ticks again");
        assertEquals(0, clock.peek(12_345), "an id past every counter");
    }

    @Test
    void pairIdsAndNegativeIdsHaveNoCounter() {
        assertEquals(0, registry.clock().version(12345), "a registered id no table has changed yet");
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> registry.clock().version(Components.FIRST_PAIR_ID));
        IllegalArgumentException negative = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> registry.clock().version(-1));
        assertTrue(negative.getMessage().contains("componentId=-1"), negative.getMessage());
    }

    @Test
    void anEdgeCounterAdvancesOnEveryEdgeChangeAndItsReadingDoesNotEndARun() {
        StructureClock clock = new StructureClock();
        int relationship = TAG.id();
        StructureClock.EdgeCounter edges = clock.edgeCounter(relationship);
        assertEquals(0, edges.value(), "no edge yet, and no room reserved");
        assertEquals(0, clock.edgeCounter(1_000).value(), "an id past every counter");
        assertEquals(0, clock.edgeCounter(64).value(), "the id just past a new clock's 64 counters");
        clock.reserve(relationship);
        assertSame(edges, clock.edgeCounter(relationship), "one counter for the clock's life, reserved or not");
        clock.tickEdges(relationship);
        clock.tickEdges(relationship); // unread: still counted, unlike a table's run
        assertEquals(2, edges.value());
        assertEquals(2, clock.version(relationship), "the component's counter moved with it");
        int[] a = {SPOT.id()};
        clock.tick(a);
        long spot = clock.version(SPOT.id());
        clock.tick(a);
        edges.value(); // not a reading of the tables: the run goes on
        clock.tick(a);
        assertEquals(spot + 1, clock.version(SPOT.id()), "one run, an edge reading inside");
        clock.tick(new int[] {relationship});
        assertEquals(2, edges.value(), "a table change is not an edge change");
        clock.tickEdges(relationship);
        assertEquals(3, edges.value());
    }

    @Test
    void aNewRelationshipsCounterIsReservedBeforeItsFirstEdgeAndKeptAsTheClockGrows() {
        StructureClock clock = new StructureClock();
        StructureClock.EdgeCounter low = clock.edgeCounter(TAG.id());
        clock.reserve(5_000); // past the counters made so far: both arrays grow, the first counter stays
        clock.tickEdges(5_000);
        assertEquals(1, clock.edgeCounter(5_000).value());
        assertSame(low, clock.edgeCounter(TAG.id()));
        clock.tickEdges(TAG.id());
        assertEquals(1, low.value());
        assertEquals(0, clock.edgeCounter(0).value(),
                "id 0 is in range (no component is given it, but the check is on the range)");
        assertEquals(0, new StructureClock().edgeCounter(8).value(), "the id just past a new clock's 8 counters");
        assertThrows(IllegalArgumentException.class, () -> clock.edgeCounter(-1));
        assertThrows(IllegalArgumentException.class, () -> clock.edgeCounter(Components.FIRST_PAIR_ID));
    }

    @Test
    void unreadChangesToOneTableAdvanceOnceAndAReadingEndsTheRun() {
        StructureClock clock = new StructureClock();
        int[] a = {SPOT.id()};
        int[] b = {TAG.id()};
        long start = clock.version();
        clock.tick(a);
        clock.tick(a);
        clock.tick(a);
        long afterRun = clock.version();
        assertEquals(start + 1, afterRun, "three unread changes of one table: one advance");
        clock.tick(a);
        assertTrue(clock.version() > afterRun, "a reading ends the run: the next change advances again");
        long beforeOther = clock.version(TAG.id());
        clock.tick(a);
        clock.tick(b);
        clock.tick(a);
        assertTrue(clock.version(TAG.id()) > beforeOther, "another table's change always advances");
        assertEquals(clock.version(), clock.version(), "reading changes nothing");
    }

    @Test
    void unreadChangesAlternatingBetweenTwoTablesAdvanceEachOnceAndAThirdTableStillAdvances() {
        StructureClock clock = new StructureClock();
        int[] a = {SPOT.id()};
        int[] b = {TAG.id()};
        int[] c = {SPOT.id(), TAG.id()};
        long start = clock.version();
        long spotStart = clock.version(SPOT.id());
        long tagStart = clock.version(TAG.id());
        for (int i = 0; i < 100; i++) { // rows moved one by one from a to b: each move ticks both tables
            clock.tick(a);
            clock.tick(b);
        }
        assertEquals(start + 2, clock.version(), "two tables, each advanced once");
        assertEquals(spotStart + 1, clock.version(SPOT.id()));
        assertEquals(tagStart + 1, clock.version(TAG.id()));
        long afterRun = clock.version();
        clock.tick(a);
        clock.tick(b);
        clock.tick(c); // a third table pushes the first out of the run
        clock.tick(a);
        assertEquals(afterRun + 4, clock.version(), "the third table and the first again advance");
        long tag = clock.version(TAG.id());
        clock.tick(b);
        assertTrue(clock.version(TAG.id()) > tag, "a reading of a component counter ends the run too");
    }
}
