package dev.jtecs.schedule;

import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.component.TagComponent;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs a group of parallel systems on the world's worker threads, then, back on the world's thread, marks their
 * declared writes dirty and applies their command buffers in system order.
 *
 * <pre>
 *   world thread: take each member's archetypes ─► publish the group ─► wait
 *   workers:      take the next member (shared counter) ─► body(dt, archetypes, own buffer) ─► note its range
 *   world thread: mark writes (member order, archetype order) ─► first failure? apply the members before it,
 *                 throw it : apply every member's range, in member order
 * </pre>
 *
 * <p>Invariants: a body never runs on the world's thread, whatever the thread count (so a body that calls the
 * world fails the same way on every count); what reaches the world depends only on the group and the bodies'
 * results, never on which worker ran what or when; the world's thread touches the buffers only after every
 * member finished.
 *
 * @implNote The workers are daemon threads started on the first group and parked between groups; handing a group
 *     over and back allocates nothing once the member arrays have grown to the largest group.
 */
final class ParallelSystems implements AutoCloseable {
    private final Worker[] workers;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger unfinished = new AtomicInteger();
    private volatile int generation;
    private volatile boolean closed;
    private volatile Thread waiter;
    private boolean started;

    // the group being run: written by the world's thread before the generation bump, read by the workers after
    private SystemEntry[] members = new SystemEntry[8];
    private List<Archetype>[] inputs = newLists(8);
    private final List<Archetype> none = List.of();
    private int count;
    private double dt;
    // per member: the worker whose buffer holds its commands, the range, its failure
    private int[] buffer = new int[8];
    private int[] from = new int[8];
    private int[] to = new int[8];
    private Throwable[] failures = new Throwable[8];

