package dev.jtecs.storage.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

class LargeBlockPoolTest {
    private static final long MIB = 1L << 20;

    @Test
    void aFreshBlockIsPageAlignedZeroedAndExactlyAsLargeAsAsked() {
        LargeBlockPool.Block block = LargeBlockPool.allocate(MIB + 192);
        try {
            assertEquals(MIB + 192, block.bytes());
            assertEquals(0, block.memory().address() % 4096);
            assertEquals(0, block.memory().get(ValueLayout.JAVA_LONG, MIB));
        } finally {
            block.arena().close();
        }
    }

    @Test
    void keepsBlocksUpToItsLimitAndReturnsTheOldestFirst() {
        LargeBlockPool pool = new LargeBlockPool(3 * MIB);
        LargeBlockPool.Block first = LargeBlockPool.allocate(MIB);
        LargeBlockPool.Block second = LargeBlockPool.allocate(MIB);
        LargeBlockPool.Block third = LargeBlockPool.allocate(MIB);
        LargeBlockPool.Block fourth = LargeBlockPool.allocate(MIB);
        pool.give(first);
        pool.give(second);
        pool.give(third);
        assertEquals(3 * MIB, pool.idleBytes());
        pool.give(fourth);
        assertEquals(3, pool.idleBlocks());
        assertEquals(3 * MIB, pool.idleBytes());
        assertThrows(IllegalStateException.class, () -> first.memory().get(ValueLayout.JAVA_BYTE, 0),
                "the oldest went back to the system");
        assertEquals(0, second.memory().get(ValueLayout.JAVA_BYTE, 0), "the others are kept, open");
        assertEquals(3 * MIB, pool.release());
        assertEquals(0, pool.idleBytes());
        assertThrows(IllegalStateException.class, () -> fourth.memory().get(ValueLayout.JAVA_BYTE, 0));
    }

    @Test
    void aBlockLargerThanTheLimitGoesBackAtOnce() {
        LargeBlockPool pool = new LargeBlockPool(MIB);
        LargeBlockPool.Block big = LargeBlockPool.allocate(2 * MIB);
        pool.give(big);
        assertEquals(0, pool.idleBlocks());
        assertThrows(IllegalStateException.class, () -> big.memory().get(ValueLayout.JAVA_BYTE, 0));
        assertEquals(0, pool.release());
    }

    @Test
    void takeHandsOutTheWantedLeadFirstAndOnlyBlocksThatFit() {
        LargeBlockPool pool = new LargeBlockPool(8 * MIB);
        LargeBlockPool.Block twoLines = LargeBlockPool.allocate(MIB + 128);
        LargeBlockPool.Block fiveLines = LargeBlockPool.allocate(MIB + 320);
        pool.give(twoLines);
        pool.give(fiveLines);
        assertNull(pool.take(MIB, 64, 0), "no block within one line of the buffer");
        assertNull(pool.take(MIB + 321, 4032, 0), "no block large enough");
        assertSame(fiveLines, pool.take(MIB, 4032, 320));
        assertSame(twoLines, pool.take(MIB, 4032, 320), "the one left, lead or not");
        assertNull(pool.take(MIB, 4032, 0));
        assertEquals(2, pool.reuses());
        assertEquals(8 * MIB, pool.limit());
        twoLines.arena().close();
        fiveLines.arena().close();
    }

    @Test
    void theProcessPoolFollowsTheLimitProperty() {
        assertEquals(Long.getLong("jtecs.nativePoolBytes", LargeBlockPool.DEFAULT_LIMIT).longValue(),
                LargeBlockPool.SHARED.limit());
        assertTrue(LargeBlockPool.ENABLED, "the suite runs with native access enabled and no limit of 0");
    }

    @Test
    void aBlockAsLargeAsTheLimitIsKeptAndSendsTheOthersBack() {
        LargeBlockPool pool = new LargeBlockPool(2 * MIB);
        LargeBlockPool.Block small = LargeBlockPool.allocate(MIB);
        LargeBlockPool.Block whole = LargeBlockPool.allocate(2 * MIB);
        pool.give(small);
        pool.give(whole); // exactly the limit: kept, once the smaller block has made room
        assertEquals(1, pool.idleBlocks());
        assertEquals(2 * MIB, pool.idleBytes());
        assertThrows(IllegalStateException.class, () -> small.memory().get(ValueLayout.JAVA_BYTE, 0));
        assertSame(whole, pool.take(2 * MIB, 0, 0));
        pool.give(whole); // and into an empty pool
        assertEquals(2 * MIB, pool.idleBytes());
        pool.release();
    }

    @Test
    void aLeadOfExactlyTheMostAllowedStillFits() {
        LargeBlockPool pool = new LargeBlockPool(4 * MIB);
        LargeBlockPool.Block block = LargeBlockPool.allocate(MIB + 4032);
        pool.give(block);
        assertNull(pool.take(MIB, 4031, 0));
        assertSame(block, pool.take(MIB, 4032, 0));
        block.arena().close();
    }
}
