package dev.jtecs.storage.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import dev.jtecs.entity.Entity;
import java.util.List;
import org.junit.jupiter.api.Test;

class SparseEdgesTest {
    static final Relationship MANY = Relationships.register("test.sparse.Many", o -> o.sparse().reverseIndex());
    static final Relationship ONE = Relationships.register("test.sparse.One", o -> o.sparse().exclusive()
            .reverseIndex());
    static final Relationship PLAIN = Relationships.register("test.sparse.Plain", o -> o.sparse());
    static final Relationship CASCADING = Relationships.register("test.sparse.Cascading", o -> o.sparse().exclusive()
            .reverseIndex().cascadeDelete());

    private final StructureClock clock = new StructureClock();
    private final SparseEdges edges = new SparseEdges(clock);
    private final long s1 = Entity.pack(1, 0);
    private final long s2 = Entity.pack(2, 3);
    private final long t1 = Entity.pack(10, 0);
    private final long t2 = Entity.pack(11, 0);
    private final long t3 = Entity.pack(12, 0);

    @Test
    void everyChangeToTheEdgeSetAdvancesTheRelationshipsCounterAndOnlyThen() {
        long a = Entity.pack(1, 0);
        long b = Entity.pack(2, 0);
        long t = Entity.pack(3, 0);
        long u = Entity.pack(4, 0);
        long world = clock.version();
        long one = clock.version(ONE.id());
        long many = clock.version(MANY.id());
        edges.add(ONE, a, t, null);
        assertEquals(one + 1, clock.version(ONE.id()));
        assertEquals(world + 1, clock.version());
        assertFalse(edges.add(ONE, a, t, null)); // already there: no change
        assertEquals(one + 1, clock.version(ONE.id()));
        edges.add(ONE, a, u, null); // exclusive: a retarget
        assertEquals(one + 2, clock.version(ONE.id()));
        assertFalse(edges.remove(ONE, b, t)); // b holds nothing
        assertEquals(one + 2, clock.version(ONE.id()));
        edges.remove(ONE, a, u);
        assertEquals(one + 3, clock.version(ONE.id()));
        edges.add(ONE, b, t, null);
        edges.removeSource(b);
        assertEquals(one + 5, clock.version(ONE.id()));
        assertEquals(many, clock.version(MANY.id()), "another relationship's counter stays");
    }

    /**
     * A cascade reads a subtree whole, then lets it go: {@code readSubtreeSources} copies each member's sources and
     * changes nothing (no room: the count needed, and the read does not count; a list beside the cells: refused),
     * and {@code subtreeDied} drops every list read and the members' own edges without a search, ticks the
     * counter once, and tells the other relationships as a run's report would.
     */
    @Test
    void aSubtreeIsReadWholeThenLetGo() {
        long root = Entity.pack(20, 0);
        long c1 = Entity.pack(21, 0);
        long c2 = Entity.pack(22, 0);
        long g = Entity.pack(23, 0);
        long x = Entity.pack(30, 0);
        long y = Entity.pack(31, 0);
        edges.add(CASCADING, c1, root, null);
        edges.add(CASCADING, c2, root, null);
        edges.add(CASCADING, g, c1, null);
        edges.add(MANY, g, x, null); // a member's edge to an outsider
        edges.add(MANY, y, c2, null); // an outsider's edge to a member: its list stays
        edges.add(MANY, c1, c2, null); // from a member to a member

        edges.beginSubtree(CASCADING);
        long[] small = new long[1];
        assertEquals(-1 - 2, edges.readSubtreeSources(root, small, 0), "no room: the count needed");
        long[] queue = new long[8];
        assertEquals(2, edges.readSubtreeSources(root, queue, 0));
        assertEquals(3, edges.readSubtreeSources(c1, queue, 2));
        assertEquals(3, edges.readSubtreeSources(c2, queue, 3), "no list: nothing to read");
        assertEquals(3, edges.readSubtreeSources(g, queue, 3));
        assertArrayEquals(new long[] {c1, c2, g}, java.util.Arrays.copyOf(queue, 3));
        assertArrayEquals(new long[] {c1, c2}, edges.sources(CASCADING, root), "reading changes nothing");
        assertArrayEquals(new long[] {g}, edges.sources(CASCADING, c1));

        long cascading = clock.version(CASCADING.id());
        long many = clock.version(MANY.id());
        List<Long> dead = List.of(c1, c2, g);
        edges.subtreeDied(root, queue, 3, id -> !dead.contains(id));
        assertEquals(cascading + 1, clock.version(CASCADING.id()), "one tick for the whole subtree");
        assertTrue(clock.version(MANY.id()) > many);
        for (long member : dead) {
            assertEquals(0, edges.count(CASCADING, member));
            assertEquals(0, edges.count(MANY, member));
            assertEquals(0, edges.sourceCount(CASCADING, member));
        }
        assertEquals(0, edges.sourceCount(CASCADING, root));
        assertArrayEquals(new long[] {y}, edges.sources(MANY, c2), "a live source's edge to a member stays");
        assertEquals(0, edges.sourceCount(MANY, x), "a dead member's edge left its target's list");
    }

    /** A subtree of more members than one word of the record of lists read: each list read goes, and only those. */
    @Test
    void aSubtreeOfManyFamiliesDropsEveryListItRead() {
        long root = Entity.pack(1000, 0);
        long[] children = new long[100];
        long[] grandchildren = new long[100];
        for (int i = 0; i < 100; i++) {
            children[i] = Entity.pack(1001 + i, 0);
            edges.add(CASCADING, children[i], root, null);
        }
        for (int i = 0; i < 100; i += 3) { // every third child has a child of its own
            grandchildren[i] = Entity.pack(2000 + i, 0);
            edges.add(CASCADING, grandchildren[i], children[i], null);
        }
        long other = Entity.pack(3000, 0);
        edges.add(CASCADING, Entity.pack(3001, 0), other, null); // outside the subtree: stays
        edges.beginSubtree(CASCADING);
        long[] queue = new long[256];
        int tail = edges.readSubtreeSources(root, queue, 0);
        for (int head = 0; head < tail; head++) {
            tail = edges.readSubtreeSources(queue[head], queue, tail);
        }
        assertEquals(134, tail);
        java.util.Set<Long> dead = new java.util.HashSet<>();
        for (int i = 0; i < tail; i++) {
            dead.add(queue[i]);
        }
        edges.subtreeDied(root, queue, tail, id -> !dead.contains(id));
        assertEquals(0, edges.sourceCount(CASCADING, root));
        for (int i = 0; i < 100; i++) {
            assertEquals(0, edges.sourceCount(CASCADING, children[i]), "child " + i);
            assertEquals(0, edges.count(CASCADING, children[i]));
        }
        assertArrayEquals(new long[] {Entity.pack(3001, 0)}, edges.sources(CASCADING, other));
    }

    /**
     * The record of which reads found a list outlives a walk: a later, smaller walk's death drops only the lists it
     * read, though the record and the queue still hold a longer walk's entries past its end (here a list read tenth,
     * in the record's first word, whose slot a new target with a list of its own holds by then).
     */
    @Test
    void aSmallerWalkAfterALargerOneDropsOnlyItsOwnLists() {
        long first = Entity.pack(500, 0);
        long[] children = new long[12];
        for (int i = 0; i < children.length; i++) {
            children[i] = Entity.pack(501 + i, 0);
            edges.add(CASCADING, children[i], first, null);
        }
        long grandchild = Entity.pack(600, 0);
        edges.add(CASCADING, grandchild, children[9], null); // children[9] is read tenth: its list, bit 10
        long[] queue = new long[16];
        edges.beginSubtree(CASCADING);
        int tail = edges.readSubtreeSources(first, queue, 0);
        tail = edges.readSubtreeLevel(queue, 0, tail, tail);
        tail = edges.readSubtreeLevel(queue, 12, tail, tail);
        assertEquals(13, tail);
        java.util.Set<Long> dead = new java.util.HashSet<>();
        for (int i = 0; i < tail; i++) {
            dead.add(queue[i]);
        }
        edges.subtreeDied(first, queue, tail, id -> !dead.contains(id));
        assertEquals(0, edges.sourceCount(CASCADING, children[9]));

        long successor = Entity.pack(Entity.slot(children[9]), 1); // the slot's next entity, a target now
        edges.add(CASCADING, Entity.pack(700, 0), successor, null);
        long second = Entity.pack(800, 0);
        edges.add(CASCADING, Entity.pack(801, 0), second, null);
        edges.add(CASCADING, Entity.pack(802, 0), second, null);
        edges.beginSubtree(CASCADING);
        int end = edges.readSubtreeSources(second, queue, 0);
        end = edges.readSubtreeLevel(queue, 0, end, end);
        assertEquals(2, end);
        edges.subtreeDied(second, queue, end, id -> id != Entity.pack(801, 0) && id != Entity.pack(802, 0));
        assertEquals(0, edges.sourceCount(CASCADING, second));
        assertArrayEquals(new long[] {Entity.pack(700, 0)}, edges.sources(CASCADING, successor),
                "a list the smaller walk never read stays");
        assertFalse(edges.targetsNone(CASCADING, new long[] {successor}, 1));
    }