    ParallelSystems(int threads) {
        this.workers = new Worker[threads];
        for (int w = 0; w < threads; w++) {
            workers[w] = new Worker(w);
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Archetype>[] newLists(int n) {
        return (List<Archetype>[]) new List<?>[n];
    }

    /**
     * Runs {@code group[0..n)} (their run conditions already passed) and applies their work to {@code world}.
     *
     * @throws RuntimeException the failure of the first failing member in group order (later ones suppressed),
     *     after the commands of the members before it were applied
     */
    void run(SystemEntry[] group, int n, double dt, World world) {
        prepare(group, n, dt, world);
        dispatch();
        finish(world);
    }

    private void prepare(SystemEntry[] group, int n, double dt, World world) {
        if (n > members.length) {
            int capacity = Math.max(n, members.length * 2);
            members = new SystemEntry[capacity];
            inputs = newLists(capacity);
            buffer = new int[capacity];
            from = new int[capacity];
            to = new int[capacity];
            failures = new Throwable[capacity];
        }
        for (int i = 0; i < n; i++) {
            SystemEntry member = group[i];
            members[i] = member;
            inputs[i] = member.query == null ? none : nonEmpty(member.query.archetypes());
            failures[i] = null;
            buffer[i] = -1;
        }
        this.count = n;
        this.dt = dt;
    }

    private static List<Archetype> nonEmpty(List<Archetype> archetypes) {
        for (Archetype a : archetypes) {
            if (a.count() == 0) {
                List<Archetype> kept = new ArrayList<>(archetypes.size());
                for (Archetype b : archetypes) {
                    if (b.count() > 0) {
                        kept.add(b);
                    }
                }
                return List.copyOf(kept);
            }
        }
        return archetypes;
    }

    /** Hands the group to the workers and waits until every member ran. */
    private void dispatch() {
        if (!started) {
            for (Worker worker : workers) {
                worker.thread.start();
            }
            started = true;
        }
        for (Worker worker : workers) {
            worker.commands.clear();
        }
        unfinished.set(count); // before next: a worker still leaving the last group may take a member at once
        next.set(0);
        waiter = Thread.currentThread();
        generation++; // volatile write: publishes the group to the workers
        for (Worker worker : workers) {
            LockSupport.unpark(worker.thread);
        }
        while (unfinished.get() > 0) {
            LockSupport.park(this);
        }
        waiter = null;
    }

    private void finish(World world) {
        int failed = -1;
        Throwable first = null;
        for (int i = 0; i < count; i++) {
            if (failures[i] != null) {
                if (first == null) {
                    first = failures[i];
                    failed = i;
                } else if (first != failures[i]) {
                    first.addSuppressed(failures[i]);
                }
            }
        }
        String failedName = failed < 0 ? null : members[failed].name;
        markWrites(); // every member ran (or started): what it may have written is marked
        int upTo = failed < 0 ? count : failed;
        for (int i = 0; i < upTo; i++) {
            applyRange(world, workers[buffer[i]].commands, from[i], to[i]);
        }
        for (int i = 0; i < count; i++) {
            members[i] = null;
            inputs[i] = null;
            failures[i] = null;
        }
        for (Worker worker : workers) {
            worker.commands.clear();
        }
        if (first != null) {
            if (first instanceof Error error) {
                throw error;
            }
            throw first instanceof RuntimeException runtime ? runtime
                    : new IllegalStateException("parallel system " + failedName + " failed", first);
        }
    }

    private void markWrites() {
        for (int i = 0; i < count; i++) {
            Component<?>[] writes = members[i].writes;
            for (Archetype archetype : inputs[i]) {
                for (Component<?> write : writes) {
                    if (archetype.has(write)) {
                        archetype.markComponentDirty(write);
                    }
                }
            }
        }
    }

    /**
     * Applies requests {@code [start, end)} of a buffer to the world, in order, on the world's thread; returns
     * how many were skipped because their entity was no longer alive. A request the world refuses throws: the
     * ones before it stay staged, the ones after it are not applied.
     */
    static int applyRange(World world, SystemCommands commands, int start, int end) {
        int skipped = 0;
        for (int at = start; at < end; at++) {
            long id = commands.id(at);
            byte op = commands.op(at);
            if (op != SystemCommands.SPAWN && !world.isAlive(id)) {
                skipped++;
                continue;
            }
            Object arg = commands.arg(at);
            switch (op) {
                case SystemCommands.SET_TAG -> world.setTag(id, (TagComponent) arg);
                case SystemCommands.UNSET_TAG -> world.unsetTag(id, (TagComponent) arg);
                case SystemCommands.DESPAWN -> world.despawn(id);
                case SystemCommands.SET -> world.set(id, (Input) arg);
                case SystemCommands.REMOVE -> world.remove(id, (Component<?>) arg);
                case SystemCommands.SPAWN -> world.spawn((Input[]) arg);
                default -> throw new IllegalStateException("unknown command " + op);
            }
        }
        return skipped;
    }

    /** Stops the workers; a closed runner runs nothing more. */
    @Override
    public void close() {
        closed = true;
        for (Worker worker : workers) {
            LockSupport.unpark(worker.thread);
        }
    }

    private final class Worker implements Runnable {
        final int index;
        final SystemCommands commands = new SystemCommands();
        final Thread thread;

        Worker(int index) {
            this.index = index;
            this.thread = new Thread(this, "jtecs-systems-" + index);
            thread.setDaemon(true);
        }

        @Override
        public void run() {
            int seen = 0;
            while (!closed) {
                int now = generation;
                if (now == seen) {
                    LockSupport.park(this);
                    continue;
                }
                seen = now;
                for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                    runMember(i);
                }
            }
        }

        private void runMember(int i) {
            buffer[i] = index;
            from[i] = commands.size();
            try {
                members[i].parallel.run(dt, inputs[i], commands);
            } catch (Throwable t) {
                failures[i] = t;
            } finally {
                to[i] = commands.size();
                if (unfinished.decrementAndGet() == 0) {
                    LockSupport.unpark(waiter);
                }
            }
        }
    }
}
