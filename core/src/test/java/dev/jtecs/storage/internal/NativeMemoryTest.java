package dev.jtecs.storage.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

class NativeMemoryTest {
    @Test
    void allocatesZeroedAlignedBuffersAndAccountsBytes() {
        try (NativeMemory memory = new NativeMemory()) {
            MemorySegment a = memory.allocate(100);
            MemorySegment b = memory.allocate(256);
            assertEquals(0, a.address() % NativeMemory.ALIGNMENT);
            assertEquals(0, b.address() % NativeMemory.ALIGNMENT);
            assertEquals(0, a.get(ValueLayout.JAVA_BYTE, 99));
            assertEquals(356, memory.reservedBytes());
            assertEquals(2, memory.liveBuffers());
            memory.free(a);
            assertEquals(256, memory.reservedBytes());
            assertEquals(1, memory.liveBuffers());
            assertEquals(2, memory.totalAllocations());
        }
    }

    @Test
    void freedSmallBuffersAreRecycledZeroedWithoutNewSlabs() {
        try (NativeMemory memory = new NativeMemory()) {
            MemorySegment a = memory.allocate(4096);
            a.set(ValueLayout.JAVA_LONG, 8, 42L);
            long footprint = memory.footprintBytes();
            memory.free(a);
            for (int i = 0; i < 100; i++) {
                MemorySegment b = memory.allocate(4000);
                assertEquals(0L, b.get(ValueLayout.JAVA_LONG, 8), "recycled blocks are zeroed");
                assertEquals(4000, b.byteSize(), "buffers have exactly the requested size");
                b.set(ValueLayout.JAVA_LONG, 8, 7L);
                memory.free(b);
            }
            assertEquals(footprint, memory.footprintBytes());
            assertEquals(0, memory.reservedBytes());
        }
    }

    @Test
    void largeBuffersHaveTheirOwnArenaAndAreReleasedOnFree() {
        try (NativeMemory memory = new NativeMemory(null)) {
            long big = NativeMemory.LARGE_BYTES + 1;
            MemorySegment segment = memory.allocate(big);
            assertEquals(0, segment.address() % NativeMemory.ALIGNMENT);
            assertTrue(memory.footprintBytes() >= big);
            assertTrue(memory.footprintBytes() < big + 4096, "at most 63 spare lines ahead of it");
            memory.free(segment);
            assertEquals(0, memory.footprintBytes(), "its arena returned everything");
            assertThrows(IllegalStateException.class, () -> segment.get(ValueLayout.JAVA_BYTE, 0));
            assertEquals(0, memory.reservedBytes());
        }
    }

    /**
     * Buffers allocated one after another start on different cache lines of a page (their addresses differ in
     * bits 6 to 11), so a loop over several columns never meets 4K aliasing: blocks of one class carved back to
     * back from a slab, and large buffers that each get an arena of their own.
     */
    @Test
    void successiveBuffersStartOnDifferentLinesOfAPage() {
        // without a pool, and with a fresh one (blocks some other test left in the process's pool keep their leads)
        successiveBuffersStartOnDifferentLinesOfAPage(new NativeMemory(null));
        successiveBuffersStartOnDifferentLinesOfAPage(new NativeMemory(new LargeBlockPool(64L << 20)));
    }

    private static void successiveBuffersStartOnDifferentLinesOfAPage(NativeMemory allocator) {
        try (NativeMemory memory = allocator) {
            memory.allocate(64); // a slab to carve from
            for (long size : new long[] {NativeMemory.STAGGER_FROM_BYTES, 2560, 4096, 65_536, NativeMemory.LARGE_BYTES,
                NativeMemory.LARGE_BYTES + 1, 4L << 20}) {
                boolean large = size > NativeMemory.LARGE_BYTES;
                // the blocks one fresh slab yields in a row (a run may straddle two slabs: take half)
                int buffers = large ? 64 : (int) Math.min(64, (1 << 20) / (2 * Long.highestOneBit(2 * size - 1)));
                java.util.Set<Long> lines = new java.util.HashSet<>();
                for (int i = 0; i < buffers; i++) {
                    MemorySegment segment = memory.allocate(size);
                    assertEquals(0, segment.address() % NativeMemory.ALIGNMENT, "size " + size);
                    assertEquals(size, segment.byteSize());
                    lines.add(segment.address() % 4096);
                }
                assertTrue(lines.size() >= buffers - 1, lines.size() + " distinct offsets in a page for " + buffers
                        + " buffers of " + size + " bytes (one may repeat where a run crosses into a new slab)");
            }
        }
    }