    /**
     * A walk that reads a subtree a level at a time ({@code readSubtreeLevel}) meets the members in the order of one
     * that reads them one at a time, and lets go of the same lists: random forests, the same edges in two stores.
     */
    @Test
    void aSubtreeReadByLevelsReadsWhatOneMemberAtATimeReads() {
        long base = Long.getLong("jtecs.seed", new java.util.SplittableRandom().nextLong());
        System.out.println("SparseEdgesTest.aSubtreeReadByLevelsReadsWhatOneMemberAtATimeReads seed " + base
                + " (replay: -Djtecs.seed=" + base + ")");
        for (int round = 0; round < 40; round++) {
            long seed = base + round;
            java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
            int nodes = 2 + random.nextInt(300);
            long[] ids = new long[nodes];
            StructureClock otherClock = new StructureClock();
            SparseEdges byMembers = new SparseEdges(clock);
            SparseEdges byLevels = new SparseEdges(otherClock);
            for (int i = 0; i < nodes; i++) {
                ids[i] = Entity.pack(1 + i, random.nextInt(3));
                if (i > 0) { // a parent among the earlier nodes: one tree below node 0, fan-outs of any size
                    long parent = ids[random.nextInt(Math.max(1, i - random.nextInt(1 + i)))];
                    byMembers.add(CASCADING, ids[i], parent, null);
                    byLevels.add(CASCADING, ids[i], parent, null);
                }
                if (random.nextInt(4) == 0) { // an edge of another relationship to an earlier node
                    long target = ids[random.nextInt(i + 1)];
                    byMembers.add(MANY, ids[i], target, null);
                    byLevels.add(MANY, ids[i], target, null);
                }
            }
            long root = ids[0];
            byMembers.beginSubtree(CASCADING);
            long[] expected = new long[nodes];
            int tail = byMembers.readSubtreeSources(root, expected, 0);
            for (int head = 0; head < tail; head++) {
                tail = byMembers.readSubtreeSources(expected[head], expected, tail);
            }
            byLevels.beginSubtree(CASCADING);
            long[] queue = new long[1 + random.nextInt(4)]; // small: levels that find no room grow it
            int end = byLevels.readSubtreeSources(root, queue, 0);
            if (end < 0) {
                queue = new long[nodes];
                end = byLevels.readSubtreeSources(root, queue, 0);
            }
            for (int head = 0; head < end; ) {
                int levelEnd = end;
                int next = byLevels.readSubtreeLevel(queue, head, levelEnd, end);
                if (next < 0) {
                    assertTrue(next != SparseEdges.BESIDE_CELLS, "seed " + seed + ": every list is in its cell");
                    assertTrue(end - 1 - next > queue.length, "seed " + seed + ": more than the queue holds");
                    queue = java.util.Arrays.copyOf(queue, (int) (end - 1L - next));
                    next = byLevels.readSubtreeLevel(queue, head, levelEnd, end);
                }
                end = next;
                head = levelEnd;
            }
            assertEquals(tail, end, "seed " + seed);
            assertArrayEquals(java.util.Arrays.copyOf(expected, tail), java.util.Arrays.copyOf(queue, end),
                    "seed " + seed);
            java.util.Set<Long> dead = new java.util.HashSet<>();
            for (int i = 0; i < tail; i++) {
                dead.add(expected[i]);
            }
            byMembers.subtreeDied(root, expected, tail, id -> !dead.contains(id));
            byLevels.subtreeDied(root, queue, end, id -> !dead.contains(id));
            for (long id : ids) {
                for (Relationship relationship : List.of(CASCADING, MANY)) {
                    assertArrayEquals(byMembers.sources(relationship, id), byLevels.sources(relationship, id),
                            "seed " + seed + ", sources of " + id);
                    assertEquals(byMembers.count(relationship, id), byLevels.count(relationship, id),
                            "seed " + seed + ", edges of " + id);
                }
            }
        }
    }

    /**
     * A level read that finds no room answers the sources the level needs and counts no read; one that meets a list
     * beside the cells answers so and counts none either: the next reads are recorded as the first ones, and the
     * subtree's death drops exactly the lists they read.
     */
    @Test
    void aLevelWithoutRoomOrBesideTheCellsCountsNoRead() {
        long root = Entity.pack(50, 0);
        long a = Entity.pack(51, 0);
        long b = Entity.pack(52, 0);
        long a1 = Entity.pack(53, 0);
        long a2 = Entity.pack(54, 0);
        long b1 = Entity.pack(55, 0);
        edges.add(CASCADING, a, root, null);
        edges.add(CASCADING, b, root, null);
        edges.add(CASCADING, a1, a, null);
        edges.add(CASCADING, a2, a, null);
        edges.add(CASCADING, b1, b, null);
        long successor = Entity.pack(40, 1); // a slot's next entity, while the old one's list waits beside the cells
        edges.add(CASCADING, s1, Entity.pack(40, 0), null);
        edges.add(CASCADING, s2, successor, null);

        edges.beginSubtree(CASCADING);
        long[] tight = {successor, a, b, 0};
        assertEquals(SparseEdges.BESIDE_CELLS, edges.readSubtreeLevel(tight, 0, 2, 3), "a list beside the cells");
        assertArrayEquals(new long[] {successor, a, b, 0}, tight, "nothing copied");
        long[] queue = {a, b, 0, 0};
        assertEquals(-1 - 3, edges.readSubtreeLevel(queue, 0, 2, 2), "no room: the level's three sources");
        assertArrayEquals(new long[] {a, b, 0, 0}, queue, "nothing copied");
        assertEquals(2, edges.readSubtreeSources(root, new long[2], 0), "the root, read first after all");
        queue = java.util.Arrays.copyOf(queue, 5);
        assertEquals(5, edges.readSubtreeLevel(queue, 0, 2, 2));
        assertArrayEquals(new long[] {a, b, a1, a2, b1}, queue);
        assertEquals(5, edges.readSubtreeLevel(queue, 2, 5, 5), "leaves: nothing more");
        edges.subtreeDied(root, queue, 5, id -> id == s1 || id == s2);
        for (long member : new long[] {root, a, b}) {
            assertEquals(0, edges.sourceCount(CASCADING, member), "a list read goes");
        }
        for (long member : queue) {
            assertEquals(0, edges.count(CASCADING, member), "a member's edge goes");
        }
        assertArrayEquals(new long[] {s2}, edges.sources(CASCADING, successor), "a list not read stays");
        assertArrayEquals(new long[] {s1}, edges.sources(CASCADING, Entity.pack(40, 0)));
    }

    /**
     * {@code targetsNone} looks for a list of sources of each of the ids: true while none has one (no edge of the
     * relationship stored at all, or only lists of other targets), false for an id with one, in its cell or beside the
     * cells, and false for a relationship without a reverse index once it holds an edge (nothing could tell).
     */
    @Test
    void targetsNoneLooksForAListOfEachId() {
        long a = Entity.pack(60, 0);
        long b = Entity.pack(61, 0);
        long[] ids = {a, b, 0};
        assertTrue(edges.targetsNone(CASCADING, ids, 2), "no edge of it stored");
        edges.add(CASCADING, Entity.pack(62, 0), Entity.pack(63, 0), null);
        assertTrue(edges.targetsNone(CASCADING, ids, 2), "another target's list");
        edges.add(CASCADING, Entity.pack(64, 0), b, null);
        assertFalse(edges.targetsNone(CASCADING, ids, 2), "b has a source");
        assertTrue(edges.targetsNone(CASCADING, ids, 1), "only a is looked at");
        assertTrue(edges.remove(CASCADING, Entity.pack(64, 0), b));
        assertTrue(edges.targetsNone(CASCADING, ids, 2), "b's last source left");

        long successor = Entity.pack(40, 1); // a slot's next entity, while the old one's list waits beside the cells
        edges.add(CASCADING, s1, Entity.pack(40, 0), null);
        edges.add(CASCADING, s2, successor, null);
        assertFalse(edges.targetsNone(CASCADING, new long[] {a, successor}, 2), "a list beside the cells");

        assertTrue(edges.targetsNone(PLAIN, ids, 2), "no edge of it stored");
        edges.add(PLAIN, Entity.pack(65, 0), Entity.pack(66, 0), null);
        assertFalse(edges.targetsNone(PLAIN, ids, 2), "no reverse index to look in");
    }

