package dev.jtecs.entity.internal;

import java.util.Arrays;

/**
 * The one way the engine grows its own heap arrays: {@link Arrays#copyOf} behind the {@link AllocationFaults}
 * check, so a test can make any growth fail as a real {@link OutOfMemoryError} would. Callers that keep several
 * arrays in step grow all of them into locals first and assign them after the last allocation, so a failure
 * leaves every array as it was.
 */
public final class Growth {
    private Growth() {}

    public static int[] copyOf(int[] array, int length) {
        AllocationFaults.beforeHeapGrowth(length);
        return Arrays.copyOf(array, length);
    }

    public static long[] copyOf(long[] array, int length) {
        AllocationFaults.beforeHeapGrowth(length);
        return Arrays.copyOf(array, length);
    }

    public static byte[] copyOf(byte[] array, int length) {
        AllocationFaults.beforeHeapGrowth(length);
        return Arrays.copyOf(array, length);
    }

    public static short[] copyOf(short[] array, int length) {
        AllocationFaults.beforeHeapGrowth(length);
        return Arrays.copyOf(array, length);
    }

    public static char[] copyOf(char[] array, int length) {
        AllocationFaults.beforeHeapGrowth(length);
        return Arrays.copyOf(array, length);
    }

    public static boolean[] copyOf(boolean[] array, int length) {
        AllocationFaults.beforeHeapGrowth(length);
        return Arrays.copyOf(array, length);
    }

    public static float[] copyOf(float[] array, int length) {
        AllocationFaults.beforeHeapGrowth(length);
        return Arrays.copyOf(array, length);
    }

    public static double[] copyOf(double[] array, int length) {
        AllocationFaults.beforeHeapGrowth(length);
        return Arrays.copyOf(array, length);
    }

    public static <T> T[] copyOf(T[] array, int length) {
        AllocationFaults.beforeHeapGrowth(length);
        return Arrays.copyOf(array, length);
    }

    /** From this length on, {@link #nextCapacity} grows by a quarter instead of doubling. */
    public static final int GENTLE_FROM = 65_536;

