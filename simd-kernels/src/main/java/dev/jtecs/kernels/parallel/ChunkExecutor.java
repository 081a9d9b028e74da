package dev.jtecs.kernels.parallel;

import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs the units of a {@link ChunkPlan} on a {@link ForkJoinPool} and waits for all of them: the fork/join half of
 * a parallel pass. The pool is either borrowed (the caller's, left running) or owned (made from a thread count,
 * shut down by {@link #close()}).
 *
 * <pre>
 *   caller: publish plan ──► execute(drainer 0..d-2) ──► drain as worker P ──► park until pending == 0
 *           ──► first failure? throw                        (d = min(P, units), P = the pool's parallelism)
 *   drainer i: while (u = nextUnit++) &lt; units: for each chunk of u: ran; body.run(chunk, i)
 *              (catch ─► chunk.failure, and changed: the body may have written before it threw)
 *              pending-- ──► the last one unparks the caller
 * </pre>
 *
 * <p>A pass runs on P threads: the caller and P - 1 of the pool's workers. The caller drains units as soon as it
 * has handed the others theirs, instead of parking while they wake up; on a machine of two cores a pass on the
 * caller and two workers (three threads) measured slower than the same pass on the caller alone. Units are
 * claimed from one atomic counter, so a thread slowed down by the machine leaves its share to the
 * others. A plan of one unit, or a call from a worker thread of the same pool (which must not park waiting for
 * its own pool), runs on the calling thread. A chunk's failure stops the rest of its unit but no other unit, so
 * the lowest-numbered failing chunk always runs and is always the one thrown; later failures are added to it as
 * suppressed. The caller returns only once every drainer has left its loop, so no task outlives the pass.
 *
 * <p>Drainers are {@code ForkJoinTask}s made once and resubmitted every pass: their {@code exec} returns
 * {@code false}, so the pool never completes them and they can run again (completion is counted here instead of
 * by {@code join}, which would allocate a wait node per blocked join). After warm-up a pass allocates nothing.
 * One pass at a time: the executor is driven by one calling thread.
 */
final class ChunkExecutor implements AutoCloseable {
    /** The work of one chunk; returns whether a written column changed. */
    @FunctionalInterface
    interface Body {
        boolean run(ChunkPlan.Chunk chunk, int worker) throws Exception;
    }

    private final ForkJoinPool pool;
    private final boolean ownsPool;
    private final AtomicInteger nextUnit = new AtomicInteger();
    private final AtomicInteger pending = new AtomicInteger();
    private Drainer[] drainers = new Drainer[0];
    private volatile Thread waiter;
    private ChunkPlan plan; // written before the drainers are submitted; the submission publishes them
    private Body body;
    private boolean closed;

    /** Borrows {@code pool}; {@link #close()} leaves it running. */
    ChunkExecutor(ForkJoinPool pool) {
        this.pool = Objects.requireNonNull(pool, "pool");
        this.ownsPool = false;
    }

    /** Owns a new pool of {@code threads} daemon workers named {@code jtecs-kernels-<n>}. */
    ChunkExecutor(int threads) {
        if (threads < 1 || threads > 32_767) {
            throw new IllegalArgumentException("threads=" + threads + " outside 1..32767");
        }
        this.pool = new ForkJoinPool(threads, ChunkExecutor::newWorker, null, false);
        this.ownsPool = true;
    }

    private static ForkJoinWorkerThread newWorker(ForkJoinPool pool) {
        ForkJoinWorkerThread thread = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
        thread.setName("jtecs-kernels-" + thread.getPoolIndex());
        thread.setDaemon(true);
        return thread;
    }

    ForkJoinPool pool() {
        return pool;
    }

    /** How many threads the pool runs units on. */
    int parallelism() {
        return pool.getParallelism();
    }

    /** The worker slots a body may index scratch state by: {@code [0, parallelism()]}, the last the caller's. */
    int workerSlots() {
        return parallelism() + 1;
    }

    /**
     * Runs {@code body} on every chunk of {@code plan} and returns once all have run.
     *
     * @throws IllegalStateException when closed or the pool is shut down (nothing runs)
     * @throws RuntimeException the first chunk's failure, by chunk order, with the others suppressed
     */
    void run(ChunkPlan plan, Body body) {
        if (closed || pool.isShutdown()) {
            throw new IllegalStateException(closed ? "runner is closed" : "pool " + pool + " is shut down");
        }
        if (plan.unitCount() == 0) {
            return;
        }
        if (plan.unitCount() == 1 || onOwnWorker()) {
            for (int unit = 0; unit < plan.unitCount(); unit++) {
                runUnit(plan, body, unit, parallelism());
            }
        } else {
            fork(plan, body);
        }
        rethrowFirstFailure(plan);
    }

    private boolean onOwnWorker() {
        return Thread.currentThread() instanceof ForkJoinWorkerThread worker && worker.getPool() == pool;
    }

    private void fork(ChunkPlan plan, Body body) {
        int count = Math.min(parallelism(), plan.unitCount()) - 1; // the calling thread drains too
        if (drainers.length < count) {
            Drainer[] grown = Arrays.copyOf(drainers, count);
            for (int i = drainers.length; i < count; i++) {
                grown[i] = new Drainer(i);
            }
            drainers = grown;
        }
        this.plan = plan;
        this.body = body;
        nextUnit.set(0);
        pending.set(count);
        waiter = Thread.currentThread();
        int submitted = 0;
        Throwable refused = null;
        try {
            for (; submitted < count; submitted++) {
                pool.execute(drainers[submitted]);
            }
        } catch (Throwable t) { // shut down meanwhile: the drainers already queued still run, wait for them
            refused = t;
            pending.addAndGet(submitted - count);
        }
        try {
            drain(parallelism());
            await();
        } finally {
            this.plan = null;
            this.body = null;
            waiter = null;
        }
        if (refused instanceof RejectedExecutionException) {
            throw new IllegalStateException("pool " + pool + " refused a task: is it shut down?", refused);
        }
        if (refused instanceof RuntimeException e) {
            throw e;
        }
        if (refused instanceof Error e) {
            throw e;
        }
    }

    /** Claims and runs units until none is left, as worker {@code worker}. */
    private void drain(int worker) {
        ChunkPlan p = plan;
        Body b = body;
        for (int unit = nextUnit.getAndIncrement(); unit < p.unitCount(); unit = nextUnit.getAndIncrement()) {
            runUnit(p, b, unit, worker);
        }
    }

    private void await() {
        boolean interrupted = false;
        while (pending.get() != 0) {
            LockSupport.park(this);
            interrupted |= Thread.interrupted(); // keep waiting: workers are writing into the plan
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void runUnit(ChunkPlan plan, Body body, int unit, int worker) {
        for (int c = plan.unitStart(unit), end = plan.unitStart(unit + 1); c < end; c++) {
            ChunkPlan.Chunk chunk = plan.chunk(c);
            chunk.ran = true;
            try {
                chunk.changed = body.run(chunk, worker);
            } catch (Throwable t) {
                chunk.changed = true; // it may have written rows before it threw
                chunk.failure = t;
                return;
            }
        }
    }

    private static void rethrowFirstFailure(ChunkPlan plan) {
        Throwable first = null;
        for (int c = 0; c < plan.chunkCount(); c++) {
            ChunkPlan.Chunk chunk = plan.chunk(c);
            Throwable failure = chunk.failure;
            if (failure == null) {
                continue;
            }
            chunk.failure = null;
            if (first == null) {
                first = failure;
            } else if (failure != first) {
                first.addSuppressed(failure);
            }
        }
        if (first instanceof RuntimeException e) {
            throw e;
        }
        if (first instanceof Error e) {
            throw e;
        }
        if (first != null) {
            throw new IllegalStateException("a kernel failed on a worker", first);
        }
    }

    /** Shuts an owned pool down (its workers are idle: no pass is running); a borrowed pool is left alone. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (ownsPool) {
            pool.close();
        }
    }

    boolean isClosed() {
        return closed;
    }

    /** A reusable task that claims units until none is left. */
    private final class Drainer extends ForkJoinTask<Void> {
        private static final long serialVersionUID = 1L;

        private final int worker;

        Drainer(int worker) {
            this.worker = worker;
        }

        @Override
        protected boolean exec() {
            try {
                drain(worker);
            } finally {
                if (pending.decrementAndGet() == 0) {
                    LockSupport.unpark(waiter);
                }
            }
            return false; // never completed: resubmitted next pass
        }

        @Override
        public Void getRawResult() {
            return null;
        }

        @Override
        protected void setRawResult(Void value) {}
    }
}
