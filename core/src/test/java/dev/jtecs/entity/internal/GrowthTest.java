package dev.jtecs.entity.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class GrowthTest {
    @AfterEach
    void disarm() {
        AllocationFaults.disarm();
    }

    @Test
    void everyOverloadCopiesAndPads() {
        assertArrayEquals(new int[] {1, 2, 0}, Growth.copyOf(new int[] {1, 2}, 3));
        assertArrayEquals(new long[] {1, 0}, Growth.copyOf(new long[] {1}, 2));
        assertArrayEquals(new byte[] {1, 0}, Growth.copyOf(new byte[] {1}, 2));
        assertArrayEquals(new short[] {1, 0}, Growth.copyOf(new short[] {1}, 2));
        assertArrayEquals(new char[] {'a', 0}, Growth.copyOf(new char[] {'a'}, 2));
        assertArrayEquals(new boolean[] {true, false}, Growth.copyOf(new boolean[] {true}, 2));
        assertArrayEquals(new float[] {1, 0}, Growth.copyOf(new float[] {1}, 2));
        assertArrayEquals(new double[] {1, 0}, Growth.copyOf(new double[] {1}, 2));
        assertArrayEquals(new String[] {"a", null}, Growth.copyOf(new String[] {"a"}, 2));
    }

    @Test
    void capacitiesDoubleThenGrowByAQuarter() {
        assertEquals(32, Growth.nextCapacity(16, 17));
        assertEquals(100, Growth.nextCapacity(16, 100), "what is needed, when more");
        assertEquals(Growth.GENTLE_FROM, Growth.nextCapacity(Growth.GENTLE_FROM / 2, 1));
        assertEquals(81_920, Growth.nextCapacity(Growth.GENTLE_FROM, Growth.GENTLE_FROM + 1));
        assertEquals(102_400, Growth.nextCapacity(81_920, 81_921));
        assertEquals(Integer.MAX_VALUE - 8, Growth.nextCapacity(Integer.MAX_VALUE - 9, Integer.MAX_VALUE - 8),
                "never past what an array may hold");
    }

    @Test
    void eachGrowthIsAnAllocationTheFaultsCount() {
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 2);
        int[] grown = Growth.copyOf(new int[4], 8);
        assertEquals(8, grown.length);
        assertThrows(OutOfMemoryError.class, () -> Growth.copyOf(grown, 16));
        assertEquals(2, AllocationFaults.seen(AllocationFaults.Kind.HEAP));
    }

    @Test
    void freshArraysAreAllocationsTheFaultsCountToo() {
        assertEquals(4, Growth.newInts(4).length);
        assertEquals(3, Growth.newLongs(3).length);
        assertEquals(2, Growth.newObjects(2).length);
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        assertThrows(OutOfMemoryError.class, () -> Growth.newInts(4));
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        assertThrows(OutOfMemoryError.class, () -> Growth.newLongs(4));
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        assertThrows(OutOfMemoryError.class, () -> Growth.newObjects(4));
    }

    @Test
    void aReservedListTakesItsRoomOnceAndTheFaultsCountIt() {
        java.util.ArrayList<String> list = new java.util.ArrayList<>();
        assertEquals(16, Growth.reserve(list, 0, 3), "a first growth as from eight");
        assertEquals(16, Growth.reserve(list, 16, 16), "room enough: no growth");
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        assertThrows(OutOfMemoryError.class, () -> Growth.reserve(list, 16, 17));
        assertEquals(32, Growth.reserve(list, 16, 17), "doubling");
        assertEquals(80, Growth.reserve(list, 32, 80), "what is needed, when more");
    }
}
