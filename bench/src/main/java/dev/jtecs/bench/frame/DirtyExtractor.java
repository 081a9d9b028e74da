package dev.jtecs.bench.frame;

import dev.jtecs.component.Component;
import dev.jtecs.component.FieldHandle;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The consumer side of dirty tracking, as a renderer would run it once per frame: copies what changed in a set
 * of columns into an off-heap output buffer (what it would upload), and clears the dirty bits it consumed.
 *
 * <p>The output holds one native segment per extracted field. Each archetype that holds every extracted
 * component owns a region of rows in it, the same rows in every field's segment, assigned the first time the
 * archetype is seen and reassigned (at the end of the buffer) when its rows outgrow the region. Region row
 * {@code r} mirrors archetype row {@code r}.
 *
 * <pre>
 *   extract(world): for each archetype world.forEachDirtyArchetype visits, holding every extracted component
 *     component dirty?  no ──► skip its fields
 *                       yes ─► written since last time (writeCount moved), new region, or residue overflowed?
 *                                yes ──► copy rows [0, count) of each of its fields       (one bulk copy each)
 *                                no  ──► copy rows [structuralAdded, count) and each structuralTouched row
 *     archetype.clearDirtyComponents()
 * </pre>
 *
 * <p>Invariants: after {@link #extract}, for every archetype it visited, region rows {@code [0, count)} equal
 * the archetype's rows bit for bit in every extracted field; archetypes it did not visit were clean, so their
 * regions are still equal. Copies are {@link MemorySegment#copy} of whole row ranges, never per-element loops.
 * It sees only what turned dirty after it was created and before dirty state is next cleared by someone else
 * ({@code world.update} clears at the end of every frame): run it as a system of the frame, late.
 *
 * @implNote Not thread-safe. Per frame it allocates nothing but, on the residue path, one small array per
 *     archetype; nothing per row (the dirty archetypes are visited, not listed). Column segments are looked up once per archetype and
 *     storage version ({@link Archetype#storageVersion()}) and kept: with many small archetypes (one per parent
 *     in a hierarchy) the lookups, not the copies, would dominate. The buffer grows by doubling; abandoned regions are not
 *     reclaimed (a bench tool: archetypes here only grow). Given a pool, the whole-column copies of a frame are
 *     queued while the archetypes are visited and run together at the end as pieces on the workers
 *     ({@link ParallelCopies}); smaller copies stay on the calling thread.
 */
public final class DirtyExtractor implements AutoCloseable {
    private static final int REGION_ALIGN_ROWS = 8;

    private final FieldHandle[] fields;          // grouped by component, in first-appearance order
    private final Component<?>[] components;     // distinct
    private final int[] firstField;              // fields of component c: [firstField[c], firstField[c + 1])
    private final int[] elementBytes;            // per field

    private Arena arena;                         // owns the outputs of the current size
    private MemorySegment[] outputs;
    private long outputRows;
    private long usedRows;

    // Per archetype id.
    private Archetype[] owner = new Archetype[16];
    private long[] regionBase = new long[16];
    private int[] regionRows = new int[16];
    private long[] structuralSeen = new long[16];
    private MemorySegment[][] columns = new MemorySegment[16][];  // the archetype's column of each field ...
    private long[] columnsVersion = new long[16];                // ... taken at this storage version
    private long[] writesSeen;                   // [id * components.length + c]

    private int lastColumns;
    private long lastBytes;
    private int lastArchetypes;
    private long totalColumns;
    private long totalBytes;
    private boolean closed;
    private final Consumer<Archetype> visitor = this::visit;
    private final ParallelCopies copies;          // null: every copy on the calling thread

    /**
     * An extractor of these fields (at least one; each at most once).
     *
     * @throws IllegalArgumentException for an empty list or a repeated field
     */
    public DirtyExtractor(List<? extends FieldHandle> fields) {
        this(fields, null);
    }

    /**
     * An extractor of these fields that runs its large copies (whole columns, {@link ParallelCopies#MIN_PIECE_BYTES}
     * and up) on {@code pool}'s workers as well as the calling thread, once per {@link #extract}; {@code null} copies
     * everything on the calling thread. The output is the same bytes either way. The pool is borrowed.
     *
     * @throws IllegalArgumentException for an empty list or a repeated field
     */
    public DirtyExtractor(List<? extends FieldHandle> fields, java.util.concurrent.ForkJoinPool pool) {
        this.copies = pool == null ? null : new ParallelCopies(pool);
        List<FieldHandle> list = List.copyOf(fields);
        if (list.isEmpty()) {
            throw new IllegalArgumentException("an extractor needs at least one field, got " + list);
        }
        List<Component<?>> distinct = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            if (list.indexOf(list.get(i)) != i) {
                throw new IllegalArgumentException("field " + list.get(i) + " listed twice in " + list);
            }
            if (!distinct.contains(list.get(i).component())) {
                distinct.add(list.get(i).component());
            }
        }
        this.components = distinct.toArray(Component<?>[]::new);
        this.fields = new FieldHandle[list.size()];
        this.firstField = new int[components.length + 1];
        int next = 0;
        for (int c = 0; c < components.length; c++) {
            firstField[c] = next;
            for (FieldHandle field : list) {
                if (field.component() == components[c]) {
                    this.fields[next++] = field;
                }
            }
        }
        firstField[components.length] = next;
        this.elementBytes = new int[this.fields.length];
        for (int f = 0; f < this.fields.length; f++) {
            elementBytes[f] = Columns.elementBytes(this.fields[f]);
        }
        this.writesSeen = new long[16 * components.length];
        this.outputs = new MemorySegment[this.fields.length];
        allocate(1024);
    }

    /** The extracted fields, grouped by component. */
    public List<FieldHandle> fields() {
        return List.of(fields);
    }

    /**
     * Copies what changed since the last extraction into the output and clears the dirty state of every
     * archetype it copied from.
     *
     * @return how many columns it copied from (whole or in part)
     */
    public int extract(World world) {
        checkOpen();
        lastColumns = 0;
        lastBytes = 0;
        lastArchetypes = 0;
        try {
            world.forEachDirtyArchetype(visitor);
        } finally {
            flushCopies(); // also after a failure: the queue must not outlive the frame that filled it
        }
        totalColumns += lastColumns;
        totalBytes += lastBytes;
        return lastColumns;
    }

    private void visit(Archetype archetype) {
        int id = archetype.id();
        if ((id >= owner.length || owner[id] != archetype) && !holdsAll(archetype)) {
            return; // not ours: its dirty bits belong to other consumers
        }
        ensureArchetypeSlots(id);
        int count = archetype.count();
        boolean fresh = owner[id] != archetype || regionRows[id] < count;
        if (fresh) {
            assignRegion(id, archetype, count);
        }
        if (fresh || columnsVersion[id] != archetype.storageVersion()) {
            cacheColumns(id, archetype);
        }
        boolean described = !fresh && archetype.structuralDescribed(structuralSeen[id]);
        int[] touched = null;
        for (int c = 0; c < components.length; c++) {
            if (!fresh && !archetype.isComponentDirty(components[c])) {
                continue;
            }
            long writes = archetype.writeCount(components[c]);
            boolean whole = fresh || !described || writes != writesSeen[id * components.length + c];
            writesSeen[id * components.length + c] = writes;
            if (!whole && touched == null) {
                touched = archetype.structuralTouched();
            }
            for (int f = firstField[c]; f < firstField[c + 1]; f++) {
                long copied = whole ? copyRows(archetype, f, 0, count)
                        : copyResidue(archetype, f, Math.min(archetype.structuralAdded(), count), count, touched);
                if (copied > 0) {
                    lastColumns++;
                    lastBytes += copied;
                }
            }
        }
        structuralSeen[id] = archetype.structuralCount();
        archetype.clearDirtyComponents();
        lastArchetypes++;
    }

    private boolean holdsAll(Archetype archetype) {
        for (Component<?> component : components) {
            if (!archetype.has(component)) {
                return false;
            }
        }
        return true;
    }

    /** Looks the archetype's columns up once per storage version (a lookup is a search of its signature). */
    private void cacheColumns(int id, Archetype archetype) {
        MemorySegment[] segments = columns[id];
        if (segments == null) {
            segments = new MemorySegment[fields.length];
            columns[id] = segments;
        }
        for (int f = 0; f < fields.length; f++) {
            segments[f] = Columns.segment(archetype, fields[f]);
        }
        columnsVersion[id] = archetype.storageVersion();
    }

    /** Copies rows {@code [from, to)} of field {@code f}; returns the bytes copied. */
    private long copyRows(Archetype archetype, int f, int from, int to) {
        if (from >= to) {
            return 0;
        }
        int id = archetype.id();
        long size = elementBytes[f];
        long bytes = (to - from) * size;
        if (copies != null && bytes >= ParallelCopies.MIN_PIECE_BYTES) {
            copies.add(columns[id][f], from * size, outputs[f], (regionBase[id] + from) * size, bytes);
        } else {
            MemorySegment.copy(columns[id][f], from * size, outputs[f], (regionBase[id] + from) * size, bytes);
        }
        return bytes;
    }

    /** Copies the appended rows {@code [added, count)} and each touched row below {@code added}. */
    private long copyResidue(Archetype archetype, int f, int added, int count, int[] touched) {
        long bytes = copyRows(archetype, f, added, count);
        for (int row : touched) {
            if (row < added) {
                bytes += copyRows(archetype, f, row, row + 1);
            }
        }
        return bytes;
    }

    private void assignRegion(int id, Archetype archetype, int count) {
        int rows = Math.max(REGION_ALIGN_ROWS, roundUp(count + count / 4, REGION_ALIGN_ROWS));
        long end = usedRows + rows;
        if (end > outputRows) {
            long grown = outputRows;
            while (grown < end) {
                grown *= 2;
            }
            allocate(grown);
        }
        owner[id] = archetype;
        regionBase[id] = usedRows;
        regionRows[id] = rows;
        usedRows = end;
    }

    /** Runs the queued large copies (on the pool), if any. */
    private void flushCopies() {
        if (copies != null) {
            copies.run();
        }
    }

    /** Replaces the output segments by ones of {@code rows} rows, keeping what the used rows hold. */
    private void allocate(long rows) {
        flushCopies(); // the queued copies write into the outputs about to be replaced: finish them first
        Arena next = Arena.ofShared();
        MemorySegment[] grown = new MemorySegment[fields.length];
        for (int f = 0; f < fields.length; f++) {
            grown[f] = next.allocate(rows * elementBytes[f], 64);
            if (outputs[f] != null && usedRows > 0) {
                MemorySegment.copy(outputs[f], 0, grown[f], 0, usedRows * elementBytes[f]);
            }
        }
        if (arena != null) {
            arena.close();
        }
        arena = next;
        outputs = grown;
        outputRows = rows;
    }

    private void ensureArchetypeSlots(int id) {
        if (id < owner.length) {
            return;
        }
        int n = Math.max(id + 1, owner.length * 2);
        owner = Arrays.copyOf(owner, n);
        regionBase = Arrays.copyOf(regionBase, n);
        regionRows = Arrays.copyOf(regionRows, n);
        structuralSeen = Arrays.copyOf(structuralSeen, n);
        columns = Arrays.copyOf(columns, n);
        columnsVersion = Arrays.copyOf(columnsVersion, n);
        writesSeen = Arrays.copyOf(writesSeen, n * components.length);
    }

    private static int roundUp(int value, int multiple) {
        return (value + multiple - 1) / multiple * multiple;
    }

    /**
     * The output rows mirroring {@code archetype}'s rows {@code [0, rows)} in field {@code field}: a view into
     * the buffer, valid until the buffer next grows.
     *
     * @throws IllegalArgumentException when the archetype has no region, the field is not extracted, or
     *     {@code rows} exceeds the region
     */
    public MemorySegment region(Archetype archetype, FieldHandle field, int rows) {
        checkOpen();
        int f = Arrays.asList(fields).indexOf(Objects.requireNonNull(field, "field"));
        int id = archetype.id();
        if (f < 0) {
            throw new IllegalArgumentException("field " + field + " is not extracted; fields=" + fields());
        }
        if (id >= owner.length || owner[id] != archetype) {
            throw new IllegalArgumentException("archetype " + archetype + " has no region");
        }
        if (rows < 0 || rows > regionRows[id]) {
            throw new IllegalArgumentException("rows=" + rows + " outside 0.." + regionRows[id] + " of the region of "
                    + archetype);
        }
        return outputs[f].asSlice(regionBase[id] * elementBytes[f], (long) rows * elementBytes[f]);
    }

    /** Columns copied from by the last {@link #extract} (a partial copy counts once). */
    public int lastColumns() {
        return lastColumns;
    }

    /** Bytes copied by the last {@link #extract}. */
    public long lastBytes() {
        return lastBytes;
    }

    /** Archetypes the last {@link #extract} consumed (copied from and cleared). */
    public int lastArchetypes() {
        return lastArchetypes;
    }

    public long totalColumns() {
        return totalColumns;
    }

    public long totalBytes() {
        return totalBytes;
    }

    /** Native bytes the output buffer holds now. */
    public long bytesReserved() {
        long bytes = 0;
        for (int f = 0; f < fields.length; f++) {
            bytes += outputRows * elementBytes[f];
        }
        return bytes;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("extractor is closed");
        }
    }

    /** Frees the output buffer; later calls throw. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            arena.close();
        }
    }
}
