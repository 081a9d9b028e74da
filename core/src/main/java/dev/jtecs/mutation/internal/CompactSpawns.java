package dev.jtecs.mutation.internal;

import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentValue;
import dev.jtecs.component.Input;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.component.internal.RecordCodec;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.entity.internal.Growth;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.RecordWriter;
import dev.jtecs.storage.internal.StagedRows;
import dev.jtecs.storage.internal.Table;
import java.util.Arrays;

/**
 * Staged single spawns kept compactly: the id and the values' bits in staged rows, no record, no entry and no
 * retained value object. {@code World.spawn} inside a scope stages here when every input is a plain record
 * value of a native component (generated accessors and canonical constructor: a spun writer stages its fields and
 * the codec builds it again without running user code) or a tag, neither with requirements, no component twice, their archetype (with the active state's
 * tag) exists and holds no relationship pairs, nobody observes {@code OnSpawn}, no drain runs, and no query batch
 * (a batch boundary) is staged in the open wave. Otherwise the spawn is a record, as before.
 *
 * <pre>
 *   spawn(values) ─► shape (the inputs' components in call order, the state tag) ─► id reserved ─► the values'
 *                    fields into the shape's staged row (RecordWriter.stage) ─► slot marked compact, and the
 *                    records, tag moves and quiet despawns staged before it noted where they change (marks)
 *   commit ─► in the spawn phase, each placed just before the record begun after it (placeBefore): per shape one
 *             range of rows and one copy per column; one row at a time, in call order, once a table has observers
 *   a later call on such an id, a batch boundary ─► all of them become records, where call order puts them
 * </pre>
 *
 * <p>Why this matches the records: the drain places spawn records in record order, in the spawn phase, after the
 * wave's despawns and spawn batches, and no record's despawn, move or batch depends on where a spawn record sits
 * among them. Placing each compact spawn right before the first record begun after it therefore puts every row
 * where its record would have put it, in the same order in each table. A call that would read or change such a
 * spawn's staged state finds its slot marked and first turns all of them into those records ({@link Transaction}),
 * each rebuilt from its bits, before anything else changes. What may differ is how the commit groups its work:
 * compact moves or quiet despawns staged on either side of a compact spawn can form one run where a record between
 * them would have split them, so a table may count fewer structural changes (the rows are the same).
 *
 * <p>Invariants: {@code count} spawns, in call order, each with its shape and its row there; a shape's staged
 * rows and ids hold its spawns in call order; everything a spawn allocates is made before its id is reserved.
 */
final class CompactSpawns {
    /** One staged spawn's form: its inputs' components in call order (the state tag last), and their table. */
    static final class Shape {
        final Component<?>[] components; // as called, the state tag last when there is one
        final Table table;
        final int[] starts; // per component: its first native column, -1 for a tag
        final RecordWriter[] writers; // per component: its table's spun writer, null for a tag
        final RecordCodec[] codecs; // per component: its record type's codec (rebuilding values), null for a tag
        final StagedRows rows;
        final Object[][] arrays; // per component: the staged arrays its writer fills (StagedRows.arrays), or null
        final int index; // in the shapes met
        long[] ids = new long[16]; // the shape's spawns in call order, one per staged row

        Shape(Component<?>[] components, Table table, int[] starts, RecordWriter[] writers, RecordCodec[] codecs,
                StagedRows rows, int index) {
            this.components = components;
            this.table = table;
            this.starts = starts;
            this.writers = writers;
            this.codecs = codecs;
            this.rows = rows;
            this.arrays = new Object[components.length][];
            this.index = index;
        }

        /**
         * Makes room for one more row, taking its writers' arrays again when the rows' current chunk changed (a new
         * chunk, or the first again after a reset; nothing else changes them, and the shape's first call makes the
         * first chunk): may allocate.
         */
        void makeRoom() {
            if (rows.ensureRoom()) {
                for (int k = 0; k < writers.length; k++) {
                    if (writers[k] != null) {
                        arrays[k] = rows.arrays(starts[k], codecs[k].fieldCount());
                    }
                }
            }
            if (rows.size() == ids.length) {
                ids = Growth.copyOf(ids, ids.length * 2);
            }
        }

        int count() {
            return rows.size();
        }
    }

    private final EntityIndex index;
    private final ArchetypeRegistry registry;
    private final Transaction transaction;

