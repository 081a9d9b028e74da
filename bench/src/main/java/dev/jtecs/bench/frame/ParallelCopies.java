package dev.jtecs.bench.frame;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Bulk copies between native segments, queued and then run as pieces on a borrowed {@link ForkJoinPool}: how a
 * consumer that copies whole columns every frame (the {@link DirtyExtractor}) spreads them over the frame's
 * workers instead of streaming them all on the frame thread.
 *
 * <pre>
 *   add(src, srcOffset, dst, dstOffset, bytes)   queued; nothing is copied yet
 *   run():  the queued bytes cut into pieces of at least MIN_PIECE_BYTES (64-byte multiples), about four per thread
 *           the calling thread and parallelism - 1 of the pool's workers claim pieces from one counter
 *           the caller returns once every piece has been copied; the queue is empty again
 * </pre>
 *
 * <p>Every queued segment must be accessible from the pool's threads (global, automatic or shared arenas; a
 * confined segment fails in the piece that touches it). The result does not depend on the thread count or on which thread copies which piece: every destination
 * byte is written by exactly one piece, with the bytes the sequential copies would have written, provided no
 * queued destination overlaps a queued source or another queued destination (the caller's promise; the extractor's
 * columns and output regions never overlap). A run of one piece, a pool of one worker, or a run called from a
 * worker of the same pool copies on the calling thread.
 *
 * <p>Failure: a copy that throws (a segment closed since it was queued) stops its piece; the other pieces still
 * run, and {@link #run} rethrows one of the failures after all of them have ended, with the queue emptied. The
 * destinations then hold some pieces' bytes and not others'.
 *
 * @implNote Not thread-safe: one thread queues and runs. The tasks are made once and resubmitted each run (their
 *     {@code exec} returns {@code false}; completion is counted here), and the queue's arrays only grow, so a run
 *     allocates nothing once the queue has reached its largest size.
 */
public final class ParallelCopies {
    /** The smallest piece handed to a thread: below this the hand-off costs more than the copy saves. */
    public static final long MIN_PIECE_BYTES = 256 * 1024;

    private final ForkJoinPool pool;
    private final AtomicInteger nextPiece = new AtomicInteger();
    private final AtomicInteger pending = new AtomicInteger();
    private Copier[] copiers = new Copier[0];
    private volatile Thread waiter;
    private volatile Throwable failure;

    private MemorySegment[] sources = new MemorySegment[8];
    private MemorySegment[] destinations = new MemorySegment[8];
    private long[] sourceOffsets = new long[8];
    private long[] destinationOffsets = new long[8];
    private long[] sizes = new long[8];
    private int[] firstPiece = new int[9]; // copy j's pieces: [firstPiece[j], firstPiece[j + 1])
    private int count;
    private long queuedBytes;
    private long pieceBytes;
    private int pieces;

    /** Copies on {@code pool}'s workers (and the calling thread); the pool is borrowed, never shut down here. */
    public ParallelCopies(ForkJoinPool pool) {
        this.pool = Objects.requireNonNull(pool, "pool");
    }

    /** How many copies are queued. */
    public int queued() {
        return count;
    }

    /** The bytes the queued copies will write. */
    public long queuedBytes() {
        return queuedBytes;
    }

    /**
     * Queues a copy of {@code bytes} bytes from {@code source} at {@code sourceOffset} to {@code destination} at
     * {@code destinationOffset}; checked against both segments now, copied by {@link #run}.
     *
     * @throws IndexOutOfBoundsException when either range lies outside its segment
     */
    public void add(MemorySegment source, long sourceOffset, MemorySegment destination, long destinationOffset,
            long bytes) {
        Objects.checkFromIndexSize(sourceOffset, bytes, source.byteSize());
        Objects.checkFromIndexSize(destinationOffset, bytes, destination.byteSize());
        if (bytes == 0) {
            return;
        }
        if (count == sizes.length) {
            int grown = count * 2;
            var s = Arrays.copyOf(sources, grown); // all first: a failed growth leaves the queue as it was
            var d = Arrays.copyOf(destinations, grown);
            var so = Arrays.copyOf(sourceOffsets, grown);
            var dO = Arrays.copyOf(destinationOffsets, grown);
            var z = Arrays.copyOf(sizes, grown);
            var f = Arrays.copyOf(firstPiece, grown + 1);
            sources = s;
            destinations = d;
            sourceOffsets = so;
            destinationOffsets = dO;
            sizes = z;
            firstPiece = f;
        }
        sources[count] = source;
        destinations[count] = destination;
        sourceOffsets[count] = sourceOffset;
        destinationOffsets[count] = destinationOffset;
        sizes[count] = bytes;
        count++;
        queuedBytes += bytes;
    }

    /**
     * Copies everything queued and empties the queue.
     *
     * @throws IllegalStateException when the pool is shut down: nothing is copied, the queue is emptied (a pool
     *     shut down while the run submits its tasks: the calling thread copies every piece left, then throws)
     * @throws RuntimeException a copy's failure, once every piece has ended
     */
    public void run() {
        if (count == 0) {
            return;
        }
        try {
            if (pool.isShutdown()) {
                throw new IllegalStateException("pool " + pool + " is shut down: the queued copies are dropped");
            }
            int threads = pool.getParallelism(); // the caller takes one worker's share: as many copiers as workers
            pieceBytes = Math.max(MIN_PIECE_BYTES, roundUp(queuedBytes / (threads * 4L), 64));
            pieces = 0;
            for (int j = 0; j < count; j++) {
                firstPiece[j] = pieces;
                pieces += (int) ((sizes[j] + pieceBytes - 1) / pieceBytes);
            }
            firstPiece[count] = pieces;
            failure = null;
            nextPiece.set(0);
            int helpers = Math.min(threads - 1, pieces - 1);
            if (helpers <= 0 || onOwnWorker()) {
                drain();
            } else {
                fork(helpers);
            }
            Throwable first = failure;
            failure = null;
            if (first instanceof RuntimeException e) {
                throw e;
            }
            if (first instanceof Error e) {
                throw e;
            }
        } finally {
            Arrays.fill(sources, 0, count, null);
            Arrays.fill(destinations, 0, count, null);
            count = 0;
            queuedBytes = 0;
        }
    }

    private boolean onOwnWorker() {
        return Thread.currentThread() instanceof ForkJoinWorkerThread worker && worker.getPool() == pool;
    }

    private void fork(int helpers) {
        if (copiers.length < helpers) {
            Copier[] grown = Arrays.copyOf(copiers, helpers);
            for (int i = copiers.length; i < helpers; i++) {
                grown[i] = new Copier();
            }
            copiers = grown;
        }
        pending.set(helpers);
        waiter = Thread.currentThread();
        int submitted = 0;
        RuntimeException refused = null;
        try {
            for (; submitted < helpers; submitted++) {
                pool.execute(copiers[submitted]);
            }
        } catch (RejectedExecutionException e) { // the submitted ones still run: copy alongside, then wait
            refused = new IllegalStateException("pool " + pool + " refused a copy task: is it shut down?", e);
            pending.addAndGet(submitted - helpers);
        }
        try {
            drain();
            await();
        } finally {
            waiter = null;
        }
        if (refused != null) {
            throw refused;
        }
    }

    private void await() {
        boolean interrupted = false;
        while (pending.get() != 0) {
            LockSupport.park(this);
            interrupted |= Thread.interrupted(); // keep waiting: the helpers are writing
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Claims and copies pieces until none is left. */
    private void drain() {
        int copy = 0;
        for (int piece = nextPiece.getAndIncrement(); piece < pieces; piece = nextPiece.getAndIncrement()) {
            while (firstPiece[copy + 1] <= piece) { // pieces are claimed in increasing order: scan forward
                copy++;
            }
            long start = (piece - firstPiece[copy]) * pieceBytes;
            long bytes = Math.min(pieceBytes, sizes[copy] - start);
            try {
                MemorySegment.copy(sources[copy], sourceOffsets[copy] + start, destinations[copy],
                        destinationOffsets[copy] + start, bytes);
            } catch (Throwable t) {
                if (failure == null) { // racy but harmless: some failure is kept, the run still throws
                    failure = t;
                }
            }
        }
    }

    private static long roundUp(long value, long multiple) {
        return (value + multiple - 1) / multiple * multiple;
    }

    /** A reusable task that copies pieces until none is left. */
    private final class Copier extends ForkJoinTask<Void> {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean exec() {
            try {
                drain();
            } finally {
                if (pending.decrementAndGet() == 0) {
                    LockSupport.unpark(waiter);
                }
            }
            return false; // never completed: resubmitted next run
        }

        @Override
        public Void getRawResult() {
            return null;
        }

        @Override
        protected void setRawResult(Void value) {}
    }
}
