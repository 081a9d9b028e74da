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