    // the shapes met so far, first use first (kept from wave to wave, their rows emptied); the last one matched.
    // A world that spawns more kinds of entity one at a time than this stages the others as records
    static final int MAX_SHAPES = 32;
    private Shape[] shapes = new Shape[4];
    private int shapeCount;
    private Shape last;
    private final Component<?>[] callComponents = new Component<?>[4]; // scratch: a call's components

    // the staged spawns in call order, as runs of one shape: run r holds spawns [runStart[r], runStart[r + 1]) of
    // shape runShape[r], from its row runRow[r] on. And the tag moves and quiet despawns staged before them (where
    // those publish once the spawns are records), as the points where those counts changed: from spawn
    // markSpawn[m] on, markRecords[m] records, markTags[m] tag moves and markQuiet[m] quiet despawns of the open wave
    // came before (a spawn publishes before the record its mark names, as the record it stands for would: see
    // placeBefore). Both grow only where the shape or the counts change, so a run of spawns of one shape adds
    // nothing per spawn here
    private int[] runStart = new int[4];
    private int[] runShape = new int[4];
    private int[] runRow = new int[4];
    private int runCount;
    private int[] markSpawn = new int[4];
    private int[] markTags = new int[4];
    private int[] markQuiet = new int[4];
    private int[] markRecords = new int[4];
    private int markCount;
    private int count;
    private int placed; // the sealed spawns placed so far (a failed wave releases the rest)

    CompactSpawns(EntityIndex index, ArchetypeRegistry registry, Transaction transaction) {
        this.index = index;
        this.registry = registry;
        this.transaction = transaction;
    }

    int count() {
        return count;
    }

    /**
     * Stages a spawn of {@code inputs[0, n)} (or {@code a}, {@code b}, {@code c} when {@code inputs} is null) and
     * the state tag {@code stateTag} (null: none) compactly and returns its id; or 0, having changed nothing,
     * when it must be a record (see the class comment; the caller checked the scope, the drain, the observers
     * and partition tags). A failed allocation or a full world changes nothing.
     */
    long stage(Input[] inputs, Input a, Input b, Input c, int n, TagComponent stateTag) {
        if (transaction.hasOpenBoundary()) {
            return 0; // the wave has segments: the records around a query batch keep that order
        }
        Shape shape = shapeFor(inputs, a, b, c, n, stateTag);
        if (shape == null) {
            return 0;
        }
        // room first: the staged row, the arrays the writers fill, the shape's ids, a new run or mark, the
        // transaction's slot marks and the index's slot; after the id is reserved nothing allocates or fails
        shape.makeRoom();
        boolean newRun = runCount == 0 || runShape[runCount - 1] != shape.index;
        int tags = transaction.openTagMoves();
        int quiet = transaction.openQuietDespawns();
        int records = transaction.openRecords();
        boolean newMark = markCount == 0 ? tags != 0 || quiet != 0 || records != 0
                : markTags[markCount - 1] != tags || markQuiet[markCount - 1] != quiet
                        || markRecords[markCount - 1] != records;
        if (newRun && runCount == runStart.length || newMark && markCount == markSpawn.length) {
            growPoints();
        }
        transaction.reserveSlotMarks(index.highWater() + 1);
        long id = index.allocate(); // a full world throws here, with nothing changed
        int row = shape.rows.append(); // zero bits, no factory: cannot fail
        int at = row - shape.rows.offset(); // in the arrays of the rows' current chunk
        for (int k = 0; k < n; k++) {
            RecordWriter writer = shape.writers[k];
            if (writer != null) {
                writer.stage(((ComponentValue<?>) SpawnPlacement.inputAt(inputs, a, b, c, k)).value(), shape.arrays[k],
                        at);
            }
        }
        shape.ids[row] = id;
        if (newRun) {
            runStart[runCount] = count;
            runShape[runCount] = shape.index;
            runRow[runCount++] = row;
        }
        if (newMark) {
            markSpawn[markCount] = count;
            markTags[markCount] = tags;
            markRecords[markCount] = records;
            markQuiet[markCount++] = quiet;
        }
        count++;
        transaction.markCompact(Entity.slot(id));
        return id;
    }

