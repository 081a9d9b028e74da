package dev.jtecs.kernels;

import dev.jtecs.query.Query;
import dev.jtecs.query.QueryVisitor;
import dev.jtecs.storage.Archetype;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Objects;

/**
 * Runs a {@link ColumnKernel} over the archetypes of a query and marks dirty exactly what it wrote.
 *
 * <p>For each non-empty matching archetype the runner hands the kernel the archetype's column segments and row
 * count, and then marks each distinct written component dirty ({@code Archetype.markDirtyAt}): always for
 * {@link WritePolicy#ALWAYS} kernels, only when the kernel reported a change for {@link WritePolicy#WHEN_CHANGED}
 * ones. Empty archetypes are skipped and never marked. Read-only columns are never marked.
 *
 * <pre>
 *   query.forEach ──► archetype (count &gt; 0) ──► binding k ──► kernel.run(segments, count, dt)
 *                      (same archetype and storage version? reuse : look up)         │ changed?
 *                                            markDirtyAt(written) ◄──────────────────┘ (ALWAYS: yes)
 * </pre>
 *
 * <p><b>Bindings.</b> Looking up a kernel's columns and written components costs tens of nanoseconds per
 * archetype, which is what a pass over many small archetypes spends besides the arithmetic. So the runner
 * remembers, for each of the last {@link #REMEMBERED_KERNELS} kernels it ran, what it handed over at each position
 * of the iteration: the archetype, its {@code Archetype.storageVersion()}, the segments, and the signature
 * positions of the written components. A visit reuses the binding at its position only when the archetype and
 * its storage version are the same. The version moves whenever an archetype's buffers are replaced (growth,
 * shrinking, a whole-archetype exchange, closing), so a reused segment is always one the archetype still holds;
 * positions never change for an archetype. A changed layout costs one lookup per archetype that changed. The
 * kernel receives the binding's own array: it must neither keep nor modify it.
 *
 * <p>The iteration is the query's own scope, so structural calls made meanwhile are staged. A runner is not
 * thread-safe: use one per thread. Once each remembered kernel has seen a layout, a run allocates nothing.
 */
public final class KernelRunner {
    /** How many kernels a runner keeps bindings for; running one more forgets the least recently bound. */
    public static final int REMEMBERED_KERNELS = 8;

    private final Plan[] plans = new Plan[REMEMBERED_KERNELS];
    private int nextPlan;
    private MemorySegment[] scratch = new MemorySegment[8];
    private final QueryVisitor visitor = this::visit;
    private ColumnKernel kernel;
    private Plan plan;
    private int position;
    private float dt;
    private int marked;

    /** A runner with no kernel bound yet. */
    public KernelRunner() {
    }

    /**
     * Runs {@code kernel} over every non-empty archetype of {@code query}.
     *
     * @return on how many archetypes the written columns were marked dirty
     * @throws IllegalArgumentException when the query does not include a component whose column the kernel
     *     touches (checked before anything runs)
     * @throws IllegalStateException when called again from inside a run
     */
    public int run(Query query, ColumnKernel kernel, float dt) {
        Objects.requireNonNull(query, "query");
        begin(kernel, dt);
        try {
            Plan bound = plan(kernel.columns());
            if (bound.checkedQuery != query) {
                kernel.columns().requireIncluded(query, kernel);
                bound.checkedQuery = query;
            }
            plan = bound;
            position = 0;
            query.forEach(visitor);
            return marked;
        } finally {
            end();
        }
    }

    /**
     * Runs {@code kernel} over one archetype, which must hold every column the kernel touches. The columns are
     * looked up afresh (no binding is kept).
     *
     * @return whether the written columns were marked dirty
     * @throws IllegalArgumentException when the archetype lacks a column
     */
    public boolean run(Archetype archetype, ColumnKernel kernel, float dt) {
        Objects.requireNonNull(archetype, "archetype");
        begin(kernel, dt);
        try {
            int count = archetype.count();
            if (count > 0) {
                KernelColumns columns = kernel.columns();
                if (scratch.length < columns.size()) {
                    scratch = new MemorySegment[columns.size()];
                }
                for (int i = 0; i < columns.size(); i++) {
                    scratch[i] = columns.segment(archetype, i);
                }
                runOn(archetype, scratch, count, null);
            }
            return marked > 0;
        } finally {
            Arrays.fill(scratch, null); // keep no view of a buffer a later structural change may free
            end();
        }
    }