    @Test
    void aSlabHoldsFourStaggeredBlocksOfTheLargestSmallClass() {
        try (NativeMemory memory = new NativeMemory()) {
            memory.allocate(NativeMemory.LARGE_BYTES);
            long oneSlab = memory.footprintBytes();
            for (int i = 1; i < 4; i++) {
                memory.allocate(NativeMemory.LARGE_BYTES);
            }
            assertEquals(oneSlab, memory.footprintBytes(), "the spare lines fit beside four 256 KiB blocks");
        }
    }

    /**
     * Slabs whose blocks are all freed go back to the system, all but one spare: what a column outgrew while
     * doubling is not held for the world's lifetime. Their buffers are then inaccessible, never handed out again.
     */
    @Test
    void emptiedSlabsGoBackToTheSystemButOneSpare() {
        try (NativeMemory memory = new NativeMemory()) {
            memory.keepOneEmptySlab(); // as after churn (see aFreshSlabAfterOneWentBackStartsKeepingOneEmpty)
            MemorySegment[] first = new MemorySegment[4];
            MemorySegment[] second = new MemorySegment[4];
            MemorySegment[] third = new MemorySegment[4];
            allocateSlabBlocks(memory, first);
            long oneSlab = memory.footprintBytes();
            allocateSlabBlocks(memory, second);
            allocateSlabBlocks(memory, third); // the slab being carved
            assertEquals(3, memory.heldSlabs());
            assertEquals(3 * oneSlab, memory.footprintBytes());
            for (MemorySegment segment : first) {
                memory.free(segment);
            }
            assertEquals(3, memory.heldSlabs(), "the first empty slab is kept as the spare");
            for (MemorySegment segment : second) {
                memory.free(segment);
            }
            assertEquals(2, memory.heldSlabs(), "a second empty slab goes back");
            assertEquals(2 * oneSlab, memory.footprintBytes());
            long released = 0;
            for (MemorySegment segment : first) {
                released += inaccessible(segment) ? 1 : 0;
            }
            for (MemorySegment segment : second) {
                released += inaccessible(segment) ? 1 : 0;
            }
            assertEquals(4, released, "exactly one slab's buffers are gone with it");
            java.util.Set<Long> reused = new java.util.HashSet<>();
            for (int i = 0; i < 4; i++) { // served from the spare's blocks: no slab is carved
                MemorySegment again = memory.allocate(NativeMemory.LARGE_BYTES);
                assertEquals(0L, again.get(ValueLayout.JAVA_LONG, 0));
                reused.add(again.address());
            }
            assertEquals(2 * oneSlab, memory.footprintBytes());
            assertEquals(4, reused.size());
            for (MemorySegment segment : third) {
                segment.set(ValueLayout.JAVA_LONG, 0, 1L); // the carved slab's buffers are untouched
                assertTrue(!reused.contains(segment.address()));
            }
            assertEquals(8 * NativeMemory.LARGE_BYTES, memory.reservedBytes());
        }
    }

