package dev.jtecs.storage.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The world's native allocator: every off-heap buffer of a world is allocated, freed and accounted here.
 *
 * <p>Each buffer lives in its own shared arena so that it can be freed on its own when a column grows (an arena
 * frees only as a whole), and so that kernels on worker threads may read it. {@link #close()} frees every buffer
 * still live; afterwards each segment is inaccessible and any access throws {@link IllegalStateException}.
 *
 * <p>Invariants: {@code reservedBytes} is the sum of the sizes of live buffers; every buffer is 64-byte aligned
 * and zero-filled when handed out.
 */
public final class NativeMemory implements AutoCloseable {
    /** Alignment of every buffer: one cache line, and the widest vector register on AVX-512. */
    public static final long ALIGNMENT = 64;

    private final Map<MemorySegment, Arena> live = new IdentityHashMap<>();
    private long reservedBytes;
    private long totalAllocations;
    private boolean closed;

    /** A zero-filled, 64-byte-aligned buffer of {@code byteSize} bytes. */
    public MemorySegment allocate(long byteSize) {
        ensureOpen();
        if (byteSize <= 0) {
            throw new IllegalArgumentException("byteSize=" + byteSize + " must be positive");
        }
        Arena arena = Arena.ofShared();
        MemorySegment segment;
        try {
            segment = arena.allocate(byteSize, ALIGNMENT);
        } catch (RuntimeException | OutOfMemoryError e) {
            arena.close();
            throw e;
        }
        live.put(segment, arena);
        reservedBytes += byteSize;
        totalAllocations++;
        return segment;
    }

    /** Frees a buffer this allocator handed out. */
    public void free(MemorySegment segment) {
        ensureOpen();
        Arena arena = live.remove(segment);
        if (arena == null) {
            throw new IllegalArgumentException("segment of byteSize=" + segment.byteSize()
                    + " was not allocated here or was already freed");
        }
        reservedBytes -= segment.byteSize();
        arena.close();
    }

    public long reservedBytes() {
        return reservedBytes;
    }

    public int liveBuffers() {
        return live.size();
    }

    public long totalAllocations() {
        return totalAllocations;
    }

    public boolean isClosed() {
        return closed;
    }

    /** Frees every live buffer. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Arena arena : live.values()) {
            arena.close();
        }
        live.clear();
        reservedBytes = 0;
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("native memory of this world is closed");
        }
    }
}
