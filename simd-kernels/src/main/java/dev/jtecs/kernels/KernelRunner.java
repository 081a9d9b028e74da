package dev.jtecs.kernels;

import dev.jtecs.component.FieldHandle;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryVisitor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.Column;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Runs a {@link ColumnKernel} over the archetypes of a query and marks dirty exactly what it wrote.
 *
 * <p>For each non-empty matching archetype the runner fetches the kernel's column segments with
 * {@code Archetype.get} (which marks nothing), calls the kernel once with the archetype's row count, and then
 * marks each distinct written component with {@code Archetype.markComponentDirty}: always for
 * {@link WritePolicy#ALWAYS} kernels, only when the kernel reported a change for {@link WritePolicy#WHEN_CHANGED}
 * ones. Empty archetypes are skipped and never marked. Read-only columns are never marked.
 *
 * <pre>
 *   query.forEach ──► archetype (count &gt; 0) ──► segments[] ──► kernel.run(segments, count, dt)
 *                                                                   │ changed?
 *                              markComponentDirty(written) ◄────────┘ (ALWAYS: yes)
 * </pre>
 *
 * <p>The iteration is the query's own scope, so structural calls made meanwhile are staged. A runner holds one
 * scratch array and is not thread-safe: use one per thread. After warm-up a run allocates nothing.
 */
public final class KernelRunner {
    private MemorySegment[] segments = new MemorySegment[8];
    private final QueryVisitor visitor = this::visit;
    private ColumnKernel kernel;
    private float dt;
    private int marked;

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
        KernelColumns columns = kernel.columns();
        for (int i = 0; i < columns.size(); i++) {
            FieldHandle field = columns.column(i);
            if (!query.descriptor().include().contains(field.component())) {
                throw new IllegalArgumentException("query " + query.descriptor() + " does not include "
                        + field.component().name() + ", whose column " + field.name() + " the kernel " + kernel
                        + " touches");
            }
        }
        begin(kernel, dt);
        try {
            query.forEach(visitor);
            return marked;
        } finally {
            end();
        }
    }

    /**
     * Runs {@code kernel} over one archetype, which must hold every column the kernel touches.
     *
     * @return whether the written columns were marked dirty
     * @throws IllegalArgumentException when the archetype lacks a column
     */
    public boolean run(Archetype archetype, ColumnKernel kernel, float dt) {
        Objects.requireNonNull(archetype, "archetype");
        begin(kernel, dt);
        try {
            visit(archetype, archetype.count());
            return marked > 0;
        } finally {
            end();
        }
    }

    private void begin(ColumnKernel kernel, float dt) {
        Objects.requireNonNull(kernel, "kernel");
        if (this.kernel != null) {
            throw new IllegalStateException("runner is already running " + this.kernel + "; cannot start " + kernel);
        }
        if (segments.length < kernel.columns().size()) {
            segments = new MemorySegment[kernel.columns().size()];
        }
        this.kernel = kernel;
        this.dt = dt;
        this.marked = 0;
    }

    private void end() {
        java.util.Arrays.fill(segments, null); // keep no view of a buffer a later structural change may free
        kernel = null;
    }

    private void visit(Archetype archetype, int count) {
        if (count == 0) {
            return;
        }
        KernelColumns columns = kernel.columns();
        for (int i = 0; i < columns.size(); i++) {
            segments[i] = segment(archetype, columns.column(i));
        }
        boolean changed = kernel.run(segments, count, dt);
        if (changed || columns.policy() == WritePolicy.ALWAYS) {
            for (int c = 0; c < columns.writtenComponentCount(); c++) {
                archetype.markComponentDirty(columns.writtenComponent(c));
            }
            marked++;
        }
    }

    /** The segment of one column of an archetype (marks nothing); shared with the parallel runner. */
    static MemorySegment segment(Archetype archetype, FieldHandle field) {
        Column column = archetype.column(field);
        if (column == null) {
            throw new IllegalArgumentException("archetype " + archetype + " has no column " + field.name() + " of "
                    + field.component().name());
        }
        return column.segment();
    }
}
