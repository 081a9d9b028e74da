package dev.jtecs.entity.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    private static final long MIB = 1L << 20;

    @Test
    void aLargeArrayIsFittedToTheRegionsItTakes() {
        // the sparse ChildOf store of a million-entity forest: its long[] by slot grew by a quarter to 1,164,231
        // (9.3 MB, three 4 MiB regions, 3.3 MB of the third lost); fitted, it takes two, and still holds every slot
        assertEquals(1_048_572, Growth.fitToRegions(931_385, 1_164_231, 1_000_002, 8, 4 * MIB));
        // an Object[] of 4-byte references in the same store: two regions for 4.6 MB, fitted into one
        assertEquals(1_048_568, Growth.fitToRegions(916_410, 1_145_512, 1_000_002, 4, 4 * MIB));
        // the entity index doubling to 2^20 slots: a long[] of exactly 8 MiB plus its header spilled into a third
        // region, and its int[] twin into a second
        assertEquals(1_048_572, Growth.fitToRegions(524_288, 1_048_576, 524_289, 8, 4 * MIB));
    }

    @Test
    void aFittedArrayGrowsUpWhenTheRegionsBeforeWouldNotHoldWhatIsNeededOrGrowEnough() {
        assertEquals((12 * MIB - 32) / 8, Growth.fitToRegions(1_000_000, 1_250_000, 1_100_000, 8, 4 * MIB),
                "needed past two regions: the third region's end");
        assertEquals((12 * MIB - 32) / 8, Growth.fitToRegions(1_040_000, 1_300_000, 1_040_001, 8, 4 * MIB),
                "two regions would grow it by less than a sixteenth");
    }

    @Test
    void smallArraysAndOtherCollectorsKeepTheirCapacity() {
        assertEquals(200_000, Growth.fitToRegions(160_000, 200_000, 160_001, 8, 4 * MIB),
                "1.6 MB: under half a region");
        assertEquals(1_192_090, Growth.fitToRegions(953_672, 1_192_090, 953_673, 8, 0), "no regions");
        assertEquals(2_000, Growth.nextCapacity(1_000, 1_001, 8), "under the smallest region's half: as without");
    }

    @Test
    void aCapacityEndingInTheRoomKeptForTheHeadersIsFittedAgain() {
        // seed 64499247415698 of the test below: 44,040,185 ints end 12 bytes before their 42nd region's end, so
        // an int array of that length fit, but a short array in step (its own header) took 22 of 21 regions
        int fitted = Growth.fitToRegions(35_232_148, 44_040_185, 43_737_572, 4, 4 * MIB);
        assertEquals((42 * 4 * MIB - 2 * Growth.ARRAY_HEADER) / 4, fitted, "the end of the 42nd region, headers kept");
        int tight = Growth.fitToRegions(43_000_000, 44_040_185, 44_040_185, 4, 4 * MIB);
        assertEquals((43 * 4 * MIB - 2 * Growth.ARRAY_HEADER) / 4, tight, "needed is in the room: one region more");
        int gentle = Growth.fitToRegions(43_000_000, 43_500_000, 43_500_000, 4, 4 * MIB); // a caller's own small step
        assertEquals((42 * 4 * MIB - 2 * Growth.ARRAY_HEADER) / 4, gentle, "clear of the room: its own region's end");
    }

    @Test
    void fittedCapacitiesHoldWhatIsNeededAndLeaveNoRegionTail() {
        long seed = Long.getLong("jtecs.growthSeed", System.nanoTime());
        System.out.println("GrowthTest seed: -Djtecs.growthSeed=" + seed);
        java.util.Random random = new java.util.Random(seed);
        for (int i = 0; i < 20_000; i++) {
            long region = MIB << random.nextInt(6); // G1's sizes: 1 to 32 MiB
            int bytes = random.nextBoolean() ? 8 : 4;
            int length = 1 + random.nextInt(50_000_000);
            int needed = length + 1 + random.nextInt(Math.max(1, length / (1 + random.nextInt(8))));
            int capacity = Growth.nextCapacity(length, needed);
            int fitted = Growth.fitToRegions(length, capacity, needed, bytes, region);
            String at = "seed " + seed + ", length " + length + ", needed " + needed + ", " + bytes + "-byte elements, "
                    + region / MIB + " MiB regions: " + fitted;
            assertTrue(fitted >= needed, at);
            assertTrue(fitted <= Integer.MAX_VALUE - 8, at);
            long size = Growth.ARRAY_HEADER + (long) fitted * bytes;
            if (size < region / 2) {
                assertEquals(capacity, fitted, at);
                continue;
            }
            assertTrue(fitted >= capacity || fitted >= length + length / 16, at);
            if (fitted < Integer.MAX_VALUE - 8) {
                long regions = (size + region - 1) / region;
                assertTrue(regions * region - size < bytes + 2L * Growth.ARRAY_HEADER,
                        "the last region is filled: " + at);
                long half = Growth.ARRAY_HEADER + (long) fitted * bytes / 2;
                assertTrue((half + region - 1) / region <= (regions + 1) / 2,
                        "an array in step of half the width takes half the regions: " + at);
            }
        }
    }

    @Test
    void theHeapsRegionSizeIsReadFromTheRunningJvm() {
        boolean g1 = java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream()
                .anyMatch(gc -> gc.getName().startsWith("G1"));
        long region = Growth.HeapRegions.bytes();
        if (g1) {
            assertTrue(region >= MIB && Long.bitCount(region) == 1, "G1 region " + region);
        } else {
            assertEquals(0, region, "no regions to fit under this collector");
        }
        int references = Growth.HeapRegions.referenceBytes();
        assertTrue(references == 4 || references == 8, "reference bytes " + references);
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
        assertEquals(5, Growth.newBytes(5).length);
        assertEquals(6, Growth.newShorts(6).length);
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        assertThrows(OutOfMemoryError.class, () -> Growth.newBytes(4));
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        assertThrows(OutOfMemoryError.class, () -> Growth.newShorts(4));
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