    /**
     * The slab being carved counts as the one empty slab kept: when it empties, the spare goes back, and while it
     * is empty, a slab that empties goes back too. Its own free blocks are served again.
     */
    @Test
    void anEmptySlabBeingCarvedIsTheOneEmptySlabKept() {
        try (NativeMemory memory = new NativeMemory()) {
            memory.keepOneEmptySlab(); // as after churn (see aFreshSlabAfterOneWentBackStartsKeepingOneEmpty)
            MemorySegment[] first = new MemorySegment[4];
            MemorySegment[] second = new MemorySegment[4];
            allocateSlabBlocks(memory, first);
            long oneSlab = memory.footprintBytes();
            allocateSlabBlocks(memory, second);
            MemorySegment carved = memory.allocate(NativeMemory.LARGE_BYTES); // a third slab, being carved
            assertEquals(3, memory.heldSlabs());
            for (MemorySegment segment : first) {
                memory.free(segment);
            }
            assertEquals(3, memory.heldSlabs(), "the first slab is the spare");
            memory.free(carved);
            assertEquals(2, memory.heldSlabs(), "the carved slab emptied: the spare went back");
            assertEquals(2 * oneSlab, memory.footprintBytes());
            assertTrue(inaccessible(first[0]), "the spare's buffers went with it");
            for (MemorySegment segment : second) {
                memory.free(segment);
            }
            assertEquals(1, memory.heldSlabs(), "the carved slab is empty: no other empty slab is kept");
            assertEquals(oneSlab, memory.footprintBytes());
            assertEquals(0, memory.reservedBytes());
            MemorySegment again = memory.allocate(NativeMemory.LARGE_BYTES); // the carved slab's free block
            assertEquals(carved.address(), again.address());
            assertEquals(0L, again.get(ValueLayout.JAVA_LONG, 0));
            assertEquals(oneSlab, memory.footprintBytes());
        }
    }

    /**
     * A slab's worth of buffers freed and allocated in turn: the first round gives the emptied slab back and carves
     * a fresh one, which teaches the allocator that the world churns; every later round is served from the slab
     * that empties, kept as the spare: the same memory each round, no slab returned and carved again.
     */
    @Test
    void churnOfASlabsWorthIsServedFromTheSpare() {
        try (NativeMemory memory = new NativeMemory()) {
            MemorySegment[] blocks = new MemorySegment[12]; // three slabs of four, the last being carved
            allocateSlabBlocks(memory, blocks);
            long footprint = memory.footprintBytes();
            java.util.Set<Long> middle = null;
            for (int round = 0; round < 20; round++) {
                for (int i = 4; i < 8; i++) {
                    memory.free(blocks[i]); // the middle slab empties
                }
                assertEquals(round == 0 ? 2 : 3, memory.heldSlabs(), "round " + round + ": kept from round 1 on");
                assertEquals(round > 0, memory.keepsOneEmptySlab(), "round " + round);
                java.util.Set<Long> again = new java.util.HashSet<>();
                for (int i = 4; i < 8; i++) {
                    blocks[i] = memory.allocate(NativeMemory.LARGE_BYTES);
                    assertEquals(0L, blocks[i].get(ValueLayout.JAVA_LONG, 8), "round " + round);
                    blocks[i].set(ValueLayout.JAVA_LONG, 8, round + 1);
                    again.add(blocks[i].address());
                }
                assertTrue(memory.keepsOneEmptySlab(), "round " + round + ": learned by the fresh slab of round 0");
                if (middle != null) {
                    assertEquals(middle, again, "round " + round);
                }
                middle = again;
                assertEquals(footprint, memory.footprintBytes(), "round " + round);
                assertEquals(3, memory.heldSlabs(), "round " + round);
            }
        }
    }

    /**
     * A world that only grows keeps no empty slab: every slab whose buffers were all outgrown goes back, the slab
     * being carved too, and the next small buffer then carves a fresh slab. Carving one for a size that a returned
     * slab held free (a buffer of one size freed and allocated again) is what starts the keeping of one empty
     * slab; carving one for a new size (a column doubling) is not.
     */
    @Test
    void aFreshSlabAfterOneWentBackStartsKeepingOneEmpty() {
        try (NativeMemory memory = new NativeMemory()) {
            MemorySegment[] first = new MemorySegment[4];
            MemorySegment[] second = new MemorySegment[2];
            allocateSlabBlocks(memory, first);
            long oneSlab = memory.footprintBytes();
            allocateSlabBlocks(memory, second); // the slab being carved
            assertFalse(memory.keepsOneEmptySlab());
            for (MemorySegment segment : first) {
                memory.free(segment);
            }
            assertEquals(1, memory.heldSlabs(), "an emptied slab goes back: none is kept yet");
            assertTrue(inaccessible(first[0]));
            for (MemorySegment segment : second) {
                memory.free(segment);
            }
            assertEquals(0, memory.heldSlabs(), "the slab being carved goes back too once empty");
            assertEquals(0, memory.footprintBytes());
            assertTrue(inaccessible(second[1]));
            assertFalse(memory.keepsOneEmptySlab(), "giving back alone teaches nothing");
            MemorySegment small = memory.allocate(64); // a size no returned slab held free: what growth asks for
            assertFalse(memory.keepsOneEmptySlab(), "a fresh slab for a new size teaches nothing either");
            memory.free(small);
            assertEquals(0, memory.heldSlabs());
            MemorySegment fresh = memory.allocate(NativeMemory.LARGE_BYTES); // a size given up before: churn
            assertTrue(memory.keepsOneEmptySlab());
            assertEquals(oneSlab, memory.footprintBytes());
            assertEquals(0L, fresh.get(ValueLayout.JAVA_LONG, 0));
            memory.free(fresh);
            assertEquals(1, memory.heldSlabs(), "from now on the empty slab being carved is kept");
            MemorySegment again = memory.allocate(NativeMemory.LARGE_BYTES);
            assertEquals(fresh.address(), again.address(), "served from the kept slab's free block");
        }
    }