    /**
     * The length to grow a per-slot array of {@code length} elements to, so that it holds at least {@code needed}:
     * twice the length below {@link #GENTLE_FROM} elements, a quarter more from there on (a large array then
     * leaves at most a fifth of itself unused, where doubling left up to half), and {@code needed} when that is
     * more.
     */
    public static int nextCapacity(int length, int needed) {
        long step = length < GENTLE_FROM ? length : length / 4;
        return (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, length + step));
    }

    /**
     * {@link #nextCapacity(int, int)} for an array of {@code elementBytes}-byte elements (the widest of the arrays a
     * caller grows in step: 8 for a {@code long[]}, {@link #REFERENCES} for references), fitted to the heap
     * regions a large array takes whole ({@link #fitToRegions}).
     */
    public static int nextCapacity(int length, int needed, int elementBytes) {
        return fitted(length, nextCapacity(length, needed), needed, elementBytes);
    }

    /**
     * A growth of an array of {@code length} to {@code capacity} (at least {@code needed}), fitted to the heap's
     * regions as {@link #nextCapacity(int, int, int)} fits it: for a caller with a growth rule of its own.
     */
    public static int fitted(int length, int capacity, int needed, int elementBytes) {
        if (ARRAY_HEADER + (long) capacity * Math.max(4, elementBytes) < SMALLEST_REGION / 2) {
            return capacity; // no region is this small: the JVM's heap need not even be asked
        }
        int bytes = elementBytes == REFERENCES ? HeapRegions.referenceBytes() : elementBytes;
        return fitToRegions(length, capacity, needed, bytes, HeapRegions.bytes());
    }

    /** The {@code elementBytes} of a reference array for {@link #nextCapacity(int, int, int)}: 4 or 8 bytes. */
    public static final int REFERENCES = -1;

    /** G1's smallest region: 1 MiB. */
    private static final long SMALLEST_REGION = 1L << 20;

    /**
     * Under G1 an array of at least half a heap region is allocated in whole regions of its own, so what its last
     * region holds past the array is lost to everything else: an array of one more element than two regions hold
     * costs three. A million-slot world had two such arrays, 7 bytes of every entity's 56 on the heap. So a large
     * capacity is fitted to whole regions, with room for a 16-byte array header and the header of an array in
     * step with half its element size (a {@code long[]} and an {@code int[]} of one length both fit): down to
     * the regions before it when that still holds {@code needed} and grows the array by at least a sixteenth,
     * else up to the end of its last region, which it occupies anyway. A capacity that ends in the last region's
     * room for the headers is fitted to the start of that room (a few elements less) when that still holds
     * {@code needed} and grows the array by a sixteenth (or by as much as {@code capacity} does, if that is less),
     * else to the end of one region more. Small arrays, and any array under a collector without such regions
     * ({@code regionBytes} 0), keep {@code capacity}.
     */
    static int fitToRegions(int length, int capacity, int needed, int elementBytes, long regionBytes) {
        long bytes = ARRAY_HEADER + (long) capacity * elementBytes;
        if (regionBytes <= 0 || bytes < regionBytes / 2) {
            return capacity;
        }
        long regions = (bytes + regionBytes - 1) / regionBytes;
        long down = ((regions - 1) * regionBytes - 2 * ARRAY_HEADER) / elementBytes;
        if (regions > 1 && down >= needed && down >= length + length / 16L) {
            return (int) down;
        }
        long up = (regions * regionBytes - 2 * ARRAY_HEADER) / elementBytes;
        if (up < capacity && (up < needed || up < Math.min(capacity, length + length / 16L))) {
            // the capacity reached into the room the last region keeps for the two headers, and the end before
            // that room is too short: the end of one region more
            up = ((regions + 1) * regionBytes - 2 * ARRAY_HEADER) / elementBytes;
        }
        return (int) Math.min(Integer.MAX_VALUE - 8, up);
    }

    /** The bytes before an array's first element, at most (a 64-bit JVM: 12 or 16). */
    static final int ARRAY_HEADER = 16;

    /** What the running JVM's heap is made of, read once, the first time a large array grows. */
    static final class HeapRegions {
        private static final long BYTES;
        private static final int REFERENCE_BYTES;

        static {
            long region = 0;
            int references = 8;
            try {
                com.sun.management.HotSpotDiagnosticMXBean vm = java.lang.management.ManagementFactory
                        .getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
                if (vm != null) {
                    if (Boolean.parseBoolean(vm.getVMOption("UseG1GC").getValue())) {
                        region = Long.parseLong(vm.getVMOption("G1HeapRegionSize").getValue());
                    }
                    if (Boolean.parseBoolean(vm.getVMOption("UseCompressedOops").getValue())) {
                        references = 4;
                    }
                }
            } catch (RuntimeException | LinkageError unknown) {
                region = 0; // not HotSpot, or no management: capacities stay as they are
            }
            BYTES = region > 0 && Long.bitCount(region) == 1 ? region : 0;
            REFERENCE_BYTES = references;
        }

        private HeapRegions() {}

        /** G1's region size, or 0 under any other collector or where it cannot be read. */
        static long bytes() {
            return BYTES;
        }

        /** 4 with compressed references, else 8. */
        static int referenceBytes() {
            return REFERENCE_BYTES;
        }
    }

    /**
     * Grows {@code list} to hold {@code needed} elements when {@code room}, the capacity the caller knows it has
     * (an {@link java.util.ArrayList} hides its own), is short, failed the same way as an array's growth; returns
     * the room now known. A caller that reserves before it changes anything then adds without allocating.
     */
    public static int reserve(java.util.ArrayList<?> list, int room, int needed) {
        if (needed <= room) {
            return room;
        }
        int capacity = nextCapacity(Math.max(room, 8), needed);
        AllocationFaults.beforeHeapGrowth(capacity);
        list.ensureCapacity(capacity);
        return capacity;
    }

    /** A new {@code byte[length]}, failed the same way as a growth. */
    public static byte[] newBytes(int length) {
        AllocationFaults.beforeHeapGrowth(length);
        return new byte[length];
    }

    /** A new {@code short[length]}, failed the same way as a growth. */
    public static short[] newShorts(int length) {
        AllocationFaults.beforeHeapGrowth(length);
        return new short[length];
    }

    /** A new {@code int[length]}, failed the same way as a growth. */
    public static int[] newInts(int length) {
        AllocationFaults.beforeHeapGrowth(length);
        return new int[length];
    }

    /** A new {@code long[length]}, failed the same way as a growth (for structures that start lazily). */
    public static long[] newLongs(int length) {
        AllocationFaults.beforeHeapGrowth(length);
        return new long[length];
    }

    /** A new {@code Object[length]}, failed the same way as a growth. */
    public static Object[] newObjects(int length) {
        AllocationFaults.beforeHeapGrowth(length);
        return new Object[length];
    }
}
