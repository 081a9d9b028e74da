package dev.jtecs.storage.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The world's native allocator: every off-heap buffer of a world is allocated, freed and accounted here.
 *
 * <p>Small buffers (up to {@link #LARGE_BYTES}) are carved from 1 MiB slabs of one shared arena and recycled
 * through per-size-class free lists (power-of-two classes from 64 bytes); large buffers get a shared arena each,
 * closed when the buffer is freed. Closing a shared arena is a handshake with every thread (tens to hundreds of
 * microseconds, measured here), so the many small buffers of a world must not each pay it; the few large ones
 * do, and return their memory to the system at once. Shared arenas let kernels on worker threads read columns.
 *
 * <p>Invariants: every buffer is 64-byte aligned and zero-filled when handed out; {@code reservedBytes} is the
 * sum of the sizes handed out and not yet freed; {@link #close()} frees everything, after which every segment
 * is inaccessible and any access throws {@link IllegalStateException}. A freed small buffer's memory is reused
 * by later allocations of its class while the world lives: views must not outlive the buffers they view
 * (the storage package documents when views go stale). {@link #heldByAllOpen()} is the sum of
 * {@link #footprintBytes()} over every allocator of the process not yet closed: closing returns all of it.
 */
public final class NativeMemory implements AutoCloseable {
    /** Alignment of every buffer: one cache line, and the widest vector register on AVX-512. */
    public static final long ALIGNMENT = 64;
    /** Buffers above this size get an arena of their own. */
    public static final long LARGE_BYTES = 256 * 1024;
    private static final long SLAB_BYTES = 1024 * 1024;
    private static final int MIN_CLASS_SHIFT = 6;
    /** Bytes held from the system by every open allocator: changes per slab or large buffer, never per row. */
    private static final AtomicLong HELD = new AtomicLong();

    private final Arena slabArena = Arena.ofShared();
    @SuppressWarnings("unchecked")
    private final ArrayDeque<MemorySegment>[] freeBlocks = new ArrayDeque[Long.numberOfTrailingZeros(LARGE_BYTES) + 1];
    private final Map<MemorySegment, MemorySegment> smallBlocks = new IdentityHashMap<>();
    private final Map<MemorySegment, Arena> large = new IdentityHashMap<>();
    private MemorySegment slab = MemorySegment.NULL;
    private long slabOffset;
    private long reservedBytes;
    private long slabBytes;
    private long totalAllocations;
    private boolean closed;

    /** A zero-filled, 64-byte-aligned buffer of exactly {@code byteSize} bytes. */
    public MemorySegment allocate(long byteSize) {
        ensureOpen();
        if (byteSize <= 0) {
            throw new IllegalArgumentException("byteSize=" + byteSize + " must be positive");
        }
        MemorySegment segment = byteSize > LARGE_BYTES ? allocateLarge(byteSize) : allocateSmall(byteSize);
        reservedBytes += byteSize;
        totalAllocations++;
        return segment;
    }

    private MemorySegment allocateLarge(long byteSize) {
        Arena arena = Arena.ofShared();
        try {
            MemorySegment segment = arena.allocate(byteSize, ALIGNMENT);
            large.put(segment, arena);
            HELD.addAndGet(byteSize);
            return segment;
        } catch (RuntimeException | OutOfMemoryError e) {
            arena.close();
            throw e;
        }
    }

    private MemorySegment allocateSmall(long byteSize) {
        int shift = Math.max(MIN_CLASS_SHIFT, 64 - Long.numberOfLeadingZeros(byteSize - 1));
        ArrayDeque<MemorySegment> free = freeBlocks[shift];
        MemorySegment block = free == null ? null : free.poll();
        if (block != null) {
            block.fill((byte) 0);
        } else {
            block = carve(1L << shift);
        }
        MemorySegment segment = block.asSlice(0, byteSize);
        smallBlocks.put(segment, block);
        return segment;
    }

    private MemorySegment carve(long blockBytes) {
        if (slabOffset + blockBytes > slab.byteSize()) {
            slab = slabArena.allocate(SLAB_BYTES, ALIGNMENT);
            slabBytes += SLAB_BYTES;
            HELD.addAndGet(SLAB_BYTES);
            slabOffset = 0;
        }
        MemorySegment block = slab.asSlice(slabOffset, blockBytes);
        slabOffset += blockBytes; // blocks are powers of two >= 64 from a 64-aligned slab: aligned
        return block;
    }

    /** Frees a buffer this allocator handed out. */
    public void free(MemorySegment segment) {
        ensureOpen();
        Arena arena = large.remove(segment);
        if (arena != null) {
            reservedBytes -= segment.byteSize();
            arena.close();
            HELD.addAndGet(-segment.byteSize());
            return;
        }
        MemorySegment block = smallBlocks.remove(segment);
        if (block == null) {
            throw new IllegalArgumentException("segment of byteSize=" + segment.byteSize()
                    + " was not allocated here or was already freed");
        }
        reservedBytes -= segment.byteSize();
        int shift = Long.numberOfTrailingZeros(block.byteSize());
        if (freeBlocks[shift] == null) {
            freeBlocks[shift] = new ArrayDeque<>();
        }
        freeBlocks[shift].push(block);
    }

    /** Bytes handed out and not freed. */
    public long reservedBytes() {
        return reservedBytes;
    }

    /** Bytes held from the system: slabs plus live large buffers. */
    public long footprintBytes() {
        long bytes = slabBytes;
        for (MemorySegment segment : large.keySet()) {
            bytes += segment.byteSize();
        }
        return bytes;
    }

    /** Bytes held from the system by every allocator of this process not yet closed (slabs and large buffers). */
    public static long heldByAllOpen() {
        return HELD.get();
    }

    public int liveBuffers() {
        return smallBlocks.size() + large.size();
    }

    public long totalAllocations() {
        return totalAllocations;
    }

    public boolean isClosed() {
        return closed;
    }

    /** Frees every buffer. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        HELD.addAndGet(-footprintBytes());
        slabArena.close();
        for (Arena arena : large.values()) {
            arena.close();
        }
        large.clear();
        smallBlocks.clear();
        reservedBytes = 0;
        slabBytes = 0;
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("native memory of this world is closed");
        }
    }
}
