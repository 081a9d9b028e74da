package dev.jtecs.snapshot;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Reusable native output storage for binary snapshots: a save into it overwrites what the previous save left
 * and grows it (geometrically, keeping nothing) when the snapshot needs more room, so a game that saves every
 * few seconds allocates nothing once the buffer has reached its working size. The {@link Snapshot#buffer()} of
 * a save into this buffer is a view of it, valid until the next save into it or {@link #close()}.
 *
 * <p>Confined to the thread that created it, like the arena behind it.
 */
public final class SnapshotBuffer implements AutoCloseable {
    private Arena arena;
    private MemorySegment segment = MemorySegment.NULL;

    /** An empty buffer: the first save sizes it. */
    public SnapshotBuffer() {
    }

    /** A buffer that starts with {@code bytes} of room. */
    public SnapshotBuffer(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes=" + bytes + " must not be negative");
        }
        ensure(bytes);
    }

    /** The room the buffer has now. */
    public long capacity() {
        return segment.byteSize();
    }

    /**
     * The first {@code bytes} of the buffer, grown first when it has less room (growing discards what it held).
     * Saves call this; the contents are whatever the last writer left.
     */
    public MemorySegment ensure(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes=" + bytes + " must not be negative");
        }
        if (arena == null && segment == MemorySegment.NULL && bytes == 0) {
            return segment;
        }
        if (segment.byteSize() < bytes) {
            long grown = Math.max(bytes, segment.byteSize() * 2);
            Arena next = Arena.ofConfined();
            MemorySegment fresh = next.allocate(grown, 64);
            if (arena != null) {
                arena.close();
            }
            arena = next;
            segment = fresh;
        }
        return segment.asSlice(0, bytes);
    }

    /** Frees the native memory; snapshots saved into this buffer are unusable afterwards. Idempotent. */
    @Override
    public void close() {
        if (arena != null) {
            arena.close();
            arena = null;
        }
        segment = MemorySegment.NULL;
    }

    @Override
    public String toString() {
        return "SnapshotBuffer[capacity=" + capacity() + "]";
    }
}
