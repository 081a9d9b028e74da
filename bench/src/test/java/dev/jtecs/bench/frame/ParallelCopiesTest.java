package dev.jtecs.bench.frame;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ParallelCopiesTest {
    private static final long SOURCE_BYTES = 8L << 20;

    private static MemorySegment randomSegment(Arena arena, long bytes, long seed) {
        MemorySegment segment = arena.allocate(bytes, 64);
        SplittableRandom random = new SplittableRandom(seed);
        for (long i = 0; i < bytes / Long.BYTES; i++) {
            segment.setAtIndex(ValueLayout.JAVA_LONG, i, random.nextLong());
        }
        return segment;
    }

    /**
     * Random copies, large and small, at unaligned offsets into disjoint destination ranges: the destination ends
     * byte for byte as the same copies made one after another leave it, whatever the worker count.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 8})
    void writesTheBytesTheSequentialCopiesWrite(int threads) {
        ForkJoinPool pool = new ForkJoinPool(threads);
        try (Arena arena = Arena.ofShared()) {
            ParallelCopies copies = new ParallelCopies(pool);
            MemorySegment source = randomSegment(arena, SOURCE_BYTES, 1);
            MemorySegment expected = arena.allocate(SOURCE_BYTES * 2, 64);
            MemorySegment actual = randomSegment(arena, SOURCE_BYTES * 2, 2);
            expected.copyFrom(actual);
            SplittableRandom random = new SplittableRandom(3);
            for (int run = 0; run < 5; run++) {
                long destination = random.nextLong(1000);
                for (int k = 0; k < 12; k++) {
                    long bytes = k % 3 == 0 ? random.nextLong(3 * ParallelCopies.MIN_PIECE_BYTES)
                            : random.nextLong(4096);
                    long from = random.nextLong(SOURCE_BYTES - bytes);
                    MemorySegment.copy(source, from, expected, destination, bytes);
                    copies.add(source, from, actual, destination, bytes);
                    destination += bytes + random.nextLong(100);
                }
                copies.run();
                assertEquals(0, copies.queued(), "run empties the queue");
                assertEquals(0, copies.queuedBytes());
                assertEquals(-1, actual.mismatch(expected), "run " + run + " on " + threads + " threads");
            }
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void refusesARangeOutsideEitherSegmentAndQueuesNothing() {
        ForkJoinPool pool = new ForkJoinPool(2);
        try (Arena arena = Arena.ofShared()) {
            ParallelCopies copies = new ParallelCopies(pool);
            MemorySegment a = arena.allocate(1024);
            MemorySegment b = arena.allocate(512);
            assertThrows(IndexOutOfBoundsException.class, () -> copies.add(a, 0, b, 0, 1024));
            assertThrows(IndexOutOfBoundsException.class, () -> copies.add(a, 1000, b, 0, 100));
            assertThrows(IndexOutOfBoundsException.class, () -> copies.add(a, -1, b, 0, 10));
            assertEquals(0, copies.queued());
            copies.add(a, 0, b, 0, 0);
            assertEquals(0, copies.queued(), "an empty copy is not queued");
        } finally {
            pool.shutdown();
        }
    }

    /** A copy whose source was freed after it was queued fails; the others still land and the queue empties. */
    @Test
    void rethrowsAFailedPieceAfterTheOthersHaveRun() {
        ForkJoinPool pool = new ForkJoinPool(2);
        try (Arena arena = Arena.ofShared()) {
            ParallelCopies copies = new ParallelCopies(pool);
            long bytes = 4 * ParallelCopies.MIN_PIECE_BYTES;
            MemorySegment good = randomSegment(arena, bytes, 4);
            MemorySegment destination = arena.allocate(3 * bytes, 64);
            Arena doomed = Arena.ofShared();
            MemorySegment freed = doomed.allocate(bytes, 64);
            copies.add(good, 0, destination, 0, bytes);
            copies.add(freed, 0, destination, bytes, bytes);
            copies.add(good, 0, destination, 2 * bytes, bytes);
            doomed.close();
            assertThrows(IllegalStateException.class, copies::run);
            assertEquals(0, copies.queued());
            assertEquals(-1, destination.asSlice(0, bytes).mismatch(good));
            assertEquals(-1, destination.asSlice(2 * bytes, bytes).mismatch(good));
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void aShutDownPoolIsRefusedWithAClearExceptionBeforeAnythingIsCopied() {
        ForkJoinPool pool = new ForkJoinPool(2);
        pool.shutdown();
        try (Arena arena = Arena.ofShared()) {
            ParallelCopies copies = new ParallelCopies(pool);
            long bytes = 8 * ParallelCopies.MIN_PIECE_BYTES;
            MemorySegment source = randomSegment(arena, bytes, 5);
            MemorySegment destination = arena.allocate(bytes, 64);
            copies.add(source, 0, destination, 0, bytes);
            IllegalStateException refused = assertThrows(IllegalStateException.class, copies::run);
            assertEquals(true, refused.getMessage().contains("shut down"), refused.getMessage());
            assertEquals(0, copies.queued());
            assertEquals(-1, destination.mismatch(arena.allocate(bytes, 64)), "nothing was copied");
        }
    }
}
