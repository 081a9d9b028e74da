package dev.jtecs.storage.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

/**
 * The memory of freed large buffers, kept for the next large buffers of any world of the process instead of going
 * back to the system, up to a limit.
 *
 * <p>Why. Memory fresh from the system costs a page fault per 4 KiB page on first touch (the allocator's zero fill
 * touches every page), and on the virtual machines this project runs on a fault costs about 10 microseconds:
 * 24 MiB of columns for a million new entities took 50-70 ms to allocate, against under 1 ms to zero the same
 * memory once it is resident. A world that is created and filled again and again (a level loaded anew, a
 * benchmark's world per operation) paid that every time; an on-heap engine does not, since the Java heap stays
 * resident.
 *
 * <p>Safety. A block is handed to a buffer through a view of its own arena ({@code MemorySegment.reinterpret}),
 * and freeing the buffer closes that arena before the block comes back here, so a view kept past the free throws
 * {@link IllegalStateException} exactly as a view of memory returned to the system does; no world ever reads
 * another's data through a stale view. {@code reinterpret} is a restricted method, so the pool works only where
 * native access is enabled for the core's module ({@code --enable-native-access=dev.jtecs.core}, or
 * {@code ALL-UNNAMED} on the class path); elsewhere {@link #ENABLED} is false and large buffers are allocated and
 * freed one arena each, as before, with no warning printed.
 *
 * <p>The limit is the system property {@code jtecs.nativePoolBytes} (bytes, read once; default
 * {@link #DEFAULT_LIMIT}; 0 turns the pool off). Blocks beyond it go back to the system, the oldest first.
 * {@link #release()} returns every idle block. Thread-safe: worlds on different threads share the pool.
 */
final class LargeBlockPool {
    /** The default bound on idle bytes: the columns of about five million entities of two small components. */
    static final long DEFAULT_LIMIT = 128L << 20;
    private static final long PAGE = 4096;

    /** Whether large buffers go through the pool: native access is enabled and the limit is not 0. */
    static final boolean ENABLED;
    /** The process's pool. */
    static final LargeBlockPool SHARED;

    static {
        long limit = Long.getLong("jtecs.nativePoolBytes", DEFAULT_LIMIT);
        ENABLED = limit > 0 && LargeBlockPool.class.getModule().isNativeAccessEnabled();
        SHARED = new LargeBlockPool(Math.max(0, limit));
    }

    /** A block: its own arena, and the memory the arena holds, page-aligned. */
    record Block(Arena arena, MemorySegment memory) {
        long bytes() {
            return memory.byteSize();
        }
    }

    private final long limit;
    private final ArrayDeque<Block> idle = new ArrayDeque<>(); // oldest first
    private long idleBytes;
    private long reuses;

    LargeBlockPool(long limit) {
        this.limit = limit;
    }

    /**
     * An idle block with room for a buffer of {@code byteSize} bytes behind a lead of at most {@code maxLead}
     * bytes, the room left over being the lead, a multiple of {@link NativeMemory#ALIGNMENT} (so the buffer keeps
     * its alignment, and holds no more than a fresh one would); one whose lead would be {@code preferredLead} is
     * taken first. {@code null} when none fits. Its memory holds whatever the last buffer left in it.
     */
    synchronized Block take(long byteSize, long maxLead, long preferredLead) {
        Block best = null;
        for (Block block : idle) {
            long lead = block.bytes() - byteSize;
            if (lead >= 0 && lead <= maxLead && lead % NativeMemory.ALIGNMENT == 0) {
                best = block;
                if (lead == preferredLead) {
                    break;
                }
            }
        }
        if (best != null) {
            idle.remove(best);
            idleBytes -= best.bytes();
            reuses++;
        }
        return best;
    }

    /** A block fresh from the system: {@code bytes} of page-aligned, zero-filled memory. */
    static Block allocate(long bytes) {
        Arena arena = Arena.ofShared();
        try {
            return new Block(arena, arena.allocate(bytes, PAGE));
        } catch (RuntimeException | OutOfMemoryError e) {
            arena.close();
            throw e;
        }
    }

    /**
     * Keeps a block no buffer uses any more (every view of it closed), returning the oldest idle blocks to the
     * system while the idle bytes would pass the limit; a block larger than the limit goes back at once. Never
     * throws: the caller has already given the block up, so a block this cannot keep (the queue cannot grow) goes
     * back to the system too. Arenas close outside the lock, one at a time, so nothing here allocates but the
     * queue's own growth.
     */
    void give(Block block) {
        Block keep = block;
        while (true) {
            Block back;
            synchronized (this) {
                if (keep.bytes() <= limit && idleBytes + keep.bytes() <= limit) {
                    if (offer(keep)) {
                        return;
                    }
                    back = keep; // the queue could not grow
                    keep = null;
                } else if (keep.bytes() > limit) {
                    back = keep;
                    keep = null;
                } else {
                    back = idle.pollFirst();
                    idleBytes -= back.bytes();
                }
            }
            back.arena().close(); // a handshake: outside the lock
            if (keep == null) {
                return;
            }
        }
    }

    /** Queues an idle block; false, having changed nothing, when the queue cannot grow. Under the lock. */
    private boolean offer(Block block) {
        try {
            idle.addLast(block);
        } catch (OutOfMemoryError full) {
            return false;
        }
        idleBytes += block.bytes();
        return true;
    }

    /** Returns every idle block to the system, one at a time; returns the bytes returned. */
    long release() {
        long bytes = 0;
        while (true) {
            Block back;
            synchronized (this) {
                back = idle.pollFirst();
                if (back == null) {
                    return bytes;
                }
                idleBytes -= back.bytes();
            }
            back.arena().close();
            bytes += back.bytes();
        }
    }

    /** Idle bytes held for reuse. */
    synchronized long idleBytes() {
        return idleBytes;
    }

    /** Idle blocks held for reuse. */
    synchronized int idleBlocks() {
        return idle.size();
    }

    /** How many blocks {@link #take} has handed out again since the pool was made. */
    synchronized long reuses() {
        return reuses;
    }

    long limit() {
        return limit;
    }
}
