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
