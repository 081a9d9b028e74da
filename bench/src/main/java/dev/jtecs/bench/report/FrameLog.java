package dev.jtecs.bench.report;

import java.util.Arrays;

/**
 * What a run measured frame by frame: wall time, bytes the running thread allocated, what the extraction step
 * copied, and how many entities the frame spawned and expired. Filled in frame order by {@link #record}.
 */
public final class FrameLog {
    private final long[] nanos;
    private final long[] allocatedBytes;
    private final int[] extractedColumns;
    private final long[] extractedBytes;
    private final long[] spawned;
    private final long[] expired;
    private int frames;

    /**
     * A log for {@code capacity} frames.
     *
     * @throws IllegalArgumentException for a capacity below 1
     */
    public FrameLog(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity=" + capacity + " must be at least 1");
        }
        nanos = new long[capacity];
        allocatedBytes = new long[capacity];
        extractedColumns = new int[capacity];
        extractedBytes = new long[capacity];
        spawned = new long[capacity];
        expired = new long[capacity];
    }

    /**
     * Appends one frame's figures.
     *
     * @throws IllegalStateException when the log is full
     */
    public void record(long frameNanos, long allocated, int columns, long bytes, long spawnedNow, long expiredNow) {
        if (frames == nanos.length) {
            throw new IllegalStateException("log is full: frames=" + frames + " capacity=" + nanos.length);
        }
        nanos[frames] = frameNanos;
        allocatedBytes[frames] = allocated;
        extractedColumns[frames] = columns;
        extractedBytes[frames] = bytes;
        spawned[frames] = spawnedNow;
        expired[frames] = expiredNow;
        frames++;
    }

    /** Frames recorded so far. */
    public int frames() {
        return frames;
    }

    /** Wall time of each recorded frame, nanoseconds. */
    public long[] nanos() {
        return Arrays.copyOf(nanos, frames);
    }

    /** Bytes the running thread allocated during each frame ({@code -1} where the JVM cannot tell). */
    public long[] allocatedBytes() {
        return Arrays.copyOf(allocatedBytes, frames);
    }

    public int[] extractedColumns() {
        return Arrays.copyOf(extractedColumns, frames);
    }

    public long[] extractedBytes() {
        return Arrays.copyOf(extractedBytes, frames);
    }

    public long[] spawned() {
        return Arrays.copyOf(spawned, frames);
    }

    public long[] expired() {
        return Arrays.copyOf(expired, frames);
    }
}
