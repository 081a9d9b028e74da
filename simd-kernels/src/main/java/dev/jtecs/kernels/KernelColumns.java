package dev.jtecs.kernels;

import dev.jtecs.component.Component;
import dev.jtecs.component.FieldHandle;
import dev.jtecs.component.TargetSelector;
import dev.jtecs.query.Query;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.Column;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a kernel touches: the columns it writes, then the columns it only reads, and when its writes count.
 *
 * <p>The runner hands a kernel one segment per column in this order, writes first ({@code segments[0 ..
 * writes().size())}), then reads. A written column may also be read. Dirty state in core is per component, so
 * a run marks each distinct component of {@link #writes()} once; read-only columns are never marked.
 *
 * <p>Invariants: at least one written column; no column twice; no relationship selector (its column has no
 * component id of its own to mark).
 *
 * <p>It also answers what every runner asks of a declaration ({@link KernelRunner} and the parallel runners alike):
 * whether a query includes every column ({@link #requireIncluded}), each column's segment in an archetype
 * ({@link #segment}), and the distinct components to mark once the kernel has written
 * ({@link #writtenComponentCount()}, {@link #writtenComponent(int)}).
 */
public final class KernelColumns {
    private final List<FieldHandle> writes;
    private final List<FieldHandle> reads;
    private final WritePolicy policy;
    private final Component<?>[] writtenComponents;

    private KernelColumns(List<FieldHandle> writes, List<FieldHandle> reads, WritePolicy policy) {
        this.writes = writes;
        this.reads = reads;
        this.policy = policy;
        this.writtenComponents = writes.stream().map(FieldHandle::component).distinct().toArray(Component<?>[]::new);
    }

    /**
     * Declares a kernel's columns.
     *
     * @throws IllegalArgumentException when nothing is written, a column repeats, or a column belongs to a
     *     relationship selector
     */
    public static KernelColumns of(List<? extends FieldHandle> writes, List<? extends FieldHandle> reads,
            WritePolicy policy) {
        List<FieldHandle> w = List.copyOf(writes);
        List<FieldHandle> r = List.copyOf(reads);
        Objects.requireNonNull(policy, "policy");
        if (w.isEmpty()) {
            throw new IllegalArgumentException("a kernel writes at least one column: writes=" + w + " reads=" + r);
        }
        List<FieldHandle> all = new ArrayList<>(w);
        all.addAll(r);
        for (int i = 0; i < all.size(); i++) {
            FieldHandle field = all.get(i);
            if (field.component() instanceof TargetSelector<?>) {
                throw new IllegalArgumentException("column " + field + " belongs to a relationship selector: "
                        + "kernels take component fields only");
            }
            if (all.indexOf(field) != i) {
                throw new IllegalArgumentException("column " + field + " declared twice: writes=" + w + " reads=" + r);
            }
        }
        return new KernelColumns(w, r, policy);
    }

    /** The written columns: segments {@code [0, writes().size())}. */
    public List<FieldHandle> writes() {
        return writes;
    }

    /** The read-only columns: segments {@code [writes().size(), size())}. */
    public List<FieldHandle> reads() {
        return reads;
    }

    public WritePolicy policy() {
        return policy;
    }

    /** How many segments the kernel receives. */
    public int size() {
        return writes.size() + reads.size();
    }

    /** The column of segment {@code index}. */
    public FieldHandle column(int index) {
        return index < writes.size() ? writes.get(index) : reads.get(index - writes.size());
    }

    /** How many distinct components the written columns belong to. */
    public int writtenComponentCount() {
        return writtenComponents.length;
    }

    /** The {@code index}-th distinct written component, in order of first appearance in {@link #writes()}. */
    public Component<?> writtenComponent(int index) {
        return writtenComponents[index];
    }

    /**
     * Throws unless {@code query} includes the component of every column. {@code kernel} names the kernel in the
     * message.
     *
     * @throws IllegalArgumentException naming the first column whose component the query does not include
     */
    public void requireIncluded(Query query, Object kernel) {
        for (int i = 0; i < size(); i++) {
            FieldHandle field = column(i);
            if (!query.descriptor().include().contains(field.component())) {
                throw new IllegalArgumentException("query " + query.descriptor() + " does not include "
                        + field.component().name() + ", whose column " + field.name() + " the kernel " + kernel
                        + " touches");
            }
        }
    }

    /**
     * The segment of column {@code index} in {@code archetype} ({@code Archetype.column}: marks nothing).
     *
     * @throws IllegalArgumentException when the archetype has no such column
     */
    public MemorySegment segment(Archetype archetype, int index) {
        FieldHandle field = column(index);
        Column column = archetype.column(field);
        if (column == null) {
            throw new IllegalArgumentException("archetype " + archetype + " has no column " + field.name() + " of "
                    + field.component().name());
        }
        return column.segment();
    }

    @Override
    public String toString() {
        return "KernelColumns[writes=" + writes + ", reads=" + reads + ", policy=" + policy + "]";
    }
}