    private void growPoints() {
        // every array first, then assign: a failed growth leaves them all as they were
        int runs = runStart.length * 2;
        int marks = markSpawn.length * 2;
        int[] grownStart = Growth.copyOf(runStart, runs);
        int[] grownShape = Growth.copyOf(runShape, runs);
        int[] grownRow = Growth.copyOf(runRow, runs);
        int[] grownSpawn = Growth.copyOf(markSpawn, marks);
        int[] grownTags = Growth.copyOf(markTags, marks);
        int[] grownQuiet = Growth.copyOf(markQuiet, marks);
        int[] grownRecords = Growth.copyOf(markRecords, marks);
        runStart = grownStart;
        runShape = grownShape;
        runRow = grownRow;
        markSpawn = grownSpawn;
        markTags = grownTags;
        markQuiet = grownQuiet;
        markRecords = grownRecords;
    }

    /** The shape of a call, made on its first use; null when the call must stage a record. */
    private Shape shapeFor(Input[] inputs, Input a, Input b, Input c, int n, TagComponent stateTag) {
        Shape repeated = last;
        if (repeated != null && isCallOf(repeated, inputs, a, b, c, n, stateTag) && current(repeated)) {
            return repeated; // a run of spawns of one kind: one pass over the inputs
        }
        int size = n + (stateTag != null ? 1 : 0);
        if (size > callComponents.length || n == 0) {
            return null;
        }
        for (int k = 0; k < n; k++) {
            Input input = SpawnPlacement.inputAt(inputs, a, b, c, k);
            if (!(input instanceof ComponentValue<?> && input.component() instanceof NativeComponent<?>
                    || input instanceof TagComponent)) {
                return null; // a default, an edge, a scalar or managed value: a record
            }
            callComponents[k] = input.component();
        }
        if (stateTag != null) {
            callComponents[n] = stateTag;
        }
        // the last shape was tried above: a call that passed the checks here matches it only where isCallOf did
        Shape shape = null;
        for (int s = 0; s < shapeCount && shape == null; s++) {
            if (matches(shapes[s], size) && current(shapes[s])) {
                shape = shapes[s];
            }
        }
        if (shape == null) {
            shape = newShape(inputs, a, b, c, n, size);
            if (shape == null) {
                return null;
            }
        }
        last = shape;
        return shape; // (callComponents keeps its components: registered ones, nothing a world owns)
    }

    /**
     * Whether the call names {@code shape}'s components in its order: at each native component a value of it (its
     * record type plain, as the shape's making found it: a native component's values are of one record type), at
     * each tag the tag itself, and the state tag last. What the slow path's checks and {@link #matches} decide for
     * such a call, in one pass: an input of any other kind is refused there, and differs from the shape here.
     */
    private static boolean isCallOf(Shape shape, Input[] inputs, Input a, Input b, Input c, int n,
            TagComponent stateTag) {
        Component<?>[] components = shape.components;
        if (components.length != n + (stateTag != null ? 1 : 0) || stateTag != null && components[n] != stateTag
                || n == 0) {
            return false;
        }
        for (int k = 0; k < n; k++) {
            Input input = SpawnPlacement.inputAt(inputs, a, b, c, k);
            boolean same = shape.writers[k] != null
                    ? input instanceof ComponentValue<?> value && value.component() == components[k]
                    : input == components[k]; // a tag of the shape: the input is the tag itself
            if (!same) {
                return false;
            }
        }
        return true;
    }

    private boolean matches(Shape shape, int size) {
        Component<?>[] components = shape.components;
        if (components.length != size) {
            return false;
        }
        for (int k = 0; k < size; k++) {
            if (components[k] != callComponents[k]) {
                return false;
            }
        }
        return true;
    }

    /** Whether a shape's table is still the registry's (a snapshot load or a compaction may have replaced it). */
    private boolean current(Shape shape) {
        return !shape.table.isPruned() && registry.ofStore(shape.table.store()) == shape.table;
    }

