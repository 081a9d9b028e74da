package dev.jtecs.storage.internal;

import dev.jtecs.entity.internal.AllocationFaults;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
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
 * do. A large buffer's memory goes back to the system when it is freed, or, where native access is enabled, to
 * the process's {@link LargeBlockPool}, which hands it to the next large buffer of any world (its arena is then a
 * view's, closed all the same, so no view outlives its buffer). Shared arenas let kernels on worker threads read
 * columns.
 *
 * <p>Staggering. Buffers whose addresses agree in their low 12 bits make a vector loop that stores into one
 * column and then loads from another stall on "4K aliasing": the core's first check of a load against earlier
 * stores compares only those bits. Power-of-two blocks carved back to back, or large buffers that each start a
 * fresh page, would all share them, and so would the columns of every archetype (measured: 15% on a pass of
 * {@code pos += vel * dt} over 26 archetypes of 630 rows). So the carving leaves one spare cache line after every
 * block of {@link #STAGGER_FROM_BYTES} or more and starts each slab a rotating number of lines in, and each
 * large buffer starts {@code 64 * k} bytes into its allocation, k counting up modulo 64. Successive blocks of a
 * slab, and successive large buffers, start on different cache lines of a page (64 of them at most).
 *
 * <p>Returning slabs. Each slab is an arena of its own and counts the blocks it has handed out. When the last
 * block of a slab is freed, the slab goes back to the system (its free blocks leave the free lists), the slab
 * being carved included: a world that only grows ends with no empty slab. This is what returns the buffers a
 * growing column outgrew: a table doubling to 100,000 rows leaves each column's 64 KiB, 128 KiB and 256 KiB
 * predecessors behind, slabs full of them, which the allocator otherwise kept for reuse that never came (they
 * were most of a large world's native bytes, and the last mebibyte of them, kept empty, 10 bytes an entity of a
 * 100,000-entity world). Once the allocator has had to carve a fresh slab for a block of a size that a slab it
 * gave back held free, the world frees and allocates buffers of one size in turn (a column that only doubles
 * never asks for a size it gave up), and from then on one empty slab is kept, so such a workload does not pay a
 * handshake and a fresh slab each time: a slab other than the one being carved that empties becomes the
 * spare (a second one goes back), and the slab being carved counts as the spare when it is empty (when it
 * empties, a spare goes back; while it is empty, no other empty slab is kept). At most one slab with no block in
 * use is held.
 *
 * <p>Invariants: every buffer is 64-byte aligned and zero-filled when handed out (past the head its caller
 * overwrites, for {@link #allocate(long, long)}); {@code reservedBytes} is the
 * sum of the sizes handed out and not yet freed; {@link #close()} frees everything, after which every segment
 * is inaccessible and any access throws {@link IllegalStateException}. A freed small buffer's memory is reused
 * by later allocations of its class while the world lives: views must not outlive the buffers they view
 * (the storage package documents when views go stale). {@link #heldByAllOpen()} is the sum of
 * {@link #footprintBytes()} over every allocator of the process not yet closed: closing returns all of it.
 */
public final class NativeMemory implements AutoCloseable {
    /** Alignment of every buffer: one cache line, and the widest vector register on AVX-512. */
    public static final long ALIGNMENT = 64;
    private static final long PAGE = 4096;
    /** Buffers above this size get an arena of their own. */
    public static final long LARGE_BYTES = 256 * 1024;
    /** Blocks of this size or more are followed by one spare cache line in their slab (see Staggering). */
    static final long STAGGER_FROM_BYTES = 512;
    /**
     * A slab: 1 MiB, room for its leading lines and for the spare lines, so blocks of 16 KiB and more still fill
     * it exactly.
     */
    private static final long SLAB_BYTES = 1024 * 1024 + 8192;
    private static final int MIN_CLASS_SHIFT = 6;
    /** Bytes held from the system by every open allocator: changes per slab or large buffer, never per row. */
    private static final AtomicLong HELD = new AtomicLong();

    /**
     * Per block size (by its shift), the free blocks: a stack linked through {@link Block#next}, so that a free
     * allocates nothing (a block that left {@code smallBlocks} always reaches its list).
     */
    private final Block[] freeBlocks = new Block[Long.numberOfTrailingZeros(LARGE_BYTES) + 1];
    private final Map<MemorySegment, Block> smallBlocks = new IdentityHashMap<>();
    private final Map<MemorySegment, Large> large = new IdentityHashMap<>();
    /** Every slab held from the system, the one being carved among them. */
    private final java.util.Set<Slab> heldSlabs = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    private int largeStagger;
    private int slabs;
    /** The slab being carved ({@code null} before the first small buffer). */
    private Slab slab;
    /** An empty slab kept for reuse rather than returned (see Returning slabs), or {@code null}. */
    private Slab spare;
    /** Bit k: a slab went back holding free blocks of 2^k bytes (a fresh slab carved for one shows churn). */
    private long returnedClasses;
    /** Whether one empty slab is kept: once a fresh slab was carved after one went back (see Returning slabs). */
    private boolean keepsSpare;
    private long slabOffset;
    private long reservedBytes;
    private long slabBytes;
    private long totalAllocations;
    private boolean closed;
    /** Where freed large buffers' memory goes, or {@code null}: back to the system (see {@link LargeBlockPool}). */
    private final LargeBlockPool pool;

    /** An allocator whose large buffers go through the process's pool when native access allows it. */
    public NativeMemory() {
        this(LargeBlockPool.ENABLED ? LargeBlockPool.SHARED : null);
    }

    /** An allocator whose large buffers go through {@code pool}, or straight to the system when it is null. */
    NativeMemory(LargeBlockPool pool) {
        this.pool = pool;
    }

    /** A zero-filled, 64-byte-aligned buffer of exactly {@code byteSize} bytes. */
    public MemorySegment allocate(long byteSize) {
        return allocate(byteSize, 0);
    }

    /**
     * A 64-byte-aligned buffer of exactly {@code byteSize} bytes for a caller that overwrites its first
     * {@code headBytes} bytes before anything reads them (a column that grows copies its rows there): zero-filled
     * from {@code headBytes} on, while the head may hold what the memory held before, in this process. Memory that
     * is reused is filled only past the head: a column growing by a quarter would otherwise zero four fifths of its
     * new buffer only to copy its rows over them.
     *
     * @throws IllegalArgumentException when {@code byteSize} is not positive, or {@code headBytes} is negative or
     *     more than {@code byteSize}
     */
    public MemorySegment allocate(long byteSize, long headBytes) {
        ensureOpen();
        if (byteSize <= 0 || headBytes < 0 || headBytes > byteSize) {
            throw new IllegalArgumentException("byteSize=" + byteSize + " must be positive, and headBytes="
                    + headBytes + " within it");
        }
        AllocationFaults.beforeNative(byteSize); // a test's injected exhaustion, before anything changes
        MemorySegment segment = byteSize > LARGE_BYTES ? allocateLarge(byteSize, headBytes)
                : allocateSmall(byteSize, headBytes);
        reservedBytes += byteSize;
        totalAllocations++;
        return segment;
    }

    private MemorySegment allocateLarge(long byteSize, long headBytes) {
        if (pool != null) {
            return allocatePooled(byteSize, headBytes);
        }
        Arena arena = Arena.ofShared();
        try {
            long lead = ALIGNMENT * (largeStagger & 63);
            // page-aligned, so the lead alone decides where in a page the buffer starts
            MemorySegment segment = arena.allocate(lead + byteSize, PAGE).asSlice(lead, byteSize);
            largeStagger++;
            large.put(segment, new Large(arena, lead + byteSize, null));
            HELD.addAndGet(lead + byteSize);
            return segment;
        } catch (RuntimeException | OutOfMemoryError e) {
            arena.close();
            throw e;
        }
    }

    /**
     * {@link #allocateLarge} through the process's {@link LargeBlockPool}: an idle block that fits (zeroed here),
     * or a fresh one; the buffer is a view of the block under an arena of its own, which {@link #free} closes
     * before the block goes back, so no view outlives its buffer.
     */
    // restricted (reinterpret), and reached only through the pool, which exists only where native access is enabled
    @SuppressWarnings("restricted")
    private MemorySegment allocatePooled(long byteSize, long headBytes) {
        long maxLead = ALIGNMENT * 63;
        long wantedLead = ALIGNMENT * (largeStagger & 63);
        LargeBlockPool.Block block = pool.take(byteSize, maxLead, wantedLead);
        boolean reused = block != null;
        Arena view = null;
        try {
            if (!reused) {
                block = LargeBlockPool.allocate(wantedLead + byteSize);
            }
            long lead = block.bytes() - byteSize; // a reused block's room decides its lead (at most 63 lines)
            view = Arena.ofShared();
            MemorySegment segment = block.memory().reinterpret(view, null).asSlice(lead, byteSize);
            if (reused) { // resident memory: a memset, not a page fault per page
                segment.asSlice(headBytes).fill((byte) 0);
            }
            large.put(segment, new Large(view, block.bytes(), block));
            largeStagger++;
            HELD.addAndGet(block.bytes());
            return segment;
        } catch (RuntimeException | OutOfMemoryError e) {
            if (view != null) {
                view.close();
            }
            if (block != null) {
                pool.give(block);
            }
            throw e;
        }
    }

    /**
     * Returns the memory of freed large buffers that the process keeps for reuse (see {@link LargeBlockPool}) to
     * the system; returns how many bytes that was (0 when the pool is off).
     */
    public static long releaseIdleBlocks() {
        return LargeBlockPool.SHARED.release();
    }

    /** Bytes of freed large buffers kept for reuse by the process's allocators (see {@link LargeBlockPool}). */
    public static long idleBlockBytes() {
        return LargeBlockPool.SHARED.idleBytes();
    }

    private MemorySegment allocateSmall(long byteSize, long headBytes) {
        int shift = Math.max(MIN_CLASS_SHIFT, 64 - Long.numberOfLeadingZeros(byteSize - 1));
        Block block = freeBlocks[shift];
        boolean reused = block != null;
        if (!reused) {
            block = carve(1L << shift);
        }
        MemorySegment segment = block.memory.asSlice(0, byteSize);
        smallBlocks.put(segment, block); // the last step that may fail: nothing above changed the free lists
        if (reused) {
            freeBlocks[shift] = block.next;
            block.next = null;
            segment.asSlice(headBytes).fill((byte) 0); // (a later use of the block fills its own)
        }
        Slab owner = block.slab;
        if (owner.live++ == 0 && owner == spare) {
            spare = null; // in use again
        }
        return segment;
    }

    private Block carve(long blockBytes) {
        if (slab == null || slabOffset + blockBytes > slab.memory.byteSize()) {
            Arena arena = Arena.ofShared();
            Slab fresh;
            try {
                fresh = new Slab(arena, arena.allocate(SLAB_BYTES, ALIGNMENT));
                heldSlabs.add(fresh);
            } catch (RuntimeException | OutOfMemoryError e) {
                arena.close();
                throw e;
            }
            // a block of a class that a returned slab held free: buffers of one size are freed and allocated in
            // turn (a column that doubles only ever needs larger ones), so one empty slab is kept from now on
            keepsSpare |= (returnedClasses & blockBytes) != 0;
            Slab previous = slab;
            slab = fresh;
            slabBytes += SLAB_BYTES;
            HELD.addAndGet(SLAB_BYTES);
            // a rotating lead: 9 lines a slab (coprime with the 64 lines of a page) shifts the next slab's run
            slabOffset = ALIGNMENT * (9L * slabs++ & 63);
            if (previous != null && previous.live == 0) { // no longer carved: an empty one may go back now
                if (spare == null) {
                    spare = previous; // the fresh slab gets its first block right away: this is the one empty
                } else {
                    release(previous);
                }
            }
        }
        Block block = new Block(slab.memory.asSlice(slabOffset, blockBytes), slab);
        // blocks are powers of two >= 64 from a 64-aligned slab, spare lines are 64 bytes: aligned
        slabOffset += blockBytes + (blockBytes >= STAGGER_FROM_BYTES ? ALIGNMENT : 0);
        return block;
    }

    /** Frees a buffer this allocator handed out. */
    public void free(MemorySegment segment) {
        ensureOpen();
        Large held = large.get(segment);
        if (held != null) {
            held.arena().close(); // refused (a native call on another thread holds the buffer): nothing changed
            large.remove(segment);
            reservedBytes -= segment.byteSize();
            HELD.addAndGet(-held.bytes());
            if (held.block() != null) {
                pool.give(held.block()); // never throws
            }
            return;
        }
        Block block = smallBlocks.remove(segment);
        if (block == null) {
            throw new IllegalArgumentException("segment of byteSize=" + segment.byteSize()
                    + " was not allocated here or was already freed");
        }
        reservedBytes -= segment.byteSize();
        int shift = Long.numberOfTrailingZeros(block.memory.byteSize());
        block.next = freeBlocks[shift];
        freeBlocks[shift] = block;
        if (--block.slab.live == 0) {
            if (!keepsSpare) {
                release(block.slab); // the slab being carved too: the next small buffer carves a fresh one
            } else if (block.slab != slab) {
                emptied(block.slab);
            } else if (spare != null) {
                release(spare); // the slab being carved is empty now: it is the one empty slab kept
            }
        }
    }

    /**
     * A slab not being carved has no block in use: it becomes the spare, or, when an empty slab is held already
     * (the spare, or the slab being carved), goes back to the system with its free blocks. Should its arena refuse
     * to close (a segment of it held by a native call on another thread), it stays, empty and reusable.
     */
    private void emptied(Slab empty) {
        if (spare == empty) {
            return;
        }
        if (spare == null && (slab == null || slab.live > 0)) {
            spare = empty;
            return;
        }
        release(empty);
    }

    /**
     * Returns an empty slab other than the one being carved to the system, with its free blocks; one whose arena
     * refuses to close stays, empty and reusable.
     */
    private void release(Slab empty) {
        try {
            empty.arena.close();
        } catch (IllegalStateException busy) {
            return;
        }
        if (spare == empty) {
            spare = null;
        }
        if (slab == empty) {
            slab = null; // the slab being carved went back: the next small buffer carves a fresh one
        }
        heldSlabs.remove(empty);
        for (int shift = 0; shift < freeBlocks.length; shift++) {
            if (dropBlocksOf(empty, shift)) {
                returnedClasses |= 1L << shift;
            }
        }
        slabBytes -= SLAB_BYTES;
        HELD.addAndGet(-SLAB_BYTES);
    }

    /**
     * Keeps one empty slab from now on, as the allocator does by itself once it has carved a fresh slab after
     * giving one back (see Returning slabs); tests of the spare start there.
     */
    void keepOneEmptySlab() {
        keepsSpare = true;
    }

    /** Whether one empty slab is kept (see Returning slabs). */
    boolean keepsOneEmptySlab() {
        return keepsSpare;
    }

    /**
     * Takes the blocks of {@code slab} out of the free list of block size {@code shift}, the others keeping their
     * order; returns whether there were any. Allocates nothing (it relinks the list), so a release whose arena has
     * closed always finishes: no closed slab's block is left to be handed out.
     */
    private boolean dropBlocksOf(Slab slab, int shift) {
        boolean dropped = false;
        Block kept = null; // the last block kept so far
        for (Block block = freeBlocks[shift]; block != null; ) {
            Block next = block.next;
            if (block.slab == slab) {
                dropped = true;
                block.next = null;
                if (kept == null) {
                    freeBlocks[shift] = next;
                } else {
                    kept.next = next;
                }
            } else {
                kept = block;
            }
            block = next;
        }
        return dropped;
    }

    public long reservedBytes() {
        return reservedBytes;
    }

    /** Slabs held from the system (the one being carved, the spare and every slab with a block in use). */
    public int heldSlabs() {
        return heldSlabs.size();
    }

    /** Bytes held from the system: slabs plus live large buffers. */
    public long footprintBytes() {
        long bytes = slabBytes;
        for (Large held : large.values()) {
            bytes += held.bytes();
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
        // every arena is closed even when one refuses (a native call on another thread holds it: its memory stays
        // with it, and a pooled block is not given back while it is viewed); the first refusal is thrown at the end
        IllegalStateException refused = null;
        for (Slab held : heldSlabs) {
            try {
                held.arena.close();
            } catch (IllegalStateException busy) {
                refused = firstOf(refused, busy);
            }
        }
        heldSlabs.clear();
        slab = null;
        spare = null;
        for (Large held : large.values()) {
            try {
                held.arena().close();
            } catch (IllegalStateException busy) {
                refused = firstOf(refused, busy);
                continue;
            }
            if (held.block() != null) {
                pool.give(held.block());
            }
        }
        large.clear();
        smallBlocks.clear();
        reservedBytes = 0;
        slabBytes = 0;
        if (refused != null) {
            throw refused;
        }
    }

    private static IllegalStateException firstOf(IllegalStateException first, IllegalStateException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }

    /** A slab: its own arena and memory, and how many of its blocks are handed out. */
    private static final class Slab {
        final Arena arena;
        final MemorySegment memory;
        int live;

        Slab(Arena arena, MemorySegment memory) {
            this.arena = arena;
            this.memory = memory;
        }
    }

    /** A power-of-two block carved from a slab; {@code next} links it into its size's free list while it is free. */
    private static final class Block {
        final MemorySegment memory;
        final Slab slab;
        Block next;

        Block(MemorySegment memory, Slab slab) {
            this.memory = memory;
            this.slab = slab;
        }
    }

    /**
     * A large buffer's own arena, the bytes it holds from the system (the buffer and its stagger), and the pooled
     * block it views ({@code null} when the pool is off: the arena holds the memory itself).
     */
    private record Large(Arena arena, long bytes, LargeBlockPool.Block block) {}

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("native memory of this world is closed");
        }
    }
}
