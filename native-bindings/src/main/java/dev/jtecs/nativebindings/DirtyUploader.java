package dev.jtecs.nativebindings;

import dev.jtecs.component.Component;
import dev.jtecs.component.FieldHandle;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.Column;
import dev.jtecs.world.World;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The GPU side of dirty tracking: once per frame, sends what changed in a set of columns to an
 * {@link UploadTarget}, straight from the columns' native addresses, and clears the dirty state it consumed.
 *
 * <p>The target holds one buffer per field. Each archetype that holds every uploaded component owns a region of
 * rows in them (the same rows in every field's buffer), assigned when the archetype is first seen and moved to
 * the end when its rows outgrow it. Region row {@code r} mirrors archetype row {@code r}; {@link #regionCount}
 * and the region accessors say what to draw.
 *
 * <pre>
 *   upload(world): for each archetype world.forEachDirtyArchetype visits, holding every uploaded component
 *     component dirty?  no ──► nothing of it is sent
 *                       yes ─► new region, written since last time (writeCount moved), or residue overflowed?
 *                                yes ──► send rows [0, count) of each of its fields          (one upload each)
 *                                no  ──► send rows [structuralAdded, count) and each structuralTouched row
 *     archetype.clearDirtyComponents()
 *   uploadEverything(world): every archetype holding every component: rows [0, count) of every field
 * </pre>
 *
 * <p>Invariants: after {@link #upload}, region rows {@code [0, count)} of every archetype it visited equal the
 * archetype's rows bit for bit in every field; archetypes it did not visit were clean, so theirs are still
 * equal. It sees only what turned dirty after it was created and before someone else clears dirty state
 * ({@code world.update} clears at the end of every frame): run it as a system of the frame, in the render
 * phase, and let no other consumer clear dirty state first.
 *
 * @implNote Not thread-safe; call it on the thread that owns the target (the GL context's thread). Once the
 *     regions have their size a frame allocates nothing: the dirty archetypes are visited, not listed, column
 *     addresses are looked up once per archetype and storage version, and the residue's touched rows are
 *     copied into an array the uploader keeps ({@link Archetype#structuralTouched(int[])}).
 */
public final class DirtyUploader {
    private static final int REGION_ALIGN_ROWS = 8;
    private static final int FIRST_ROWS = 1024;

    private final UploadTarget target;
    private final FieldHandle[] fields;          // grouped by component, in first-appearance order
    private final Component<?>[] components;     // distinct
    private final int[] firstField;              // fields of component c: [firstField[c], firstField[c + 1])
    private final int[] elementBytes;            // per field

    private long capacityRows;
    private long usedRows;

    // Per region, in the order regions were assigned (a moved region keeps its index).
    private int regions;
    private Archetype[] regionOwner = new Archetype[16];
    private long[] regionBase = new long[16];
    private int[] regionRows = new int[16];
    private int[] regionCount = new int[16];

    // Per archetype id.
    private int[] regionOf = new int[16];        // region index + 1; 0 = none
    private long[] structuralSeen = new long[16];
    private long[][] addresses = new long[16][]; // the archetype's column address of each field ...
    private long[] addressesVersion = new long[16]; // ... taken at this storage version
    private long[] writesSeen;                   // [id * components.length + c]

    private final int[] touchedRows = new int[Archetype.STRUCTURAL_TOUCHED_LIMIT];
    private long lastBytes;
    private int lastUploads;
    private int lastArchetypes;
    private long totalBytes;
    private final Consumer<Archetype> dirtyVisitor = this::visitDirty;
    private final Consumer<Archetype> everythingVisitor = this::visitEverything;

    /**
     * An uploader of these fields (at least one; each at most once) into {@code target}, whose buffers it sizes
     * at once for a first {@value #FIRST_ROWS} rows.
     *
     * @throws IllegalArgumentException for an empty list, a repeated field, or a field of a managed component
     */
    public DirtyUploader(List<? extends FieldHandle> fields, UploadTarget target) {
        this.target = Objects.requireNonNull(target, "target");
        List<FieldHandle> list = List.copyOf(fields);
        if (list.isEmpty()) {
            throw new IllegalArgumentException("an uploader needs at least one field, got " + list);
        }
        List<Component<?>> distinct = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            if (list.indexOf(list.get(i)) != i) {
                throw new IllegalArgumentException("field " + list.get(i).name() + " listed twice in " + names(list));
            }
            if (list.get(i).component().layout().heapColumn()) {
                throw new IllegalArgumentException("field " + list.get(i).name() + " of "
                        + list.get(i).component().name() + " lives on the heap; only native columns upload");
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
            elementBytes[f] = elementBytes(this.fields[f]);
        }
        this.writesSeen = new long[16 * components.length];
        growTo(FIRST_ROWS);
    }

    /** The bytes one row of {@code field} takes in its column and in the target's buffer. */
    public static int elementBytes(FieldHandle field) {
        return field.component().layout().fieldKinds().get(field.field()).byteSize();
    }

    private static List<String> names(List<FieldHandle> fields) {
        return fields.stream().map(f -> f.component().name() + "." + f.name()).toList();
    }

    /** The uploaded fields, grouped by component: field index {@code f} of the target is {@code fields().get(f)}. */
    public List<FieldHandle> fields() {
        return List.of(fields);
    }

    /**
     * Sends what changed since the last upload and clears the dirty state of every archetype it sent from.
     *
     * @return the bytes sent
     */
    public long upload(World world) {
        startFrame();
        world.forEachDirtyArchetype(dirtyVisitor);
        totalBytes += lastBytes;
        return lastBytes;
    }

    /**
     * Sends every row of every field of every archetype that holds the uploaded components, dirty or not, and
     * clears their dirty state: what a renderer without dirty tracking does each frame (the benchmark's
     * baseline), and a full refresh after the target lost its contents.
     *
     * @return the bytes sent
     */
    public long uploadEverything(World world) {
        startFrame();
        world.forEachArchetype(everythingVisitor);
        totalBytes += lastBytes;
        return lastBytes;
    }

    private void startFrame() {
        lastBytes = 0;
        lastUploads = 0;
        lastArchetypes = 0;
    }

    private void visitEverything(Archetype archetype) {
        if (!holdsAll(archetype)) {
            return;
        }
        int count = archetype.count();
        int id = prepare(archetype, count);
        for (int f = 0; f < fields.length; f++) {
            send(id, f, 0, count);
        }
        for (int c = 0; c < components.length; c++) {
            writesSeen[id * components.length + c] = archetype.writeCount(components[c]);
        }
        finish(archetype, id, count);
    }

    private void visitDirty(Archetype archetype) {
        int id = archetype.id();
        boolean known = id < regionOf.length && regionOf[id] != 0 && regionOwner[regionOf[id] - 1] == archetype;
        if (!known && !holdsAll(archetype)) {
            return; // not ours: its dirty bits belong to other consumers
        }
        int count = archetype.count();
        boolean fresh = !known || regionRows[regionOf[id] - 1] < count;
        prepare(archetype, count);
        boolean described = !fresh && archetype.structuralDescribed(structuralSeen[id]);
        int added = described ? Math.min(archetype.structuralAdded(), count) : 0;
        int touched = -1; // rows in touchedRows, once fetched
        for (int c = 0; c < components.length; c++) {
            if (!fresh && !archetype.isComponentDirty(components[c])) {
                continue;
            }
            long writes = archetype.writeCount(components[c]);
            boolean whole = fresh || !described || writes != writesSeen[id * components.length + c];
            writesSeen[id * components.length + c] = writes;
            if (!whole && touched < 0) {
                touched = added > 0 ? archetype.structuralTouched(touchedRows) : 0;
            }
            for (int f = firstField[c]; f < firstField[c + 1]; f++) {
                if (whole) {
                    send(id, f, 0, count);
                } else {
                    sendResidue(id, f, added, count, touched);
                }
            }
        }
        finish(archetype, id, count);
    }

    /** Gives the archetype a region that holds {@code count} rows and fresh column addresses; returns its id. */
    private int prepare(Archetype archetype, int count) {
        int id = archetype.id();
        ensureArchetypeSlots(id);
        int region = regionOf[id] - 1;
        if (region < 0 || regionOwner[region] != archetype) {
            region = newRegion(archetype);
            regionOf[id] = region + 1;
            addresses[id] = null;
        }
        if (regionRows[region] < count) {
            placeRegion(region, count);
        }
        if (addresses[id] == null || addressesVersion[id] != archetype.storageVersion()) {
            cacheAddresses(id, archetype);
        }
        return id;
    }

    private void finish(Archetype archetype, int id, int count) {
        regionCount[regionOf[id] - 1] = count;
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

    /** Looks the archetype's column addresses up once per storage version (a lookup searches its signature). */
    private void cacheAddresses(int id, Archetype archetype) {
        long[] row = addresses[id];
        if (row == null) {
            row = new long[fields.length];
            addresses[id] = row;
        }
        for (int f = 0; f < fields.length; f++) {
            Column column = archetype.column(fields[f]);
            MemorySegment segment = column.segment();
            row[f] = segment.address();
        }
        addressesVersion[id] = archetype.storageVersion();
    }

    /** Sends rows {@code [from, to)} of field {@code f} of archetype {@code id}. */
    private void send(int id, int f, int from, int to) {
        if (from >= to) {
            return;
        }
        long size = elementBytes[f];
        long bytes = (to - from) * size;
        long base = regionBase[regionOf[id] - 1];
        target.upload(f, (base + from) * size, addresses[id][f] + from * size, bytes);
        lastBytes += bytes;
        lastUploads++;
    }

    /** Sends the appended rows {@code [added, count)} and the first {@code touched} touched rows below it. */
    private void sendResidue(int id, int f, int added, int count, int touched) {
        send(id, f, added, count);
        for (int t = 0; t < touched; t++) {
            int row = touchedRows[t];
            if (row < added) {
                send(id, f, row, row + 1);
            }
        }
    }

    private int newRegion(Archetype archetype) {
        if (regions == regionOwner.length) {
            int n = regions * 2;
            regionOwner = Arrays.copyOf(regionOwner, n);
            regionBase = Arrays.copyOf(regionBase, n);
            regionRows = Arrays.copyOf(regionRows, n);
            regionCount = Arrays.copyOf(regionCount, n);
        }
        int region = regions++;
        regionOwner[region] = archetype;
        regionRows[region] = 0;
        regionCount[region] = 0;
        return region;
    }

    /** Moves a region to the end of the buffers with room for {@code count} rows and a quarter more. */
    private void placeRegion(int region, int count) {
        int rows = Math.max(REGION_ALIGN_ROWS, roundUp(count + count / 4, REGION_ALIGN_ROWS));
        long end = usedRows + rows;
        if (end > capacityRows) {
            long grown = capacityRows;
            while (grown < end) {
                grown *= 2;
            }
            growTo(grown);
        }
        regionBase[region] = usedRows;
        regionRows[region] = rows;
        usedRows = end;
    }

    private void growTo(long rows) {
        for (int f = 0; f < fields.length; f++) {
            target.grow(f, rows * elementBytes[f], usedRows * elementBytes[f]);
        }
        capacityRows = rows;
    }

    private void ensureArchetypeSlots(int id) {
        if (id < regionOf.length) {
            return;
        }
        int n = Math.max(id + 1, regionOf.length * 2);
        regionOf = Arrays.copyOf(regionOf, n);
        structuralSeen = Arrays.copyOf(structuralSeen, n);
        addresses = Arrays.copyOf(addresses, n);
        addressesVersion = Arrays.copyOf(addressesVersion, n);
        writesSeen = Arrays.copyOf(writesSeen, n * components.length);
    }

    private static int roundUp(int value, int multiple) {
        return (value + multiple - 1) / multiple * multiple;
    }

    /** Regions assigned so far: one per archetype ever uploaded from (archetypes are never forgotten). */
    public int regionCount() {
        return regions;
    }

    /** The first buffer row of region {@code region}. */
    public long regionBase(int region) {
        return regionBase[Objects.checkIndex(region, regions)];
    }

    /** The rows of region {@code region} that mirror its archetype as of the last upload (what to draw). */
    public int regionRowCount(int region) {
        return regionCount[Objects.checkIndex(region, regions)];
    }

    /** The buffer row of {@code archetype}'s row 0, or -1 when it has no region. */
    public long baseRowOf(Archetype archetype) {
        int id = archetype.id();
        if (id >= regionOf.length || regionOf[id] == 0 || regionOwner[regionOf[id] - 1] != archetype) {
            return -1;
        }
        return regionBase[regionOf[id] - 1];
    }

    /** Rows each field's buffer holds now. */
    public long capacityRows() {
        return capacityRows;
    }

    /** Bytes sent by the last {@link #upload} or {@link #uploadEverything}. */
    public long lastBytes() {
        return lastBytes;
    }

    /** Upload calls (contiguous row ranges of one field) made by the last upload. */
    public int lastUploads() {
        return lastUploads;
    }

    /** Archetypes the last upload consumed (sent from and cleared). */
    public int lastArchetypes() {
        return lastArchetypes;
    }

    /** Bytes sent since this uploader was made. */
    public long totalBytes() {
        return totalBytes;
    }
}