    /** The bindings of {@code columns}: remembered, or replacing the least recently created ones. */
    private Plan plan(KernelColumns columns) {
        for (Plan candidate : plans) {
            if (candidate != null && candidate.columns == columns) {
                return candidate;
            }
        }
        Plan created = new Plan(columns);
        plans[nextPlan] = created;
        nextPlan = (nextPlan + 1) % REMEMBERED_KERNELS;
        return created;
    }

    private void begin(ColumnKernel kernel, float dt) {
        Objects.requireNonNull(kernel, "kernel");
        if (this.kernel != null) {
            throw new IllegalStateException("runner is already running " + this.kernel + "; cannot start " + kernel);
        }
        this.kernel = kernel;
        this.dt = dt;
        this.marked = 0;
    }

    private void end() {
        kernel = null;
        plan = null;
    }

    private void visit(Archetype archetype, int count) {
        int k = position++;
        runOn(archetype, plan.bind(k, archetype), count, plan.positions[k]);
    }

    /**
     * Runs the kernel over one archetype and marks what it wrote: an unconditional kernel's columns first (the
     * chain of loads a mark needs, archetype, table, dirty state, then overlaps the kernel's loop instead of
     * stalling after it, and a kernel that throws leaves its columns marked), a conditional kernel's after it,
     * when it reports a change. {@code written} holds the written components' positions, or is null to look
     * them up.
     */
    private void runOn(Archetype archetype, MemorySegment[] segments, int count, int[] written) {
        if (kernel.columns().policy() == WritePolicy.ALWAYS) {
            markWritten(archetype, written);
            kernel.run(segments, count, dt);
            return;
        }
        boolean changed;
        try {
            changed = kernel.run(segments, count, dt);
        } catch (RuntimeException | Error e) {
            markWritten(archetype, written); // it may have written some rows before it threw
            throw e;
        }
        if (changed) {
            markWritten(archetype, written);
        }
    }

    private void markWritten(Archetype archetype, int[] written) {
        if (written != null) {
            for (int c = 0; c < written.length; c++) {
                archetype.markDirtyAt(written[c]);
            }
        } else {
            KernelColumns columns = kernel.columns();
            for (int c = 0; c < columns.writtenComponentCount(); c++) {
                archetype.markComponentDirty(columns.writtenComponent(c));
            }
        }
        marked++;
    }

    /**
     * The segments one kernel's columns were bound to at each position of the last iterations: binding {@code k}
     * holds archetype {@code k}'s segments as of its storage version {@code versions[k]}, and the signature
     * positions of the components the kernel writes, which never change for an archetype.
     */
    private static final class Plan {
        final KernelColumns columns;
        /** The last query checked to include every column (a query's descriptor never changes). */
        Query checkedQuery;
        private Archetype[] archetypes = new Archetype[8];
        private long[] versions = new long[8];
        private MemorySegment[][] segments = new MemorySegment[8][];
        int[][] positions = new int[8][];

        Plan(KernelColumns columns) {
            this.columns = columns;
        }

        /** The segments of {@code archetype} for the visit at iteration position {@code k}. */
        MemorySegment[] bind(int k, Archetype archetype) {
            if (k < archetypes.length && archetypes[k] == archetype && versions[k] == archetype.storageVersion()) {
                return segments[k];
            }
            return rebind(k, archetype);
        }

        private MemorySegment[] rebind(int k, Archetype archetype) {
            if (k >= archetypes.length) {
                int grown = Math.max(k + 1, archetypes.length * 2);
                archetypes = Arrays.copyOf(archetypes, grown);
                versions = Arrays.copyOf(versions, grown);
                segments = Arrays.copyOf(segments, grown);
                positions = Arrays.copyOf(positions, grown);
            }
            archetypes[k] = null; // unusable until complete: a lookup below may throw
            MemorySegment[] bound = segments[k];
            if (bound == null) {
                bound = segments[k] = new MemorySegment[columns.size()];
            }
            for (int c = 0; c < bound.length; c++) {
                bound[c] = columns.segment(archetype, c);
            }
            int[] written = positions[k];
            if (written == null) {
                written = positions[k] = new int[columns.writtenComponentCount()];
            }
            for (int c = 0; c < written.length; c++) {
                written[c] = archetype.positionOf(columns.writtenComponent(c)); // present: its column was found
            }
            versions[k] = archetype.storageVersion();
            archetypes[k] = archetype;
            return bound;
        }
    }
}