    /**
     * A slab that goes back counts as having held a size only when blocks of that size were free in it: a size whose
     * free blocks sit in another slab is not given up, and a fresh slab carved for it later starts no keeping.
     */
    @Test
    void aSizeFreeOnlyInAnotherSlabIsNotGivenUpWithTheSlabThatGoesBack() {
        try (NativeMemory memory = new NativeMemory()) {
            MemorySegment free = memory.allocate(128);
            memory.allocate(128); // keeps the first slab in use
            memory.free(free); // a free 128-byte block, in the first slab
            MemorySegment[] large = new MemorySegment[5];
            allocateSlabBlocks(memory, large); // four fill the first slab, the fifth carves a second
            assertEquals(2, memory.heldSlabs());
            memory.free(large[4]); // the second slab empties and goes back: it held no free 128-byte block
            assertEquals(1, memory.heldSlabs());
            assertEquals(free.address(), memory.allocate(128).address(), "the free block in the first slab");
            memory.allocate(128); // a fresh slab, for a size no returned slab held free
            assertEquals(2, memory.heldSlabs());
            assertFalse(memory.keepsOneEmptySlab());
        }
    }

    /**
     * Fills {@code into} with buffers of {@link NativeMemory#LARGE_BYTES}, the largest carved from slabs (four to a
     * slab), in order.
     */
    private static void allocateSlabBlocks(NativeMemory memory, MemorySegment[] into) {
        for (int i = 0; i < into.length; i++) {
            into[i] = memory.allocate(NativeMemory.LARGE_BYTES);
        }
    }

    private static boolean inaccessible(MemorySegment segment) {
        try {
            segment.get(ValueLayout.JAVA_BYTE, 0);
            return false;
        } catch (IllegalStateException closed) {
            return true;
        }
    }

    @Test
    void aSlabThatGoesBackLeavesTheOtherFreeBlocksOfItsSizeInTheirOrder() {
        try (NativeMemory memory = new NativeMemory()) {
            MemorySegment[] first = new MemorySegment[4];
            MemorySegment[] second = new MemorySegment[4];
            allocateSlabBlocks(memory, first); // fill the first slab
            allocateSlabBlocks(memory, second); // and a second
            assertEquals(2, memory.heldSlabs());
            // the free list, newest first, ends up second[3], second[2], second[1], first[2], second[0], first[1]
            memory.free(first[1]);
            memory.free(second[0]);
            memory.free(first[2]);
            memory.free(second[1]);
            memory.free(second[2]);
            memory.free(second[3]); // the second slab empties and goes back with its four free blocks
            assertEquals(1, memory.heldSlabs());
            assertEquals(first[2].address(), memory.allocate(NativeMemory.LARGE_BYTES).address());
            assertEquals(first[1].address(), memory.allocate(NativeMemory.LARGE_BYTES).address());
            assertEquals(1, memory.heldSlabs(), "no block of the slab that went back was handed out");
            memory.allocate(NativeMemory.LARGE_BYTES); // none free: a fresh slab
            assertEquals(2, memory.heldSlabs());
        }
    }