    /** A shape for the call in {@link #callComponents}, or null when its spawn must be a record. */
    private Shape newShape(Input[] inputs, Input a, Input b, Input c, int n, int size) {
        Component<?>[] sorted = Arrays.copyOf(callComponents, size);
        for (Component<?> component : sorted) {
            if (!component.requires().isEmpty()) {
                return null; // requirements are the record path's
            }
        }
        Table table = SpawnPlacement.plainArchetype(registry, sorted, size);
        if (table == null) {
            return null;
        }
        int at = shapeCount;
        for (int s = 0; s < shapeCount && at == shapeCount; s++) {
            if (shapes[s].count() == 0 && !current(shapes[s])) {
                at = s; // a shape whose table a load or a compaction replaced: its place is free
            }
        }
        if (at == MAX_SHAPES) {
            return null;
        }
        for (int s = 0; s < shapeCount; s++) {
            if (shapes[s].table == table && current(shapes[s])) {
                return null; // the same components in another order: one range per table keeps call order
            }
        }
        Component<?>[] components = Arrays.copyOf(callComponents, size);
        int[] starts = new int[size];
        RecordWriter[] writers = new RecordWriter[size];
        RecordCodec[] codecs = new RecordCodec[size];
        StagedRows columns = StagedRows.blank(table);
        for (int k = 0; k < size; k++) {
            starts[k] = -1;
            if (k >= n || components[k] instanceof TagComponent) {
                continue;
            }
            int position = table.position(components[k].id());
            RecordWriter writer = table.plainWriter(position);
            if (writer == null) {
                return null; // accessors of its own: user code, which the record path runs at the commit
            }
            Object value = ((ComponentValue<?>) SpawnPlacement.inputAt(inputs, a, b, c, k)).value();
            starts[k] = columns.column(position, 0);
            writers[k] = writer;
            codecs[k] = RecordCodec.of(value.getClass());
        }
        Shape shape = new Shape(components, table, starts, writers, codecs, columns, at);
        if (at == shapes.length) {
            shapes = Growth.copyOf(shapes, at * 2);
        }
        shapes[at] = shape;
        shapeCount = Math.max(shapeCount, at + 1);
        return shape;
    }

    // ---------------------------------------------------------------- promotion

    private int runCursor; // the run runOf found last: calls in call order find theirs in O(1)

    /** The run holding spawn {@code i}. */
    private int runOf(int i) {
        int r = Math.min(runCursor, runCount - 1);
        while (runStart[r] > i) {
            r--;
        }
        while (r + 1 < runCount && runStart[r + 1] <= i) {
            r++;
        }
        runCursor = r;
        return r;
    }

    long id(int i) {
        int r = runOf(i);
        return shapes[runShape[r]].ids[runRow[r] + i - runStart[r]];
    }

    /** How many tag moves of the open wave were staged before spawn {@code i}. */
    int tagMovesBefore(int i) {
        int m = markBefore(i);
        return m < 0 ? 0 : markTags[m];
    }

    /** How many records of the open wave were begun before spawn {@code i}: it publishes before that record. */
    int recordsBefore(int i) {
        int m = markBefore(i);
        return m < 0 ? 0 : markRecords[m];
    }

    /** How many quiet despawns of the open wave were staged before spawn {@code i}. */
    int quietBefore(int i) {
        int m = markBefore(i);
        return m < 0 ? 0 : markQuiet[m];
    }

    private int markCursor;

    /** The last mark at or before spawn {@code i}, or -1; calls in call order find theirs in O(1). */
    private int markBefore(int i) {
        int m = Math.min(markCursor, markCount - 1);
        while (m >= 0 && markSpawn[m] > i) {
            m--;
        }
        while (m + 1 < markCount && markSpawn[m + 1] <= i) {
            m++;
        }
        markCursor = Math.max(m, 0);
        return m;
    }

    /**
     * The inputs of every staged spawn, in call order, each spawn's in its call order (the state tag last): a
     * value is built again from its staged bits through its record type's canonical constructor. Allocates, and
     * changes nothing, so a caller builds them before it changes anything.
     */
    Input[][] rebuildInputs() {
        Input[][] all = new Input[count][];
        for (int r = 0; r < runCount; r++) {
            Shape shape = shapes[runShape[r]];
            Component<?>[] components = shape.components;
            int end = r + 1 < runCount ? runStart[r + 1] : count;
            for (int i = runStart[r]; i < end; i++) {
                int row = runRow[r] + i - runStart[r];
                Input[] inputs = new Input[components.length];
                for (int k = 0; k < components.length; k++) {
                    inputs[k] = shape.writers[k] == null ? (TagComponent) components[k]
                            : rebuild((NativeComponent<?>) components[k], shape, k, row);
                }
                all[i] = inputs;
            }
        }
        return all;
    }

    @SuppressWarnings("unchecked")
    private static <T extends Record> Input rebuild(NativeComponent<T> component, Shape shape, int k, int row) {
        RecordCodec codec = shape.codecs[k];
        Object[] fields = new Object[codec.fieldCount()];
        for (int f = 0; f < fields.length; f++) {
            fields[f] = shape.rows.boxed(shape.starts[k] + f, row, codec.kind(f));
        }
        return component.of((T) codec.construct(fields));
    }