    /** {@code clearBits} clears exactly the bits of its range, within a word, across words and at word ends. */
    @Test
    void clearBitsClearsExactlyItsRange() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(17);
        for (int round = 0; round < 2000; round++) {
            long[] bits = new long[4];
            for (int w = 0; w < bits.length; w++) {
                bits[w] = random.nextLong();
            }
            long[] before = bits.clone();
            int from = random.nextInt(257);
            int to = from + random.nextInt(257 - from);
            if (round < 4) { // the ends of words exactly
                from = 64 * round;
                to = Math.min(256, from + 64);
            }
            SparseEdges.clearBits(bits, from, to);
            for (int b = 0; b < 256; b++) {
                boolean was = (before[b >>> 6] & 1L << b) != 0;
                boolean is = (bits[b >>> 6] & 1L << b) != 0;
                assertEquals(b >= from && b < to ? false : was, is, "bit " + b + " of [" + from + ", " + to + ")");
            }
        }
    }

    @Test
    void aListBesideTheCellsIsNotRead() {
        long old = Entity.pack(40, 0);
        long successor = Entity.pack(40, 1); // the slot's next entity, while the old one's list waits
        edges.add(CASCADING, s1, old, null);
        edges.add(CASCADING, s2, successor, null);
        long[] queue = new long[4];
        edges.beginSubtree(CASCADING);
        assertEquals(SparseEdges.BESIDE_CELLS, edges.readSubtreeSources(successor, queue, 0));
        assertEquals(1, edges.readSubtreeSources(old, queue, 0));
        assertArrayEquals(new long[] {s2}, edges.sources(CASCADING, successor));
        assertArrayEquals(new long[] {s1}, edges.sources(CASCADING, old));
    }

    @Test
    void firstTargetReadsTheLowestAndForgetsEverythingAfterAClear() {
        edges.add(MANY, s1, t2, null);
        edges.add(MANY, s1, t1, null);
        assertEquals(t1, edges.firstTarget(MANY, s1));
        assertEquals(0, edges.firstTarget(MANY, s2));
        assertEquals(0, edges.firstTarget(PLAIN, s1));
        edges.clear(); // the lookup remembered MANY's edges: they must go with the rest
        assertEquals(0, edges.firstTarget(MANY, s1));
        edges.add(MANY, s1, t3, null);
        assertEquals(t3, edges.firstTarget(MANY, s1));
        assertArrayEquals(new long[] {s1}, edges.sources(MANY, t3));
        assertArrayEquals(new long[0], edges.sources(MANY, t1));
    }

    @Test
    void targetsStayAscendingAndDistinct() {
        assertTrue(edges.isEmpty());
        assertTrue(edges.add(MANY, s1, t3, null));
        assertFalse(edges.isEmpty());
        assertTrue(edges.add(MANY, s1, t1, null));
        assertFalse(edges.add(MANY, s1, t3, null), "already there");
        assertTrue(edges.add(MANY, s1, t2, null));
        assertArrayEquals(new long[] {t1, t2, t3}, edges.targets(MANY, s1));
        assertEquals(3, edges.count(MANY, s1));
        assertEquals(t1, edges.targetAt(MANY, s1, 0));
        assertEquals(0, edges.count(MANY, s2));
        assertArrayEquals(new long[0], edges.targets(ONE, s1));
    }

    @Test
    void anExclusiveAddReplacesAndTheReverseIndexFollows() {
        edges.add(ONE, s1, t1, null);
        edges.add(ONE, s2, t1, null);
        assertArrayEquals(new long[] {s1, s2}, edges.sources(ONE, t1));
        assertTrue(edges.add(ONE, s1, t2, null));
        assertFalse(edges.add(ONE, s1, t2, null));
        assertArrayEquals(new long[] {t2}, edges.targets(ONE, s1));
        assertArrayEquals(new long[] {s2}, edges.sources(ONE, t1));
        assertArrayEquals(new long[] {s1}, edges.sources(ONE, t2));
        assertEquals(1, edges.sourceCount(ONE, t2));
        long[] into = new long[3];
        assertEquals(2, edges.copySourcesDescending(ONE, t2, into, 1));
        assertEquals(s1, into[1]);
    }

    /**
     * {@code involves}: an entity is involved while it holds an edge of any relationship or a reverse-indexed one
     * names it as a target; a target of a relationship without a reverse index is not (its death changes nothing
     * here), and neither is another generation of an involved entity's slot.
     */
    @Test
    void anEntityIsInvolvedWhileItHoldsAnEdgeOrAReverseIndexedOneNamesIt() {
        assertFalse(edges.involves(s1), "an empty store");
        edges.add(PLAIN, s1, t1, null);
        assertTrue(edges.involves(s1), "a source");
        assertFalse(edges.involves(t1), "the target of a relationship without a reverse index");
        edges.add(ONE, s2, t2, null);
        assertTrue(edges.involves(s2));
        assertTrue(edges.involves(t2), "a target with a list of sources");
        assertFalse(edges.involves(Entity.pack(Entity.slot(t2), 1)), "the slot's next entity is another one");
        assertFalse(edges.involves(t3));
        edges.add(MANY, t3, s2, null);
        assertTrue(edges.involves(t3), "a source of a many-target relationship");
        assertTrue(edges.remove(MANY, t3, s2));
        assertFalse(edges.involves(t3), "its only edge removed");
        edges.removeSource(s2);
        assertFalse(edges.involves(s2));
        assertFalse(edges.involves(t2), "its last source left: its list went with it");
        edges.removeSource(s1);
        assertFalse(edges.involves(s1));
    }

    @Test
    void removalsUnlinkAndASourceLeavesEveryRelationship() {
        edges.add(MANY, s1, t1, null);
        edges.add(MANY, s1, t2, null);
        edges.add(ONE, s1, t3, null);
        assertFalse(edges.remove(MANY, s1, t3), "no such edge");
        assertTrue(edges.remove(MANY, s1, t1));
        assertArrayEquals(new long[] {t2}, edges.targets(MANY, s1));
        assertEquals(0, edges.sources(MANY, t1).length);
        edges.removeSource(s1);
        assertEquals(0, edges.count(MANY, s1));
        assertEquals(0, edges.count(ONE, s1));
        assertEquals(0, edges.sources(ONE, t3).length);
        assertFalse(edges.removeAll(MANY, s1));
        edges.add(MANY, s2, t1, null);
        edges.clear();
        assertTrue(edges.isEmpty());
        assertEquals(0, edges.count(MANY, s2));
    }

    @Test
    void theReverseIndexStaysAscendingThroughAddsRemovalsAndRetargets() {
        // sources arrive out of order and leave from the middle, the front and the back; readers get them in id
        // order with no sort (traverse pops them as they come)
        long t = Entity.pack(500, 0);
        long u = Entity.pack(501, 0);
        java.util.SplittableRandom random = new java.util.SplittableRandom(21);
        java.util.TreeSet<Long> model = new java.util.TreeSet<>();
        long[] ids = new long[60];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = Entity.pack(1 + random.nextInt(400), random.nextInt(3));
        }
        for (int step = 0; step < 400; step++) {
            long source = ids[random.nextInt(ids.length)];
            switch (random.nextInt(3)) {
                case 0 -> {
                    for (long other : model.toArray(new Long[0])) { // an id of the same slot is replaced
                        if (Entity.slot(other) == Entity.slot(source)) {
                            model.remove(other);
                            edges.removeAll(ONE, other);
                        }
                    }
                    edges.add(ONE, source, t, null);
                    model.add(source);
                }
                case 1 -> {
                    if (edges.remove(ONE, source, t)) {
                        assertTrue(model.remove(source));
                    }
                }
                default -> {
                    if (model.contains(source)) {
                        edges.add(ONE, source, u, null); // a retarget leaves t's list
                        model.remove(source);
                        edges.removeAll(ONE, source);
                    }
                }
            }
            long[] expected = model.stream().mapToLong(Long::longValue).toArray();
            assertArrayEquals(expected, edges.sources(ONE, t), "step " + step);
            assertEquals(expected.length, edges.sourceCount(ONE, t));
            long[] into = new long[expected.length + 2];
            assertEquals(expected.length + 2, edges.copySourcesDescending(ONE, t, into, 2));
            for (int i = 0; i < expected.length; i++) {
                assertEquals(expected[i], into[into.length - 1 - i], "descending");
            }
        }
        assertEquals(0, edges.sourceCount(ONE, u));
    }

    record Owner(long target, int share) {}

    static final dev.jtecs.component.RelationshipDefinition<Owner> OWNED = Relationships.register(Owner.class,
            o -> o.name("test.sparse.Owned").sparse().exclusive().reverseIndex());

    @Test
    void anExclusiveRelationshipKeepsOneTargetAndPayloadPerSlot() {
        long far = Entity.pack(5000, 1); // beyond the first slot table: grown on the way
        assertEquals(0, edges.firstTarget(OWNED, far));
        assertTrue(edges.add(OWNED, far, t1, new Owner(t1, 1)));
        assertEquals(1, edges.count(OWNED, far));
        assertEquals(t1, edges.firstTarget(OWNED, far));
        assertEquals(t1, edges.targetAt(OWNED, far, 0));
        assertEquals(new Owner(t1, 1), edges.payload(OWNED, far, t1));
        assertFalse(edges.add(OWNED, far, t1, new Owner(t1, 2)), "the same target: only the payload changes");
        assertEquals(new Owner(t1, 2), edges.payload(OWNED, far, t1));
        assertTrue(edges.add(OWNED, far, t2, new Owner(t2, 3)));
        assertArrayEquals(new long[] {t2}, edges.targets(OWNED, far));
        assertEquals(null, edges.payload(OWNED, far, t1), "the replaced edge took its payload");
        assertArrayEquals(new long[0], edges.sources(OWNED, t1));
        assertArrayEquals(new long[] {far}, edges.sources(OWNED, t2));
        StringBuilder seen = new StringBuilder();
        edges.forEach(OWNED, far, (target, payload) -> seen.append(target).append('=').append(payload));
        assertEquals(t2 + "=" + new Owner(t2, 3), seen.toString());
        assertFalse(edges.remove(OWNED, far, t1), "not its target");
        assertTrue(edges.remove(OWNED, far, t2));
        assertEquals(0, edges.count(OWNED, far));
        assertEquals(null, edges.payload(OWNED, far, t2));
        assertEquals(0, edges.firstTarget(OWNED, s1), "a slot never written holds nothing");
    }

    /** Descending for a stack (it pops them ascending), ascending for a queue; either way one lookup or none. */
    @Test
    void sourcesCopyInEitherOrderInOneLookupOrReportTheRoomTheyNeed() {
        edges.add(ONE, s2, t1, null);
        edges.add(ONE, s1, t1, null);
        for (boolean ascending : new boolean[] {false, true}) {
            String order = ascending ? "ascending" : "descending";
            long[] into = new long[4];
            assertEquals(3, copy(ascending, ONE, t1, into, 1), order);
            assertArrayEquals(ascending ? new long[] {0, s1, s2, 0} : new long[] {0, s2, s1, 0}, into, order);
            long[] small = new long[3];
            assertEquals(-1 - 2, copy(ascending, ONE, t1, small, 2), "room for one of two, " + order);
            assertArrayEquals(new long[3], small, "nothing copied, " + order);
            assertEquals(2, copy(ascending, ONE, t2, small, 2), "no sources: the end stays, " + order);
            assertEquals(0, copy(ascending, PLAIN, t1, small, 0), "no reverse index: nothing, " + order);
        }
    }

    private int copy(boolean ascending, Relationship relationship, long target, long[] into, int at) {
        return ascending ? edges.copySourcesAscending(relationship, target, into, at)
                : edges.copySourcesDescending(relationship, target, into, at);
    }

    @Test
    void relationshipsAreListedInIdOrderWhateverOrderTheyFirstHeldEdges() {
        edges.add(PLAIN, s1, t1, null);
        edges.add(MANY, s1, t1, null);
        edges.add(ONE, s1, t1, null);
        java.util.List<dev.jtecs.component.BaseRelationship<?>> expected = new java.util.ArrayList<>(
                java.util.List.of(PLAIN, MANY, ONE));
        expected.sort(java.util.Comparator.comparingInt(dev.jtecs.component.BaseRelationship::id));
        assertEquals(3, edges.relationshipCount());
        for (int i = 0; i < 3; i++) {
            assertEquals(expected.get(i), edges.relationshipAt(i));
        }
        assertEquals(expected, java.util.stream.StreamSupport.stream(edges.relationships().spliterator(), false)
                .toList());
        assertThrows(IndexOutOfBoundsException.class, () -> edges.relationshipAt(3));
        edges.clear();
        assertEquals(0, edges.relationshipCount());
    }

    /** Six more relationships than the three above: the list of relationships outgrows its first four entries. */
    static final Relationship[] MORE = java.util.stream.IntStream.range(0, 6)
            .mapToObj(i -> Relationships.register("test.sparse.More" + i, o -> o.sparse().reverseIndex()))
            .toArray(Relationship[]::new);

    @Test
    void theListOfRelationshipsGrowsPastItsFirstEntriesAndStaysInIdOrder() {
        // first used in descending id order, so every one but the first is inserted before those listed
        for (int i = MORE.length - 1; i >= 0; i--) {
            edges.add(MORE[i], Entity.pack(30 + i, 0), t1, null);
        }
        edges.add(ONE, s1, t2, null);
        assertEquals(MORE.length + 1, edges.relationshipCount());
        for (int i = 1; i < edges.relationshipCount(); i++) {
            assertTrue(edges.relationshipAt(i - 1).id() < edges.relationshipAt(i).id(), "id order at " + i);
        }
        for (int i = 0; i < MORE.length; i++) {
            assertEquals(1, edges.sourceCount(MORE[i], t1), MORE[i].name());
            assertEquals(t1, edges.firstTarget(MORE[i], Entity.pack(30 + i, 0)), "the edge stays with its relationship");
        }
        assertEquals(1, edges.sourceCount(ONE, t2));
    }

    @Test
    void theEdgesOfEachListedRelationshipStayWithItWhateverOrderTheyCameIn() {
        // relationships first used in descending id order: each insertion shifts the ones already listed
        java.util.List<Relationship> byIdDescending = new java.util.ArrayList<>(java.util.List.of(PLAIN, MANY, ONE));
        byIdDescending.sort(java.util.Comparator.comparingInt(Relationship::id).reversed());
        for (int i = 0; i < 3; i++) {
            edges.add(byIdDescending.get(i), Entity.pack(20 + i, 0), t1, null); // 20 -> t1 in the highest id, ...
        }
        edges.add(MANY, s2, t2, null);
        edges.add(ONE, s1, t2, null);
        for (int i = 0; i < edges.relationshipCount(); i++) {
            dev.jtecs.component.BaseRelationship<?> relationship = edges.relationshipAt(i);
            for (long target : new long[] {t1, t2, t3}) {
                int expected = relationship.hasReverseIndex() ? edges.sourceCount(relationship, target) : 0;
                assertEquals(expected, edges.sourceCount(edges.relationshipAt(i), target),
                        relationship.name() + " at " + i);
            }
        }
        int many = edges.relationshipAt(0) == MANY ? 0 : edges.relationshipAt(1) == MANY ? 1 : 2;
        dev.jtecs.component.BaseRelationship<?> listed = edges.relationshipAt(many);
        assertEquals(2, edges.sourceCount(listed, t1) + edges.sourceCount(listed, t2));
        assertThrows(IndexOutOfBoundsException.class, () -> edges.relationshipAt(3));
        long manySource = Entity.pack(20 + byIdDescending.indexOf(MANY), 0);
        edges.removeSource(manySource); // leaves MANY's edge only: every other relationship's edges stay
        edges.removeSource(s1); // leaves ONE's edge to t2
        assertEquals(0, edges.count(MANY, manySource));
        assertEquals(0, edges.sourceCount(MANY, t1));
        assertEquals(0, edges.sourceCount(ONE, t2));
        assertEquals(1, edges.sourceCount(MANY, t2));
        assertEquals(1, edges.sourceCount(ONE, t1));
        assertEquals(1, edges.count(PLAIN, Entity.pack(20 + byIdDescending.indexOf(PLAIN), 0)));
        assertEquals(3, edges.listedEdgesReferences());
        edges.clear();
        assertEquals(0, edges.relationshipCount());
        assertEquals(0, edges.listedEdgesReferences(), "a cleared store keeps no relationship's per-slot arrays");
        assertThrows(IndexOutOfBoundsException.class, () -> edges.relationshipAt(0));
    }


    @Test
    void everyChangeToAManyTargetRelationshipsEdgesAdvancesItsCounterAndOnlyThen() {
        long many = clock.version(MANY.id());
        long plain = clock.version(PLAIN.id());
        assertTrue(edges.add(MANY, s1, t2, null));
        assertEquals(many + 1, clock.version(MANY.id()));
        assertFalse(edges.add(MANY, s1, t2, null));
        assertEquals(many + 1, clock.version(MANY.id()), "no change, no tick");
        edges.add(MANY, s1, t1, null);
        assertTrue(edges.remove(MANY, s1, t2));
        assertEquals(many + 3, clock.version(MANY.id()));
        assertFalse(edges.remove(MANY, s1, t2));
        assertEquals(many + 3, clock.version(MANY.id()));
        edges.add(MANY, s1, t3, null);
        assertTrue(edges.removeAll(MANY, s1));
        assertEquals(many + 5, clock.version(MANY.id()));
        assertFalse(edges.removeAll(MANY, s1), "nothing left");
        assertEquals(many + 5, clock.version(MANY.id()));
        edges.add(PLAIN, s2, t1, null);
        assertEquals(plain + 1, clock.version(PLAIN.id()));
        long world = clock.version();
        edges.clear(); // every relationship that held edges changes
        assertEquals(many + 6, clock.version(MANY.id()));
        assertEquals(plain + 2, clock.version(PLAIN.id()));
        assertTrue(clock.version() > world);
    }

    /** Registered after enough components that its id lies past a fresh clock's first counter table. */
    static final class Late {
        static final Relationship FAR;

        static {
            for (int i = 0; i < 70; i++) {
                dev.jtecs.component.Components.tag("test.sparse.filler" + i);
            }
            FAR = Relationships.register("test.sparse.Far", o -> o.sparse());
        }
    }

    @Test
    void aRelationshipsFirstEdgeMakesRoomForItsCounterWhateverItsId() {
        assertTrue(Late.FAR.id() >= 64, "the id lies past the first counter table: " + Late.FAR.id());
        long before = clock.version(Late.FAR.id());
        assertTrue(edges.add(Late.FAR, s1, t1, null));
        assertEquals(before + 1, clock.version(Late.FAR.id()));
        assertArrayEquals(new long[] {t1}, edges.targets(Late.FAR, s1));
    }

    @Test
    void removingEveryEdgeOfASourceTakesItOutOfEachTargetsSources() {
        edges.add(MANY, s1, t1, null);
        edges.add(MANY, s1, t2, null); // the list is full: two targets in room for two
        edges.add(MANY, s2, t1, null);
        assertTrue(edges.removeAll(MANY, s1));
        assertEquals(0, edges.count(MANY, s1));
        assertArrayEquals(new long[] {s2}, edges.sources(MANY, t1));
        assertArrayEquals(new long[0], edges.sources(MANY, t2));
        assertEquals(0, edges.sourceCount(MANY, t2));
        edges.add(ONE, s1, t3, null);
        assertTrue(edges.removeAll(ONE, s1));
        assertArrayEquals(new long[0], edges.sources(ONE, t3));
        edges.add(PLAIN, s1, t1, null);
        edges.add(PLAIN, s1, t2, null);
        assertTrue(edges.removeAll(PLAIN, s1), "no reverse index to clean, still removed");
        assertEquals(0, edges.count(PLAIN, s1));
    }

    @Test
    void payloadsStayWithTheirTargetsThroughInsertionsAndRemovals() {
        long t4 = Entity.pack(13, 0);
        edges.add(PAID, s1, t3, new Paid(t3, 3));
        edges.add(PAID, s1, t1, new Paid(t1, 1)); // before t3: both lists shift
        edges.add(PAID, s1, t2, new Paid(t2, 2)); // grown to room for four
        edges.add(PAID, s1, t4, new Paid(t4, 4)); // full
        assertEquals(new Paid(t1, 1), edges.payload(PAID, s1, t1), "the lowest target, at index 0");
        assertEquals(new Paid(t2, 2), edges.payload(PAID, s1, t2));
        assertEquals(new Paid(t3, 3), edges.payload(PAID, s1, t3));
        assertEquals(null, edges.payload(PAID, s1, Entity.pack(14, 0)), "no such edge");
        assertEquals(null, edges.payload(PAID, s2, t1), "a source without edges");
        assertTrue(edges.remove(PAID, s1, t2)); // from the middle of a full list
        assertArrayEquals(new long[] {t1, t3, t4}, edges.targets(PAID, s1));
        StringBuilder seen = new StringBuilder();
        edges.forEach(PAID, s1, (target, payload) -> seen.append(((Paid) payload).amount()));
        assertEquals("134", seen.toString());
        assertTrue(edges.remove(PAID, s1, t1)); // from the front
        assertEquals(new Paid(t3, 3), edges.payload(PAID, s1, t3));
        assertEquals(new Paid(t4, 4), edges.payload(PAID, s1, t4));
        edges.add(MANY, s1, t1, null);
        assertEquals(null, edges.payload(MANY, s1, t1), "a target-only relationship");
    }

    @Test
    void aTargetRemovedFromTheMiddleLeavesTheOthersInOrder() {
        long t4 = Entity.pack(13, 0);
        for (long t : new long[] {t1, t2, t3, t4}) {
            edges.add(MANY, s1, t, null);
        }
        assertTrue(edges.remove(MANY, s1, t2));
        assertArrayEquals(new long[] {t1, t3, t4}, edges.targets(MANY, s1));
        assertTrue(edges.remove(MANY, s1, t3));
        assertArrayEquals(new long[] {t1, t4}, edges.targets(MANY, s1));
        assertArrayEquals(new long[0], edges.sources(MANY, t2));
        assertArrayEquals(new long[] {s1}, edges.sources(MANY, t4));
    }

    @Test
    void aVisitSeesTheEdgesThereWhenItStartedThatAreStillThere() {
        edges.add(MANY, s1, t1, null);
        edges.add(MANY, s1, t2, null);
        edges.add(MANY, s1, t3, null);
        java.util.List<Long> seen = new java.util.ArrayList<>();
        edges.forEach(MANY, s1, (target, payload) -> {
            if (seen.isEmpty()) {
                edges.remove(MANY, s1, t3); // the list shrinks under the visit
            }
            seen.add(target);
        });
        assertEquals(java.util.List.of(t1, t2), seen);
        seen.clear();
        edges.forEach(MANY, s1, (target, payload) -> {
            if (seen.isEmpty()) {
                edges.add(MANY, s1, t3, null); // an edge added during the visit is not visited
            }
            seen.add(target);
        });
        assertEquals(java.util.List.of(t1, t2), seen);
        assertArrayEquals(new long[] {t1, t2, t3}, edges.targets(MANY, s1));
    }

    @Test
    void theSlotJustPastTheFirstSlotTablesIsEmptyAndTakesAnEdge() {
        long first = Entity.pack(16, 0); // the slot tables start with room for slots 0..15
        edges.add(ONE, s1, t1, null);
        edges.add(MANY, s1, t1, null);
        assertEquals(0, edges.firstTarget(ONE, first));
        assertEquals(0, edges.firstTarget(MANY, first));
        assertEquals(0, edges.count(ONE, first));
        assertEquals(0, edges.count(MANY, first));
        assertTrue(edges.add(ONE, first, t2, null));
        assertTrue(edges.add(MANY, first, t3, null));
        assertEquals(t2, edges.firstTarget(ONE, first));
        assertEquals(t3, edges.firstTarget(MANY, first));
        assertEquals(1, edges.count(MANY, first));
    }

    @Test
    void aRelationshipWithALowerIdThanEveryOtherIsListedFirst() {
        assertFalse(OWNED.id() < MANY.id(), "OWNED was registered after MANY");
        edges.add(OWNED, s1, t1, new Owner(t1, 1));
        edges.add(MANY, s1, t1, null);
        assertEquals(MANY, edges.relationshipAt(0));
        assertEquals(OWNED, edges.relationshipAt(1));
    }

    @Test
    void aSourceLeavesEveryRelationshipWhenTheListOfThemIsFull() {
        edges.add(MANY, s1, t1, null);
        edges.add(ONE, s1, t1, null);
        edges.add(PLAIN, s1, t1, null);
        edges.add(PAID, s1, t1, new Paid(t1, 1)); // four relationships: the list's first room
        assertEquals(4, edges.relationshipCount());
        edges.removeSource(s1);
        for (Relationship relationship : new Relationship[] {MANY, ONE, PLAIN}) {
            assertEquals(0, edges.count(relationship, s1));
        }
        assertEquals(0, edges.count(PAID, s1));
        assertFalse(edges.isEmpty(), "the relationships stay known");
    }

    @Test
    void sourceListsAreVisitedPerTargetAscending() {
        edges.forEachSourceList(MANY, (target, list, from, count) -> {
            throw new AssertionError("no edges yet");
        });
        edges.add(MANY, s2, t1, null);
        edges.add(MANY, s1, t1, null);
        edges.add(MANY, s1, t2, null);
        java.util.Map<Long, java.util.List<Long>> seen = new java.util.TreeMap<>();
        edges.forEachSourceList(MANY, (target, list, from, count) -> {
            java.util.List<Long> sources = new java.util.ArrayList<>();
            for (int i = from; i < from + count; i++) {
                sources.add(list[i]);
            }
            assertEquals(null, seen.put(target, sources), "each target once");
        });
        assertEquals(java.util.Map.of(t1, java.util.List.of(s1, s2), t2, java.util.List.of(s1)), seen);
        edges.add(PLAIN, s1, t1, null);
        assertThrows(IllegalStateException.class, () -> edges.forEachSourceList(PLAIN, (t, l, f, c) -> { }));
    }

    @Test
    void aDeadTargetAndTheNextEntityOfItsSlotKeepSourcesApart() {
        long dead = Entity.pack(10, 0); // sources of a non-cascading relationship keep a dead target's id
        long next = Entity.pack(10, 1); // the slot's next entity gains sources of its own
        edges.add(MANY, s1, dead, null);
        edges.add(MANY, s2, next, null);
        edges.add(ONE, s1, next, null);
        edges.add(ONE, s2, dead, null);
        assertArrayEquals(new long[] {s1}, edges.sources(MANY, dead));
        assertArrayEquals(new long[] {s2}, edges.sources(MANY, next));
        assertArrayEquals(new long[] {s2}, edges.sources(ONE, dead));
        assertArrayEquals(new long[] {s1}, edges.sources(ONE, next));
        java.util.Map<Long, Integer> counts = new java.util.HashMap<>();
        edges.forEachSourceList(MANY, (target, list, from, count) -> counts.put(target, count));
        assertEquals(java.util.Map.of(dead, 1, next, 1), counts);
        edges.removeSource(s1); // s1 leaves the dead target (MANY) and the next one (ONE)
        assertEquals(0, edges.sourceCount(MANY, dead));
        assertEquals(0, edges.sourceCount(ONE, next));
        assertArrayEquals(new long[] {s2}, edges.sources(MANY, next));
        assertArrayEquals(new long[] {s2}, edges.sources(ONE, dead));
        edges.add(MANY, s1, dead, null); // the dead id's list again, now that the slot's cell holds the next one
        assertArrayEquals(new long[] {s1}, edges.sources(MANY, dead));
        assertArrayEquals(new long[] {s2}, edges.sources(MANY, next));
    }

    @Test
    void sourcesNeedAReverseIndex() {
        edges.add(PLAIN, s1, t1, null);
        assertThrows(IllegalStateException.class, () -> edges.sources(PLAIN, t1));
        assertEquals(0, edges.sourceCount(PLAIN, t1));
        assertArrayEquals(new long[] {t1}, edges.targets(PLAIN, s1), "unchanged by the refused lookup");
    }

    /** The whole store, every relationship: each source's targets with payloads, each target's sources. */
    private static String dump(SparseEdges store, long... ids) {
        StringBuilder out = new StringBuilder();
        for (dev.jtecs.component.BaseRelationship<?> relationship : java.util.List.of(MANY, ONE, PLAIN, PAID, OWNED)) {
            for (long id : ids) {
                out.append(relationship.name()).append(' ').append(id).append(" ->");
                store.forEach(relationship, id, (target, payload) -> out.append(' ').append(target).append('=')
                        .append(payload));
                if (relationship != PLAIN && relationship != PAID) {
                    out.append(" <-").append(java.util.Arrays.toString(store.sources(relationship, id)));
                }
                out.append('\n');
            }
        }
        return out.toString();
    }

    /**
     * Runs {@code call} with the first heap growth failed, then the second, and so on until it succeeds, checking
     * after each failure that {@code state} reads as before it; returns how many failures it injected.
     */
    private static int failEachGrowthInTurn(Runnable call, java.util.function.Supplier<String> state, String where) {
        for (int k = 1; ; k++) {
            String before = state.get();
            dev.jtecs.entity.internal.AllocationFaults.failAt(dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP, k);
            try {
                call.run();
                return k - 1;
            } catch (OutOfMemoryError e) {
                assertEquals(before, state.get(), where + " k=" + k);
            } finally {
                dev.jtecs.entity.internal.AllocationFaults.disarm();
            }
        }
    }

    record Paid(long target, int amount) {}

    static final dev.jtecs.component.RelationshipDefinition<Paid> PAID = Relationships.register(Paid.class,
            o -> o.name("test.sparse.Paid").sparse());

    @Test
    void anAddWhoseAllocationFailsChangesNothing() {
        // every k-th heap growth of every add in a script that grows slot tables, target lists, payload arrays,
        // reverse-index lists and the reverse-index map, and replaces exclusive edges
        long seed = new java.util.SplittableRandom().nextLong();
        System.out.println("SparseEdgesTest.anAddWhoseAllocationFailsChangesNothing seed=" + seed);
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        long[] ids = new long[40];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = Entity.pack(i * 7 + 1, i % 3);
        }
        SparseEdges store = new SparseEdges(new StructureClock());
        int injected = 0;
        for (int step = 0; step < 300; step++) {
            Relationship[] kinds = {MANY, ONE, PLAIN};
            int pick = random.nextInt(8);
            boolean paid = pick < 2;
            boolean owned = pick == 2; // an exclusive relationship with payloads: the one-per-slot layout
            long source = ids[random.nextInt(ids.length)];
            long target = ids[random.nextInt(ids.length)];
            Paid payload = new Paid(target, step);
            Relationship kind = kinds[step % 3];
            int at = step;
            injected += failEachGrowthInTurn(() -> {
                if (owned) {
                    store.add(OWNED, source, target, new Owner(target, at));
                } else if (paid) {
                    store.add(PAID, source, target, payload);
                } else {
                    store.add(kind, source, target, null);
                }
            }, () -> dump(store, ids), "seed=" + seed + " step=" + step);
        }
        assertTrue(injected > 20, "the script reached growths to fail: " + injected);
    }
    @Test
    void sourcesMovingAmongTargetsReuseTheReverseIndexListsTheirTargetsGaveUp() {
        long[] parents = {Entity.pack(100, 0), Entity.pack(101, 0), Entity.pack(102, 0)};
        long[] children = new long[20];
        for (int i = 0; i < children.length; i++) {
            children[i] = Entity.pack(200 + i, 0);
            edges.add(ONE, children[i], parents[0], null);
        }
        for (int round = 1; round <= 3; round++) { // warm: each parent's list has grown once, the others stashed
            for (long child : children) {
                edges.add(ONE, child, parents[round % 3], null);
            }
        }
        dev.jtecs.entity.internal.AllocationFaults.failAt(dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP, 1);
        try {
            org.junit.jupiter.api.Assertions.assertDoesNotThrow(() -> {
                for (int round = 4; round <= 9; round++) { // every list a parent needs is one another gave up
                    for (long child : children) {
                        edges.add(ONE, child, parents[round % 3], null);
                    }
                }
            }, "no reverse-index list is allocated once the parents' lists exist");
        } finally {
            dev.jtecs.entity.internal.AllocationFaults.disarm();
        }
        long current = parents[9 % 3];
        assertEquals(children.length, edges.sourceCount(ONE, current));
        assertArrayEquals(children, edges.sources(ONE, current), "ascending, every child once");
        for (long parent : parents) {
            if (parent != current) {
                assertEquals(0, edges.sourceCount(ONE, parent));
                assertEquals(0, edges.sources(ONE, parent).length);
            }
        }
        for (long child : children) {
            assertEquals(current, edges.firstTarget(ONE, child));
        }
    }

    /** A list that grows takes a stashed list long enough for it, though a shorter one was stashed before. */
    @Test
    void aGrowingListTakesAStashedListLongEnoughNotTheFirstStashed() {
        long grower = Entity.pack(300, 0);
        long other = Entity.pack(301, 0);
        long[] three = new long[4];
        for (int i = 0; i < 3; i++) {
            three[i] = Entity.pack(400 + i, 0);
            edges.add(MANY, three[i], grower, null); // a list of 4 elements: full at 3 sources
        }
        long[] eight = new long[8];
        for (int i = 0; i < eight.length; i++) {
            eight[i] = Entity.pack(500 + i, 0);
            edges.add(MANY, eight[i], other, null); // grows 4 to 8 to 16: the lists of 4 and 8 are stashed
        }
        three[3] = Entity.pack(403, 0);
        edges.add(MANY, three[3], grower, null); // grows to 8: the stashed list of 8 serves, not the one of 4
        assertArrayEquals(three, edges.sources(MANY, grower));
        assertArrayEquals(eight, edges.sources(MANY, other));
    }

    /** The stash keeps 16 emptied lists; a seventeenth is let go. */
    @Test
    void aFullStashLetsTheNextEmptiedListGo() {
        long source = Entity.pack(600, 0);
        long[] targets = new long[17];
        for (int i = 0; i < targets.length; i++) {
            targets[i] = Entity.pack(700 + i, 0);
            edges.add(MANY, source, targets[i], null);
        }
        for (long target : targets) {
            edges.remove(MANY, source, target); // each list emptied: the first 16 are stashed
        }
        for (long target : targets) {
            assertEquals(0, edges.sourceCount(MANY, target));
        }
        long later = Entity.pack(800, 0);
        edges.add(MANY, source, later, null);
        assertArrayEquals(new long[] {source}, edges.sources(MANY, later));
    }

    @Test
    void aClearLetsGoOfTheListsKeptForReuse() {
        long source = Entity.pack(600, 0);
        for (int i = 0; i < 3; i++) {
            edges.add(MANY, source, Entity.pack(700 + i, 0), null);
        }
        for (int i = 0; i < 3; i++) {
            edges.remove(MANY, source, Entity.pack(700 + i, 0)); // each emptied list is kept for a next target
        }
        assertEquals(3, edges.stashReferences());
        edges.clear();
        assertEquals(0, edges.stashReferences(), "a cleared store holds no list of the edges it dropped");
        edges.add(MANY, source, t1, null); // and takes edges again
        assertArrayEquals(new long[] {source}, edges.sources(MANY, t1));
    }

    @Test
    void aReusedListCarriesNoSourceOfItsFormerTarget() {
        long a = Entity.pack(1, 0);
        long b = Entity.pack(2, 0);
        long c = Entity.pack(3, 0);
        edges.add(MANY, a, t1, null);
        edges.add(MANY, b, t1, null);
        edges.add(MANY, c, t1, null);
        edges.remove(MANY, a, t1);
        edges.remove(MANY, b, t1);
        edges.remove(MANY, c, t1); // t1's list emptied: stashed
        edges.add(MANY, b, t2, null); // t2's new list is t1's old one
        assertArrayEquals(new long[] {b}, edges.sources(MANY, t2));
        assertEquals(0, edges.sourceCount(MANY, t1));
        edges.add(MANY, a, t2, null);
        edges.add(MANY, c, t2, null);
        assertArrayEquals(new long[] {a, b, c}, edges.sources(MANY, t2));
        edges.clear();
        edges.add(MANY, c, t3, null); // a clear drops the stash: nothing carried over either way
        assertArrayEquals(new long[] {c}, edges.sources(MANY, t3));
    }

    /** Lists emptied by removals in any order, and lists outgrown, wait in the stash as zeros only. */
    @Test
    void stashedListsHoldNoSourceIdWhetherEmptiedOrOutgrown() {
        long[] sources = new long[9];
        for (int i = 0; i < sources.length; i++) {
            sources[i] = Entity.pack(900 + i, 1);
        }
        long[] targets = {Entity.pack(950, 0), Entity.pack(951, 0), Entity.pack(952, 0)};
        for (long target : targets) {
            for (long source : sources) { // 9 sources: the list grows from 4 to 8 to 16, the outgrown two stashed
                edges.add(MANY, source, target, null);
            }
        }
        assertStashHoldsZerosOnly("an outgrown list is cleared before it is stashed");
        for (int i = 0; i < sources.length; i++) { // first to last, last to first, middle outwards
            edges.remove(MANY, sources[i], targets[0]);
            edges.remove(MANY, sources[sources.length - 1 - i], targets[1]);
            edges.remove(MANY, sources[(4 + (i % 2 == 0 ? i / 2 : -(i + 1) / 2))], targets[2]);
        }
        for (long target : targets) {
            assertEquals(0, edges.sourceCount(MANY, target));
        }
        assertStashHoldsZerosOnly("an emptied list is zeros already when it is stashed");
    }

    /**
     * A dying target whose sources all died before it was told loses its lists whole (exclusive and not, as zeros
     * in the stash), a list with a source still alive stays as it was, and the sources' own edges are removed
     * afterwards as usual, each finding no list to leave.
     */
    @Test
    void aTargetWhoseSourcesAllDiedLosesItsListsWhole() {
        long parent = Entity.pack(60, 2);
        long other = Entity.pack(61, 0);
        long[] children = {Entity.pack(70, 0), Entity.pack(71, 4), Entity.pack(72, 0)};
        for (long child : children) {
            edges.add(ONE, child, parent, null);
            edges.add(MANY, child, parent, null);
            edges.add(MANY, child, other, null);
        }
        edges.add(PLAIN, children[0], parent, null); // no reverse index: nothing to drop
        java.util.Set<Long> dead = new java.util.HashSet<>(java.util.List.of(children[0], children[1], children[2]));
        long one = clock.version(ONE.id());
        long many = clock.version(MANY.id());
        assertFalse(edges.dropListsOfDeadSources(other, id -> !dead.contains(id)), "no list is left");
        assertEquals(0, edges.sourceCount(MANY, other), "every source of other is dead: its list went");
        assertEquals(many + 1, clock.version(MANY.id()), "a dropped list is a change of the edges");
        dead.remove(children[1]); // one source of parent lives on: the last in the list (its generation is highest)
        assertFalse(edges.dropListsOfDeadSources(parent, id -> !dead.contains(id)),
                "the lists left are of relationships that do not cascade");
        long[] ascending = children.clone();
        java.util.Arrays.sort(ascending); // by id: the generation first
        assertArrayEquals(ascending, edges.sources(ONE, parent), "a live source keeps the whole list");
        assertArrayEquals(ascending, edges.sources(MANY, parent));
        assertEquals(one, clock.version(ONE.id()), "nothing dropped: no change");
        edges.add(CASCADING, children[1], parent, null); // the live one: a cascading list is left to settle
        assertTrue(edges.dropListsOfDeadSources(parent, id -> !dead.contains(id)));
        assertArrayEquals(new long[] {children[1]}, edges.sources(CASCADING, parent));
        dead.add(children[1]);
        assertFalse(edges.dropListsOfDeadSources(parent, id -> !dead.contains(id)));
        assertEquals(0, edges.sourceCount(CASCADING, parent));
        assertEquals(0, edges.sourceCount(ONE, parent));
        assertEquals(0, edges.sourceCount(MANY, parent));
        assertEquals(one + 1, clock.version(ONE.id()));
        assertStashHoldsZerosOnly("a dropped list is cleared before it is stashed");
        assertEquals(parent, edges.firstTarget(ONE, children[0]), "the sources' own edges wait for their turn");
        for (long child : children) {
            edges.removeSource(child); // finds no list to leave
            assertEquals(0, edges.count(ONE, child));
            assertEquals(0, edges.count(MANY, child));
        }
        assertEquals(0, edges.count(PLAIN, children[0]));
        edges.add(ONE, children[0], parent, null); // the index works on: a new list for the same target
        assertArrayEquals(new long[] {children[0]}, edges.sources(ONE, parent));
    }

    private void assertStashHoldsZerosOnly(String why) {
        long[][] stashed = edges.stashedLists();
        assertTrue(stashed.length > 0, "lists were stashed");
        for (long[] list : stashed) {
            assertArrayEquals(new long[list.length], list, why);
        }
    }

    /**
     * Removing the edges of a run of sources at once leaves the store as removing each source in turn does (targets
     * and reverse lists), over random edges of every kind between 40 entities, a random run of them dying;
     * each relationship's counter ticks once for the run when it lost an edge, not at all otherwise.
     */
    @Test
    void removingARunOfSourcesEqualsRemovingEachAndTicksEachRelationshipOnce() {
        long base = Long.getLong("jtecs.seed", new java.util.SplittableRandom().nextLong());
        System.out.println("SparseEdgesTest run seed " + base + " (replay: -Djtecs.seed=" + base + ")");
        Relationship[] kinds = {MANY, ONE, PLAIN, CASCADING};
        for (int round = 0; round < 200; round++) {
            long seed = base + round;
            java.util.Random random = new java.util.Random(seed);
            StructureClock runClock = new StructureClock();
            SparseEdges run = new SparseEdges(runClock);
            SparseEdges each = new SparseEdges(new StructureClock());
            long[] ids = new long[40];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = Entity.pack(i + 1, random.nextInt(3));
            }
            for (int e = random.nextInt(120); e > 0; e--) {
                Relationship kind = kinds[random.nextInt(kinds.length)];
                long source = ids[random.nextInt(ids.length)];
                long target = ids[random.nextInt(ids.length)];
                run.add(kind, source, target, null);
                each.add(kind, source, target, null);
            }
            int from = random.nextInt(ids.length);
            int to = from + random.nextInt(ids.length - from + 1);
            long[] before = new long[kinds.length];
            boolean[] holds = new boolean[kinds.length];
            for (int k = 0; k < kinds.length; k++) {
                before[k] = runClock.version(kinds[k].id());
                for (int i = from; i < to; i++) {
                    holds[k] |= run.count(kinds[k], ids[i]) > 0;
                }
            }
            run.removeSources(ids, from, to);
            for (int i = from; i < to; i++) {
                each.removeSource(ids[i]);
            }
            String where = "seed " + base + ", round " + round + ", run [" + from + ", " + to + ")";
            for (int k = 0; k < kinds.length; k++) {
                assertEquals(before[k] + (holds[k] ? 1 : 0), runClock.version(kinds[k].id()),
                        kinds[k] + ": one tick for the run when it lost an edge; " + where);
                for (long id : ids) {
                    assertArrayEquals(each.targets(kinds[k], id), run.targets(kinds[k], id), kinds[k] + " targets of "
                            + Entity.toString(id) + "; " + where);
                    if (kinds[k] != PLAIN) {
                        assertArrayEquals(each.sources(kinds[k], id), run.sources(kinds[k], id), kinds[k]
                                + " sources of " + Entity.toString(id) + "; " + where);
                    }
                }
            }
        }
    }

    /**
     * Runs of reparentings ({@link SparseEdges#addRun}) against the same edges added one by one, on twin stores:
     * random exclusive edges (target-only and with payloads), then runs of ascending sources that share a target
     * (or hold none) moved to another target, of every length, into lists empty, short, long and in between.
     */
    @Test
    void aRunOfReparentingsLeavesTheStoreAsAddsOneByOneWould() {
        long seed = Long.getLong("jtecs.seed", new java.util.SplittableRandom().nextLong());
        System.out.println("SparseEdgesTest reparenting runs seed " + seed + " (replay: -Djtecs.seed=" + seed + ")");
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        long[] ids = new long[60];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = Entity.pack(i * 3 + 1, i % 4);
        }
        java.util.Arrays.sort(ids); // a run's sources ascend as ids do
        StructureClock runClock = new StructureClock();
        SparseEdges runs = new SparseEdges(runClock);
        SparseEdges single = new SparseEdges(new StructureClock());
        int landed = 0;
        for (int step = 0; step < 400; step++) {
            boolean owned = step % 2 == 1;
            dev.jtecs.component.BaseRelationship<?> kind = owned ? OWNED : ONE;
            long old = random.nextInt(4) == 0 ? 0 : ids[random.nextInt(8)]; // few targets: long lists
            long target = ids[random.nextInt(8)];
            if (target == old) {
                continue;
            }
            long[] run = new long[ids.length];
            int n = 0;
            for (long id : ids) {
                if (runs.firstTarget(kind, id) == old && random.nextInt(3) != 0) {
                    run[n++] = id;
                }
            }
            if (n == 0) {
                continue;
            }
            int from = random.nextInt(2); // the run may start past the array's start
            long[] shifted = new long[from + n];
            System.arraycopy(run, 0, shifted, from, n);
            Object[] payloads = owned ? new Object[from + n] : null;
            for (int i = from; i < from + n; i++) {
                if (owned) {
                    payloads[i] = new Owner(target, step);
                }
                single.add(kind, shifted[i], target, owned ? payloads[i] : null);
            }
            long before = runClock.version(kind.id());
            assertTrue(runs.addRun(kind, shifted, from, from + n, target, payloads), "seed=" + seed + " step=" + step);
            assertEquals(before + 1, runClock.version(kind.id()), "one tick a run");
            assertEquals(dump(single, ids), dump(runs, ids), "seed=" + seed + " step=" + step);
            landed++;
        }
        assertTrue(landed > 100, "runs landed: " + landed);
        for (long[] list : runs.stashedLists()) {
            for (long element : list) {
                assertEquals(0, element, "no source id outlives its edge in a stashed list; seed=" + seed);
            }
        }
    }

    @Test
    void aRunNotOfThatFormChangesNothingAndSaysSo() {
        long a = Entity.pack(1, 0);
        long b = Entity.pack(2, 0);
        long c = Entity.pack(3, 0);
        edges.add(ONE, a, t1, null);
        edges.add(ONE, b, t1, null);
        edges.add(ONE, c, t2, null);
        String before = dump(edges, a, b, c, t1, t2, t3);
        long version = clock.version(ONE.id());
        assertFalse(edges.addRun(ONE, new long[] {b, a}, 0, 2, t3, null), "not ascending");
        assertFalse(edges.addRun(ONE, new long[] {a, b, c}, 0, 3, t3, null), "two old targets");
        assertFalse(edges.addRun(ONE, new long[] {a, b}, 0, 2, t1, null), "already there");
        assertFalse(edges.addRun(MANY, new long[] {a, b}, 0, 2, t3, null), "not exclusive");
        assertFalse(edges.addRun(ONE, new long[] {a, a}, 0, 2, t3, null), "one source twice");
        assertEquals(before, dump(edges, a, b, c, t1, t2, t3));
        assertEquals(version, clock.version(ONE.id()));
        SparseEdges fresh = new SparseEdges(new StructureClock());
        assertFalse(fresh.addRun(ONE, new long[] {b, a}, 0, 2, t3, null));
        assertFalse(fresh.addRun(ONE, new long[] {a, b, c}, 2, 2, t3, null), "an empty run, past the start");
        assertTrue(fresh.isEmpty(), "a refused run leaves a store that never held an edge without any");
        assertTrue(edges.addRun(ONE, new long[] {a, b}, 0, 2, t3, null));
        assertArrayEquals(new long[] {a, b}, edges.sources(ONE, t3));
        assertArrayEquals(new long[0], edges.sources(ONE, t1), "t1's emptied list left the index");
    }

    /**
     * A run merges into the new target's list wherever its sources fall: before every source the list holds (the
     * merge from the back then shifts the list's first entry too), between them and after them.
     */
    @Test
    void aRunMergesIntoTheTargetsListInIdOrder() {
        long[] held = {Entity.pack(10, 0), Entity.pack(20, 0), Entity.pack(30, 0)};
        long[] moving = {Entity.pack(5, 0), Entity.pack(15, 0), Entity.pack(25, 0), Entity.pack(35, 0)};
        SparseEdges each = new SparseEdges(new StructureClock());
        for (SparseEdges store : List.of(edges, each)) {
            for (long id : held) {
                store.add(ONE, id, t2, null);
            }
            for (long id : moving) {
                store.add(ONE, id, t1, null);
            }
        }
        for (long id : moving) {
            each.add(ONE, id, t2, null);
        }
        assertTrue(edges.addRun(ONE, moving, 0, moving.length, t2, null));
        assertArrayEquals(new long[] {moving[0], held[0], moving[1], held[1], moving[2], held[2], moving[3]},
                edges.sources(ONE, t2));
        assertEquals(dump(each, t1, t2), dump(edges, t1, t2));
    }

    /** A list with room for exactly the sources it is given takes them without allocating, one by one or in a run. */
    @Test
    void aListThatFitsExactlyTakesItsSourcesWithoutAllocating() {
        assertTrue(dev.jtecs.entity.internal.AllocationFaults.ENABLED, "armed faults: -Djtecs.allocationFaults=true");
        // a new list has room for three sources (its header and three entries)
        long[] sources = {Entity.pack(1, 0), Entity.pack(2, 0), Entity.pack(3, 0), Entity.pack(4, 0),
            Entity.pack(5, 0), Entity.pack(6, 0)};
        edges.add(ONE, sources[0], t1, null);
        edges.add(ONE, sources[1], t1, null);
        assertEquals(0, failEachGrowthInTurn(() -> edges.add(ONE, sources[2], t1, null), () -> dump(edges, t1),
                "the third source"), "the third source fills the list without a growth");
        assertArrayEquals(java.util.Arrays.copyOf(sources, 3), edges.sources(ONE, t1));
        edges.add(ONE, sources[3], t2, null);
        edges.add(ONE, sources[4], t3, null);
        edges.add(ONE, sources[5], t3, null);
        long[] run = {sources[4], sources[5]};
        assertEquals(0, failEachGrowthInTurn(() -> edges.addRun(ONE, run, 0, 2, t2, null), () -> dump(edges, t2, t3),
                "a run of two into a list of one"), "a run that fills the list makes no growth");
        assertArrayEquals(new long[] {sources[3], sources[4], sources[5]}, edges.sources(ONE, t2));
    }

    @Test
    void aRunWhoseAllocationFailsChangesNothing() {
        long[] children = new long[40];
        for (int i = 0; i < children.length; i++) {
            // the last ten far beyond the others: the slot table grows for their run
            children[i] = Entity.pack(i < 30 ? 20 + i * 50 : 5000 + i * 50, 1);
        }
        long[] parents = {Entity.pack(3, 0), Entity.pack(4, 0)};
        for (long child : java.util.Arrays.copyOf(children, 30)) {
            edges.add(ONE, child, parents[0], null);
        }
        long[] all = new long[children.length + 2];
        System.arraycopy(children, 0, all, 0, children.length);
        all[children.length] = parents[0];
        all[children.length + 1] = parents[1];
        int injected = 0;
        long[][] runs = {java.util.Arrays.copyOfRange(children, 30, 40), // no old target, a new list
            java.util.Arrays.copyOfRange(children, 0, 25), // into a list that grows
            java.util.Arrays.copyOfRange(children, 25, 40)}; // two old targets: refused before any growth
        for (long[] run : runs) {
            injected += failEachGrowthInTurn(() -> edges.addRun(ONE, run, 0, run.length, parents[1], null),
                    () -> dump(edges, all), "run of " + run.length);
        }
        assertTrue(injected >= 2, "the runs reached growths to fail: " + injected);
        assertEquals(35, edges.sourceCount(ONE, parents[1]));
    }
}