    @Test
    void freeingSmallBuffersAllocatesNothing() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        try (NativeMemory memory = new NativeMemory()) {
            MemorySegment keep = memory.allocate(64); // the slab stays in use
            MemorySegment[] buffers = new MemorySegment[4096];
            for (int i = 0; i < buffers.length; i++) {
                buffers[i] = memory.allocate(64);
            }
            long before = threads.getCurrentThreadAllocatedBytes();
            for (MemorySegment buffer : buffers) {
                memory.free(buffer); // a free list that had to grow could fail here, the block already let go
            }
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertEquals(0, allocated, "bytes allocated by 4,096 frees");
            assertEquals(1, memory.liveBuffers());
            memory.free(keep);
        }
    }

    @Test
    void manySizesStayAlignedAndDisjoint() {
        try (NativeMemory memory = new NativeMemory()) {
            java.util.List<MemorySegment> live = new java.util.ArrayList<>();
            long seed = 11;
            java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
            for (int i = 0; i < 2000; i++) {
                if (!live.isEmpty() && random.nextInt(3) == 0) {
                    memory.free(live.remove(random.nextInt(live.size())));
                } else {
                    MemorySegment s = memory.allocate(random.nextLong(1, 300_000));
                    assertEquals(0, s.address() % NativeMemory.ALIGNMENT, "seed=" + seed);
                    s.fill((byte) i);
                    live.add(s);
                }
            }
            live.sort(java.util.Comparator.comparingLong(MemorySegment::address));
            for (int i = 1; i < live.size(); i++) {
                MemorySegment prev = live.get(i - 1);
                assertTrue(prev.address() + prev.byteSize() <= live.get(i).address(), "overlap, seed=" + seed);
            }
        }
    }

    @Test
    void freeingTwiceOrForeignSegmentsIsRejected() {
        try (NativeMemory memory = new NativeMemory()) {
            MemorySegment a = memory.allocate(8);
            memory.free(a);
            assertThrows(IllegalArgumentException.class, () -> memory.free(a));
            assertThrows(IllegalArgumentException.class, () -> memory.free(MemorySegment.ofArray(new byte[8])));
            assertThrows(IllegalArgumentException.class, () -> memory.allocate(0));
            assertEquals(0, memory.reservedBytes());
        }
    }

    @Test
    void closeFreesEverythingAndRejectsLaterUse() {
        NativeMemory memory = new NativeMemory();
        MemorySegment a = memory.allocate(64);
        memory.close();
        memory.close();
        assertTrue(memory.isClosed());
        assertEquals(0, memory.reservedBytes());
        assertEquals(0, memory.liveBuffers());
        assertThrows(IllegalStateException.class, () -> a.get(ValueLayout.JAVA_BYTE, 0));
        assertThrows(IllegalStateException.class, () -> memory.allocate(8));
        assertThrows(IllegalStateException.class, () -> memory.free(a));
    }

    @Test
    void theProcessTotalFollowsEveryOpenAllocatorAndDropsOnClose() {
        theProcessTotalFollowsEveryOpenAllocatorAndDropsOnClose(new NativeMemory(null)); // large buffers: own arenas
        theProcessTotalFollowsEveryOpenAllocatorAndDropsOnClose(new NativeMemory(new LargeBlockPool(8L << 20)));
    }

    private static void theProcessTotalFollowsEveryOpenAllocatorAndDropsOnClose(NativeMemory memory) {
        long baseline = NativeMemory.heldByAllOpen() - memory.footprintBytes();
        memory.allocate(100); // carves a first slab
        MemorySegment large = memory.allocate(NativeMemory.LARGE_BYTES + 64);
        assertEquals(baseline + memory.footprintBytes(), NativeMemory.heldByAllOpen());
        memory.free(large);
        assertEquals(baseline + memory.footprintBytes(), NativeMemory.heldByAllOpen());
        memory.allocate(NativeMemory.LARGE_BYTES * 2); // left for close() to return
        assertEquals(baseline + memory.footprintBytes(), NativeMemory.heldByAllOpen());
        memory.close();
        assertEquals(baseline, NativeMemory.heldByAllOpen());
        memory.close(); // idempotent: nothing is taken off twice
        assertEquals(baseline, NativeMemory.heldByAllOpen());
    }

    @Test
    void aRecycledBlockIsHandedOutOnceUntilFreedAgain() {
        try (NativeMemory memory = new NativeMemory()) {
            MemorySegment a = memory.allocate(1000);
            MemorySegment keep = memory.allocate(1000); // the slab stays in use
            memory.free(a);
            MemorySegment b = memory.allocate(1000); // a's block, from the free list
            MemorySegment c = memory.allocate(1000); // must be another block
            assertTrue(b.address() + b.byteSize() <= c.address() || c.address() + c.byteSize() <= b.address(),
                    "two live buffers overlap");
            b.set(ValueLayout.JAVA_LONG, 0, 11L);
            c.set(ValueLayout.JAVA_LONG, 0, 22L);
            assertEquals(11L, b.get(ValueLayout.JAVA_LONG, 0));
            assertEquals(3, memory.liveBuffers());
            memory.free(keep);
        }
    }

    @Test
    void liveBuffersCountSmallAndLargeOnesAndCloseLetsGoOfBoth() {
        NativeMemory memory = new NativeMemory();
        assertFalse(memory.isClosed());
        MemorySegment small = memory.allocate(64);
        MemorySegment large = memory.allocate(NativeMemory.LARGE_BYTES + 64);
        assertEquals(2, memory.liveBuffers());
        assertEquals(1, memory.heldSlabs());
        memory.close();
        assertEquals(0, memory.liveBuffers());
        assertEquals(0, memory.heldSlabs());
        assertThrows(IllegalStateException.class, () -> large.get(ValueLayout.JAVA_BYTE, 0), "the large arena closed");
        assertThrows(IllegalStateException.class, () -> small.get(ValueLayout.JAVA_BYTE, 0));
    }

    /**
     * The spare is the one empty slab kept: a spare whose block is handed out again is in use, no longer the spare,
     * so the next slab to empty takes its place; a slab that empties beside the spare goes back without touching
     * it, and the spare goes back once the slab being carved empties.
     */
    @Test
    void theSpareStopsBeingTheSpareWhenOneOfItsBlocksIsHandedOutAgain() {
        try (NativeMemory memory = new NativeMemory()) {
            memory.keepOneEmptySlab(); // as after churn (see aFreshSlabAfterOneWentBackStartsKeepingOneEmpty)
            MemorySegment[] first = new MemorySegment[4];
            MemorySegment[] second = new MemorySegment[4];
            java.util.Set<Long> firstAddresses = new java.util.HashSet<>();
            for (int i = 0; i < 4; i++) {
                first[i] = memory.allocate(NativeMemory.LARGE_BYTES);
                firstAddresses.add(first[i].address());
            }
            allocateSlabBlocks(memory, second);
            MemorySegment carved = memory.allocate(NativeMemory.LARGE_BYTES); // a third slab, being carved
            for (MemorySegment segment : first) {
                memory.free(segment);
            }
            assertEquals(3, memory.heldSlabs(), "the first slab is the spare");
            MemorySegment reused = memory.allocate(NativeMemory.LARGE_BYTES);
            assertTrue(firstAddresses.contains(reused.address()), "served from the spare");
            for (MemorySegment segment : second) {
                memory.free(segment);
            }
            assertEquals(3, memory.heldSlabs(), "the first slab is in use again: the second is the spare now");
            assertTrue(!inaccessible(second[0]));
            memory.free(reused);
            assertEquals(2, memory.heldSlabs(), "the first slab emptied beside the spare: it went back");
            assertTrue(inaccessible(first[1]));
            memory.free(carved);
            assertEquals(1, memory.heldSlabs(), "the carved slab emptied: the spare went back");
            assertTrue(inaccessible(second[0]));
            assertEquals(0, memory.reservedBytes());
        }
    }

    /**
     * A slab that is empty when the next one is carved (its blocks were all freed while it was being carved) is
     * kept as the spare, and is what the next blocks of its class are served from.
     */
    @Test
    void anEmptySlabLeftBehindByTheNextCarveIsKeptAsTheSpare() {
        try (NativeMemory memory = new NativeMemory()) {
            memory.keepOneEmptySlab(); // as after churn (see aFreshSlabAfterOneWentBackStartsKeepingOneEmpty)
            MemorySegment[] blocks = new MemorySegment[4];
            java.util.Set<Long> addresses = new java.util.HashSet<>();
            for (int i = 0; i < 4; i++) {
                blocks[i] = memory.allocate(NativeMemory.LARGE_BYTES); // the first slab, carved to its end
                addresses.add(blocks[i].address());
            }
            long oneSlab = memory.footprintBytes();
            for (MemorySegment segment : blocks) {
                memory.free(segment);
            }
            assertEquals(1, memory.heldSlabs(), "the slab being carved, empty");
            MemorySegment other = memory.allocate(8192); // no room left in it: a second slab
            assertEquals(2, memory.heldSlabs(), "the empty one stays as the spare");
            assertEquals(2 * oneSlab, memory.footprintBytes());
            MemorySegment again = memory.allocate(NativeMemory.LARGE_BYTES);
            assertTrue(addresses.contains(again.address()), "served from the spare's blocks");
            assertEquals(2, memory.heldSlabs());
            memory.free(other);
            memory.free(again);
            assertEquals(0, memory.reservedBytes());
        }
    }

    @Test
    void theDefaultAllocatorPoolsLargeBuffersWhereNativeAccessIsEnabled() {
        // the suite runs with --enable-native-access=ALL-UNNAMED, as the launcher does
        assertTrue(LargeBlockPool.ENABLED);
        long kept = NativeMemory.idleBlockBytes();
        long size = NativeMemory.LARGE_BYTES + 4096;
        MemorySegment segment;
        try (NativeMemory memory = new NativeMemory()) {
            segment = memory.allocate(size);
        }
        assertThrows(IllegalStateException.class, () -> segment.get(ValueLayout.JAVA_BYTE, 0));
        assertTrue(NativeMemory.idleBlockBytes() >= kept + size, "the closed allocator's block is kept");
        assertTrue(NativeMemory.releaseIdleBlocks() >= size);
        assertEquals(0, NativeMemory.idleBlockBytes());
    }

    @Test
    void aFreedLargeBufferIsReusedZeroedAndItsOldViewThrows() {
        LargeBlockPool pool = new LargeBlockPool(16L << 20);
        try (NativeMemory memory = new NativeMemory(pool)) {
            long size = 3L << 20;
            MemorySegment first = memory.allocate(size);
            first.fill((byte) 7);
            long address = first.address();
            long footprint = memory.footprintBytes();
            memory.free(first);
            assertThrows(IllegalStateException.class, () -> first.get(ValueLayout.JAVA_BYTE, 0),
                    "a freed buffer's view is closed although its memory is kept");
            assertEquals(0, memory.footprintBytes(), "a kept block belongs to no allocator");
            assertEquals(footprint, pool.idleBytes());

            MemorySegment second = memory.allocate(size);
            assertEquals(1, pool.reuses());
            assertEquals(address, second.address(), "the same memory, at the same lead");
            assertEquals(0, pool.idleBytes());
            assertEquals(footprint, memory.footprintBytes());
            assertEquals(size, second.byteSize());
            for (long at = 0; at < size; at += 4093) {
                assertEquals(0, second.get(ValueLayout.JAVA_BYTE, at), "reused memory is zeroed at " + at);
            }
            assertEquals(0, second.get(ValueLayout.JAVA_BYTE, size - 1));

            MemorySegment other = memory.allocate(size / 2); // no kept block fits: fresh memory
            assertEquals(1, pool.reuses());
            memory.free(other);
            assertEquals(1, pool.idleBlocks());
        }
        assertEquals(2, pool.idleBlocks(), "closing gave the live buffer's block back too");
        assertTrue(pool.release() > 0);
    }

    @Test
    void aBufferWhoseHeadTheCallerOverwritesIsZeroedFromTheHeadOnSmallAndLarge() {
        LargeBlockPool pool = new LargeBlockPool(16L << 20);
        try (NativeMemory memory = new NativeMemory(pool)) {
            memory.allocate(64); // keeps the slab in use, so that the small block freed below is the one reused
            for (long size : new long[] {4000, 3L << 20}) {
                MemorySegment dirty = memory.allocate(size);
                long address = dirty.address();
                dirty.fill((byte) 7);
                memory.free(dirty);
                long head = size / 2 + 3;
                MemorySegment grown = memory.allocate(size, head);
                assertEquals(address, grown.address(), "the freed memory, reused: " + size);
                assertEquals(size, grown.byteSize());
                for (long at = head; at < size; at += 61) {
                    assertEquals(0, grown.get(ValueLayout.JAVA_BYTE, at), "zero past the head at " + at);
                }
                assertEquals(0, grown.get(ValueLayout.JAVA_BYTE, size - 1));
                assertEquals(7, grown.get(ValueLayout.JAVA_BYTE, head - 1),
                        "the head is left as it was, for the caller's copy: " + size);
                memory.free(grown);
                MemorySegment whole = memory.allocate(size, size); // all head: nothing to zero, still valid
                assertEquals(size, whole.byteSize());
                memory.free(whole);
                MemorySegment zeroed = memory.allocate(size); // a plain allocation zeroes the head again
                assertEquals(0, zeroed.get(ValueLayout.JAVA_BYTE, 0));
                memory.free(zeroed);
            }
        }
    }

    @Test
    void aHeadOutsideTheBufferIsRefusedAndChangesNothing() {
        try (NativeMemory memory = new NativeMemory()) {
            memory.allocate(64);
            long reserved = memory.reservedBytes();
            int live = memory.liveBuffers();
            assertThrows(IllegalArgumentException.class, () -> memory.allocate(100, -1));
            assertThrows(IllegalArgumentException.class, () -> memory.allocate(100, 101));
            assertThrows(IllegalArgumentException.class, () -> memory.allocate(0, 0));
            assertEquals(reserved, memory.reservedBytes());
            assertEquals(live, memory.liveBuffers());
        }
    }

    @Test
    void aKeptBlockServesOnlyBuffersItHoldsWithinSixtyThreeLinesAndPrefersTheWantedLead() {
        LargeBlockPool pool = new LargeBlockPool(64L << 20);
        long size = 1L << 20;
        LargeBlockPool.Block exact = LargeBlockPool.allocate(size + 5 * NativeMemory.ALIGNMENT);
        LargeBlockPool.Block near = LargeBlockPool.allocate(size + 2 * NativeMemory.ALIGNMENT);
        LargeBlockPool.Block odd = LargeBlockPool.allocate(size + 100); // no lead of whole lines
        LargeBlockPool.Block far = LargeBlockPool.allocate(size + 64 * NativeMemory.ALIGNMENT); // 64 lines
        pool.give(odd);
        pool.give(near);
        pool.give(far);
        pool.give(exact);
        assertEquals(4, pool.idleBlocks());
        assertEquals(exact, pool.take(size, 63 * NativeMemory.ALIGNMENT, 5 * NativeMemory.ALIGNMENT));
        assertEquals(near, pool.take(size, 63 * NativeMemory.ALIGNMENT, 5 * NativeMemory.ALIGNMENT));
        assertEquals(null, pool.take(size, 63 * NativeMemory.ALIGNMENT, 0), "too far ahead, or off the lines");
        assertEquals(null, pool.take(size + 1, 63 * NativeMemory.ALIGNMENT, 0));
        assertEquals(2, pool.reuses());
        assertEquals(2, pool.idleBlocks());
        exact.arena().close();
        near.arena().close();
        pool.release();
    }

    @Test
    void anAllocationThatCannotBeMadeChangesNothing() {
        LargeBlockPool pool = new LargeBlockPool(16L << 20);
        try (NativeMemory memory = new NativeMemory(pool)) {
            MemorySegment kept = memory.allocate(NativeMemory.LARGE_BYTES * 2);
            long footprint = memory.footprintBytes();
            long held = NativeMemory.heldByAllOpen();
            assertThrows(OutOfMemoryError.class, () -> memory.allocate(1L << 56));
            assertEquals(footprint, memory.footprintBytes());
            assertEquals(held, NativeMemory.heldByAllOpen());
            assertEquals(1, memory.liveBuffers());
            assertEquals(0, pool.idleBlocks());
            memory.free(kept);
            assertEquals(kept.byteSize(), memory.allocate(kept.byteSize()).byteSize());
            assertEquals(1, pool.reuses());
        }
    }
}