    /** The spawns became records (or were released): their staged rows are free. */
    void clear() {
        for (int s = 0; s < shapeCount; s++) {
            shapes[s].rows.reset();
        }
        count = 0;
        placed = 0;
        runCount = 0;
        markCount = 0;
        runCursor = 0;
        markCursor = 0;
    }

    // ---------------------------------------------------------------- the drain

    /** The shapes met so far: {@link #table} and {@link #rows} of each tell what the staged spawns bring. */
    int shapes() {
        return shapeCount;
    }

    Table table(int shape) {
        return shapes[shape].table;
    }

    /** The ids of a shape's spawns, in call order: {@link #rows} of them. */
    long[] ids(int shape) {
        return shapes[shape].ids;
    }

    /** The spawns staged in a shape. */
    int rows(int shape) {
        return shapes[shape].count();
    }

    /** The sealed spawns placed so far, the first ones in call order. */
    int placed() {
        return placed;
    }

    /**
     * Places the sealed spawns staged before record {@code record} of the wave began ({@link #recordsBefore}), and
     * not placed yet: all of them for {@code Integer.MAX_VALUE}. The drain calls it before it places each spawn
     * record and once after the last, so every spawn lands where the record it stands for would have: per shape
     * one range of rows when no table of theirs has observers, otherwise one row at a time in call order, each
     * reported as it lands ({@code drain.placed}). The tables' room was reserved with the wave.
     */
    void placeBefore(int record, CommitDrain drain) {
        int end = placed;
        while (end < count && recordsBefore(end) <= record) {
            end = Math.min(count, nextMarkAfter(end));
        }
        if (end == placed) {
            return;
        }
        boolean observed = false;
        for (int s = 0; s < shapeCount; s++) {
            observed |= shapes[s].count() > 0 && shapes[s].table.observers().length != 0;
        }
        if (!observed) {
            placeRanges(end, drain);
            return;
        }
        while (placed < end) {
            int r = runOf(placed);
            Shape shape = shapes[runShape[r]];
            int row = runRow[r] + placed - runStart[r];
            Table table = shape.table;
            long id = shape.ids[row];
            int at = table.appendRow(id);
            shape.rows.copyInto(at, row, 1);
            index.publish(Entity.slot(id), table.store(), at);
            placed++; // published: a failing report below leaves it so, as a spawn record's would
            drain.placed(table, at, at + 1, null);
        }
    }

    /** The first spawn after {@code i} where a new mark begins, or {@code count}. */
    private int nextMarkAfter(int i) {
        int m = markBefore(i);
        return m + 1 < markCount ? markSpawn[m + 1] : count;
    }

    /**
     * Places spawns {@code [placed, end)}, nobody observing their tables: per shape, the rows of its runs among
     * them as one range (in call order within each table, which is all a range can tell).
     */
    private void placeRanges(int end, CommitDrain drain) {
        for (int s = 0; s < shapeCount; s++) {
            Shape shape = shapes[s];
            int first = -1;
            int n = 0;
            for (int r = runOf(placed); r < runCount && runStart[r] < end; r++) {
                if (runShape[r] != s) {
                    continue;
                }
                int from = Math.max(runStart[r], placed);
                int to = Math.min(r + 1 < runCount ? runStart[r + 1] : count, end);
                if (to > from) {
                    first = first < 0 ? runRow[r] + from - runStart[r] : first;
                    n += to - from;
                }
            }
            if (n == 0) {
                continue;
            }
            Table table = shape.table;
            int at = table.appendRowsAsSingles(n); // counted as the records' n appends are
            table.writeEntities(at, shape.ids, first, n);
            shape.rows.copyInto(at, first, n);
            for (int i = 0; i < n; i++) {
                index.publish(Entity.slot(shape.ids[first + i]), table.store(), at + i);
            }
            drain.placed(table, at, at + n, null); // nobody to tell: as each row's report would be
        }
        placed = end;
    }

    /**
     * A wave failed: the sealed spawns not placed yet are released as unpublished spawn records are (each id goes
     * stale, its observers dropped), by {@code release}.
     */
    void releaseUnplaced(java.util.function.LongConsumer release) {
        for (int i = placed; i < count; i++) {
            release.accept(id(i));
        }
        placed = count;
    }
}
