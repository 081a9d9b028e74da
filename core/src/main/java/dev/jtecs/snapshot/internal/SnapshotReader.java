package dev.jtecs.snapshot.internal;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentLayout;
import dev.jtecs.component.Components;
import dev.jtecs.component.Input;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.PrimitiveKind;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.RelationshipDefinition;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.SnapshotCodec;
import dev.jtecs.component.StorageKind;
import dev.jtecs.component.internal.TreeCodec;
import dev.jtecs.component.internal.TypeAccess;
import dev.jtecs.entity.Entity;
import dev.jtecs.snapshot.InvalidSnapshotException;
import dev.jtecs.snapshot.Snapshot;
import dev.jtecs.snapshot.SnapshotComponentEntry;
import dev.jtecs.snapshot.SnapshotPrelude;
import dev.jtecs.storage.internal.Table;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * Decodes a snapshot, table or binary, into a {@link LoadModel} and validates all of it against the destination
 * before anything changes: framing, counts, ids (well formed, distinct, inside the destination's capacity), the
 * component table (every name registered with the same kind and codec, layouts migrated by field name), every
 * value, every edge (dense targets among the saved entities, sparse edges sorted and distinct), keys, the free
 * slots, random streams, states and phases. Custom {@code load}/{@code deserialize} codecs run here too, so a
 * codec that rejects its input also changes nothing. Every allocation is bounded by what the input holds: the
 * claimed {@code nextEntityId} is checked against the destination's capacity but sizes nothing here (the slot
 * bookkeeping, {@link SlotTable}, follows the ids and free slots present).
 */
final class SnapshotReader {
    /**
     * The built-in components. A definition is registered (known by name) once its class is initialized, which for
     * a built-in happens the first time the program touches it: a process that loads a save before it has used
     * {@code EntityKey} would not know the name {@code Key}. Listing them here registers every one before the first
     * load looks a name up.
     */
    static final List<Component<?>> BUILTINS = List.of(dev.jtecs.builtin.ChildOf.COMPONENT,
            dev.jtecs.builtin.Disabled.COMPONENT, EntityKey.COMPONENT, dev.jtecs.builtin.Name.COMPONENT,
            dev.jtecs.builtin.Paused.COMPONENT, dev.jtecs.builtin.PreviousTransform2D.COMPONENT,
            dev.jtecs.builtin.RelativeTransform2D.COMPONENT, dev.jtecs.builtin.TTL.COMPONENT,
            dev.jtecs.builtin.Transform2D.COMPONENT, dev.jtecs.builtin.Transform3D.COMPONENT);

    private final int maxEntities;
    private final SnapshotHost host;
    private final LoadModel model = new LoadModel();
    private SnapshotComponentEntry[] entries;
    private Component<?>[] resolved; // null where the destination declares the component transient
    private int[][] fieldSources; // per entry: destination field -> saved field, or -1
    private Object[][] fieldDefaults; // per entry: destination field -> the default of an added field
    private SlotTable restored; // restored slot -> generation, sized by the ids the input holds
    private int[] restoredPositions; // by restored slot, in slot order: where the input named it
    private final Set<String> keys = new HashSet<>();
    private final LoadScratch scratch;

    SnapshotReader(int maxEntities, SnapshotHost host, LoadScratch scratch) {
        this.maxEntities = maxEntities;
        this.host = host;
        this.scratch = scratch;
    }

    // ---------------------------------------------------------------- table

    LoadModel table(Map<?, ?> root) {
        String where = "table snapshot";
        Object format = root.get("format");
        if (!"jtecs-snapshot".equals(format)) {
            throw Trees.bad(where, "'format' is " + Trees.describe(format) + ", not \"jtecs-snapshot\"");
        }
        header(root, where);
        List<?> frames = Trees.listField(root, "archetypes", where);
        if (frames.size() != model.prelude.archetypeCount()) {
            throw Trees.bad(where, "archetypeCount says " + model.prelude.archetypeCount() + " but "
                    + frames.size() + " archetypes follow");
        }
        List<?> free = Trees.listField(root, "freeSlots", where);
        if (free.size() % 2 != 0) {
            throw Trees.bad(where + ".freeSlots", "holds " + free.size() + " numbers, not (slot, generation) pairs");
        }
        int[] pairs = new int[free.size()];
        for (int i = 0; i < pairs.length; i++) {
            pairs[i] = Trees.int32(free.get(i), where + ".freeSlots[" + i + "]");
        }
        freeSlots(pairs, where + ".freeSlots");
        List<Map<?, ?>> trees = new ArrayList<>();
        List<long[]> ids = new ArrayList<>();
        long total = 0;
        for (int f = 0; f < frames.size(); f++) {
            String at = "archetype " + f;
            Map<?, ?> frame = Trees.map(frames.get(f), at);
            int count = count(frame, at);
            List<?> list = Trees.list(Trees.field(frame, "ids", at), at + ".ids");
            if (list.size() != count) {
                throw Trees.bad(at, "count is " + count + " but " + list.size() + " ids follow");
            }
            long[] array = new long[count];
            for (int i = 0; i < count; i++) {
                array[i] = Trees.integer(list.get(i), 1, Long.MAX_VALUE, at + ".ids[" + i + "]");
            }
            trees.add(frame);
            ids.add(array);
            total += count;
        }
        checkEntityCount(total);
        restored = new SlotTable(model.highWater, (int) total, scratch);
        int position = 0;
        for (int f = 0; f < trees.size(); f++) {
            registerIds(ids.get(f), null, position, "archetype " + f);
            position += ids.get(f).length;
        }
        layOutRestored(ids.stream().map(MemorySegment::ofArray).toList());
        for (int f = 0; f < trees.size(); f++) {
            LoadModel.Frame frame = new LoadModel.Frame();
            frame.count = ids.get(f).length;
            frame.ids = MemorySegment.ofArray(ids.get(f));
            frame(frame, trees.get(f), null, "archetype " + f);
            model.frames.add(frame);
        }
        return finish(root, where);
    }

    // ---------------------------------------------------------------- binary

    LoadModel binary(MemorySegment in) {
        CRC32C crc = new CRC32C();
        Binary.Header header = Binary.readHeader(in, crc);
        String where = "binary snapshot";
        long at = Binary.HEADER;
        Binary.Section meta = Binary.readSection(in, at, header.total(), crc, where);
        expect(meta, Binary.META, 0, where);
        Map<?, ?> root = Trees.map(Tagged.read(in, meta.payload(), meta.length(), where + " META"), where + " META");
        header(root, where);
        if (model.prelude.archetypeCount() != header.frames()) {
            throw Trees.bad(where, "the header and the metadata disagree: the header says " + header.frames()
                    + " archetype frames, archetypeCount says " + model.prelude.archetypeCount());
        }
        if (model.prelude.entityCount() != header.entities()) {
            throw Trees.bad(where, "the header and the metadata disagree: the header says " + header.entities()
                    + " entities, entityCount says " + model.prelude.entityCount());
        }
        if (model.highWater != header.highWater()) {
            throw Trees.bad(where, "the header and the metadata disagree: the header says next entity id "
                    + header.highWater() + ", nextEntityId says " + model.highWater);
        }
        Binary.Section free = Binary.readSection(in, meta.next(), header.total(), crc, where);
        expect(free, Binary.FREE, 0, where);
        if (free.length() % 8 != 0 || free.length() / 8 > maxEntities) {
            throw Trees.bad(where + " FREE", free.length() + " bytes are not (slot, generation) pairs within the "
                    + "world's capacity");
        }
        int[] pairs = new int[(int) (free.length() / 4)];
        MemorySegment.copy(in, Tagged.INT, free.payload(), pairs, 0, pairs.length);
        freeSlots(pairs, where + " FREE");
        at = free.next();
        int sections = 2;
        List<Map<?, ?>> trees = new ArrayList<>();
        List<MemorySegment> idSegments = new ArrayList<>();
        List<List<Binary.Section>> columnSections = new ArrayList<>();
        long total = 0;
        for (int f = 0; f < header.frames(); f++) {
            String frameWhere = "archetype " + f;
            Binary.Section frameSection = Binary.readSection(in, at, header.total(), crc, where);
            expect(frameSection, Binary.FRAME, f, where);
            Map<?, ?> tree = Trees.map(Tagged.read(in, frameSection.payload(), frameSection.length(), frameWhere),
                    frameWhere);
            int count = count(tree, frameWhere);
            Binary.Section ids = Binary.readSection(in, frameSection.next(), header.total(), crc, where);
            expect(ids, Binary.IDS, f, where);
            if (ids.length() != 8L * count) {
                throw Trees.bad(frameWhere, "count is " + count + " but its id block holds " + ids.length()
                        + " bytes");
            }
            trees.add(tree);
            idSegments.add(in.asSlice(ids.payload(), ids.length()));
            total += count;
            sections += 2;
            // the raw column blocks of the frame: checked here, sliced when the frame is decoded
            int raw = rawColumns(tree, frameWhere);
            long next = ids.next();
            List<Binary.Section> columns = new ArrayList<>(raw);
            for (int c = 0; c < raw; c++) {
                Binary.Section column = Binary.readSection(in, next, header.total(), crc, where);
                expect(column, Binary.COLUMN, c, where);
                columns.add(column);
                next = column.next();
                sections++;
            }
            columnSections.add(columns);
            at = next;
        }
        if (at != header.total() || sections != header.sections()) {
            throw Trees.bad(where, "the sections end at byte " + at + " of " + header.total() + " after " + sections
                    + " of " + header.sections() + " sections (inconsistent counts or trailing sections)");
        }
        checkEntityCount(total);
        restored = new SlotTable(model.highWater, (int) total, scratch);
        boolean littleEndian = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
        int position = 0;
        for (int f = 0; f < trees.size(); f++) {
            MemorySegment ids = idSegments.get(f);
            if (!littleEndian) { // the batch reads native-order ids
                long[] copy = new long[(int) (ids.byteSize() / 8)];
                MemorySegment.copy(ids, Tagged.LONG, 0, copy, 0, copy.length);
                ids = MemorySegment.ofArray(copy);
            }
            registerIds(null, ids, position, "archetype " + f);
            position += (int) (ids.byteSize() / 8);
            idSegments.set(f, ids);
        }
        layOutRestored(idSegments);
        for (int f = 0; f < trees.size(); f++) {
            LoadModel.Frame frame = new LoadModel.Frame();
            frame.count = (int) (idSegments.get(f).byteSize() / 8);
            frame.ids = idSegments.get(f);
            frame(frame, trees.get(f), new RawColumns(in, columnSections.get(f)),
                    "archetype " + f);
            model.frames.add(frame);
        }
        return finish(root, where);
    }

    private static void expect(Binary.Section section, int kind, int arg, String where) {
        if (section.kind() != kind || section.arg() != arg) {
            throw Trees.bad(where, "expected section " + Binary.kindName(kind) + " " + arg + ", found "
                    + Binary.kindName(section.kind()) + " " + section.arg());
        }
    }

    /**
     * The raw column blocks following a frame's ids, handed out in order. They were read and checked (framing,
     * kind, checksum) with the rest of the sections; here each is only matched against the size its field needs,
     * so no block is checksummed twice.
     */
    private static final class RawColumns {
        final MemorySegment in;
        final List<Binary.Section> sections;
        int next;

        RawColumns(MemorySegment in, List<Binary.Section> sections) {
            this.in = in;
            this.sections = sections;
        }

        MemorySegment next(long expectedBytes, String where) {
            if (next == sections.size()) {
                throw Trees.bad(where, "its column block is missing (the frame announced " + sections.size() + ")");
            }
            Binary.Section section = sections.get(next++);
            if (section.length() != expectedBytes) {
                throw Trees.bad(where, "its column block holds " + section.length() + " bytes, the frame needs "
                        + expectedBytes);
            }
            return in.asSlice(section.payload(), section.length());
        }
    }

    /** How many raw column blocks a frame tree announces (checked against the component table). */
    private int rawColumns(Map<?, ?> frame, String where) {
        int raw = 0;
        List<?> components = Trees.listField(frame, "components", where);
        List<?> columns = Trees.listField(frame, "columns", where);
        if (columns.size() != components.size()) {
            throw Trees.bad(where, components.size() + " components but " + columns.size() + " columns");
        }
        for (int i = 0; i < components.size(); i++) {
            if ("raw".equals(columns.get(i))) {
                raw += entry(components.get(i), where + ".components[" + i + "]").fieldNames().size();
            }
        }
        List<?> pairs = Trees.listField(frame, "pairs", where);
        List<?> pairColumns = Trees.listField(frame, "pairColumns", where);
        if (pairColumns.size() != pairs.size()) {
            throw Trees.bad(where, pairs.size() + " pairs but " + pairColumns.size() + " pair columns");
        }
        for (int i = 0; i < pairs.size(); i++) {
            if ("raw".equals(pairColumns.get(i))) {
                Map<?, ?> pair = Trees.map(pairs.get(i), where + ".pairs[" + i + "]");
                raw += entry(Trees.field(pair, "relationship", where), where + ".pairs[" + i + "]").fieldNames()
                        .size();
            }
        }
        return raw;
    }

    // ---------------------------------------------------------------- shared: header, component table

    private void header(Map<?, ?> root, String where) {
        int version = Trees.int32(Trees.field(root, "version", where), where + ".version");
        if (version != Snapshot.VERSION) {
            throw Trees.bad(where, "version " + version + " is not supported (this build reads version "
                    + Snapshot.VERSION + ")");
        }
        int highWater = (int) Trees.integer(Trees.field(root, "nextEntityId", where), 1, Integer.MAX_VALUE,
                where + ".nextEntityId");
        if (highWater > maxEntities + 1L) {
            throw Trees.bad(where, "nextEntityId " + highWater + " needs a world of at least " + (highWater - 1)
                    + " entities; this one holds " + maxEntities);
        }
        model.highWater = highWater;
        long entityCount = Trees.integer(Trees.field(root, "entityCount", where), 0, highWater - 1L,
                where + ".entityCount");
        int archetypeCount = (int) Trees.integer(Trees.field(root, "archetypeCount", where), 0,
                Math.max(0, entityCount), where + ".archetypeCount");
        List<?> table = Trees.listField(root, "componentTable", where);
        entries = new SnapshotComponentEntry[table.size()];
        resolved = new Component<?>[table.size()];
        fieldSources = new int[table.size()][];
        fieldDefaults = new Object[table.size()][];
        Set<String> names = new HashSet<>();
        for (int i = 0; i < entries.length; i++) {
            String at = "componentTable[" + i + "]";
            entries[i] = entryOf(Trees.map(table.get(i), at), at);
            if (!names.add(entries[i].name())) {
                throw Trees.bad(at, "component " + entries[i].name() + " is listed twice");
            }
            resolve(i, at + " (" + entries[i].name() + ")");
        }
        model.prelude = new SnapshotPrelude(version, highWater, entityCount, archetypeCount, List.of(entries));
    }

    private static SnapshotComponentEntry entryOf(Map<?, ?> map, String where) {
        String name = Trees.stringField(map, "name", where);
        String kind = Trees.stringField(map, "kind", where);
        List<?> fields = Trees.listField(map, "fields", where);
        List<String> names = new ArrayList<>();
        List<PrimitiveKind> kinds = new ArrayList<>();
        for (int f = 0; f < fields.size(); f++) {
            // each name is put together only for its exception: a load reads every field of every component
            Object tree = fields.get(f);
            Map<?, ?> field = tree instanceof Map<?, ?> found ? found : Trees.map(tree, where + ".fields[" + f + "]");
            Object nameTree = Trees.field(field, "name", where);
            String fieldName = nameTree instanceof String found ? found
                    : Trees.string(nameTree, where + ".fields[" + f + "].name");
            if (names.contains(fieldName)) {
                throw Trees.bad(where, "field " + fieldName + " is listed twice");
            }
            names.add(fieldName);
            Object typeTree = Trees.field(field, "type", where);
            String type = typeTree instanceof String found ? found
                    : Trees.string(typeTree, where + ".fields[" + f + "].type");
            try {
                kinds.add(PrimitiveKind.valueOf(type));
            } catch (IllegalArgumentException e) {
                throw Trees.bad(where, "field " + fieldName + " has unknown type '" + Trees.abbreviate(type) + "'");
            }
        }
        String fingerprint = Trees.stringField(map, "fingerprint", where);
        if (!fingerprint.equals(SnapshotComponentEntry.fingerprint(names, kinds))) {
            throw Trees.bad(where, "fingerprint " + Trees.abbreviate(fingerprint) + " does not match its fields "
                    + names + " (corrupted layout)");
        }
        String codec = Trees.stringField(map, "codec", where);
        if (!codec.equals("custom") && !codec.equals("automatic")) {
            throw Trees.bad(where, "codec '" + Trees.abbreviate(codec) + "' is neither custom nor automatic");
        }
        return new SnapshotComponentEntry(name, kind, names, kinds, fingerprint, codec.equals("custom"));
    }

    /** Finds the destination's definition of an entry, checks kind and codec, and plans the field migration. */
    private void resolve(int i, String where) {
        SnapshotComponentEntry entry = entries[i];
        Component<?> component = Components.findByName(entry.name());
        if (component == null) {
            throw Trees.bad(where, "no component named " + entry.name() + " is registered in this process "
                    + "(register its definition before loading)");
        }
        String kind = Schema.kind(component);
        if (!kind.equals(entry.kind())) {
            throw Trees.bad(where, "saved as " + entry.kind() + ", registered here as " + kind);
        }
        boolean custom = Schema.codec(component) != null;
        if (custom != entry.customCodec()) {
            throw Trees.bad(where, "codec mismatch: saved with " + (entry.customCodec() ? "a custom" : "the automatic")
                    + " codec, registered here with " + (custom ? "a custom" : "the automatic") + " one");
        }
        if (component.isTransient()) {
            return; // transient here: its saved values are left out, requirements bring defaults
        }
        resolved[i] = component;
        ComponentLayout layout = Schema.layout(component);
        int[] sources = new int[layout.nativeColumnCount()];
        Object[] defaults = new Object[sources.length];
        Object defaultRecord = null;
        for (int f = 0; f < sources.length; f++) {
            String name = layout.fieldNames().get(f);
            PrimitiveKind destination = layout.fieldKinds().get(f);
            int saved = entry.fieldNames().indexOf(name);
            if (saved >= 0 && entry.fieldKinds().get(saved) != destination) {
                throw Trees.bad(where, "incompatible layout: field " + name + " was saved as "
                        + entry.fieldKinds().get(saved) + " and is " + destination + " here");
            }
            sources[f] = saved;
            if (saved < 0) {
                if (component instanceof NativeComponent<?> n && n.hasDefaultFactory()) {
                    if (defaultRecord == null) {
                        defaultRecord = n.newDefault();
                    }
                    defaults[f] = recordField(defaultRecord, f);
                } else if (component instanceof ScalarComponent<?> scalar) {
                    defaults[f] = scalar.scalarDefault();
                } else {
                    defaults[f] = TreeCodec.zero(destination);
                }
            }
        }
        fieldSources[i] = sources;
        fieldDefaults[i] = defaults;
    }

    private static Object recordField(Object record, int field) {
        try {
            return TypeAccess.accessor(record.getClass().getRecordComponents()[field]).invoke(record);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("reading the default of " + record.getClass().getName() + ": " + e, e);
        }
    }

    private SnapshotComponentEntry entry(Object index, String where) {
        int i = (int) Trees.integer(index, 0, entries.length - 1L, where);
        return entries[i];
    }

    // ---------------------------------------------------------------- shared: ids, free slots

    private int count(Map<?, ?> frame, String where) {
        return (int) Trees.integer(Trees.field(frame, "count", where), 1, model.prelude.entityCount(),
                where + ".count");
    }

    private void checkEntityCount(long total) {
        if (total != model.prelude.entityCount()) {
            throw new InvalidSnapshotException("entityCount says " + model.prelude.entityCount() + " but the "
                    + "archetypes hold " + total + " entities");
        }
    }

    /**
     * Checks a frame's ids (well formed, below nextEntityId) and records them, the frame's first at
     * {@code position} (its index over all frames). That they are distinct across the snapshot is checked by
     * {@link #layOutRestored} once every frame is recorded (the fast path does not look).
     */
    private void registerIds(long[] array, MemorySegment segment, int position, String where) {
        int count = array != null ? array.length : (int) (segment.byteSize() / 8);
        long[] chunk = array != null ? array : new long[Math.min(count, 4096)];
        for (int done = 0; done < count; done += chunk.length) {
            int n = Math.min(chunk.length, count - done);
            if (array == null) {
                MemorySegment.copy(segment, ValueLayout.JAVA_LONG_UNALIGNED, 8L * done, chunk, 0, n);
            }
            // the packed fast path takes the ids until one needs a closer look: that one is checked below (which
            // throws for a bad id, or records one whose cell does not fit) and the fast path resumes after it
            for (int i = restored.addPacked(chunk, 0, n, position + done); i < n;
                    i = restored.addPacked(chunk, i + 1, n, position + done)) {
                long id = chunk[i];
                int at = done + i;
                if (!Entity.isWellFormed(id)) {
                    throw Trees.bad(where, "id " + id + " (entity " + at + ") is not an entity id");
                }
                int slot = Entity.slot(id);
                if (slot >= model.highWater) {
                    throw Trees.bad(where, "entity " + Entity.toString(id) + " lies past nextEntityId "
                            + model.highWater);
                }
                if (!restored.add(slot, Entity.generation(id), position + at)) {
                    throw duplicate(where, id);
                }
            }
        }
    }

    private static InvalidSnapshotException duplicate(String where, long id) {
        return Trees.bad(where, "duplicate id: slot " + Entity.slot(id) + " appears twice (entity "
                + Entity.toString(id) + ")");
    }

    private boolean isSaved(long id) {
        if (!Entity.isWellFormed(id)) {
            return false;
        }
        return restored.generation(Entity.slot(id)) == Entity.generation(id);
    }

    private void freeSlots(int[] pairs, String where) {
        int n = pairs.length / 2;
        if (n >= model.highWater) {
            throw Trees.bad(where, n + " free slots cannot lie below nextEntityId " + model.highWater);
        }
        model.freeSlots = new int[n];
        model.freeGenerations = new int[n];
        for (int i = 0; i < n; i++) {
            model.freeSlots[i] = pairs[2 * i];
            model.freeGenerations[i] = pairs[2 * i + 1];
            if (model.freeSlots[i] < 1 || model.freeSlots[i] >= model.highWater) {
                throw Trees.bad(where, "free slot " + model.freeSlots[i] + " is outside 1.." + (model.highWater - 1));
            }
            if (model.freeGenerations[i] < 0) {
                throw Trees.bad(where, "free slot " + model.freeSlots[i] + " has a negative generation");
            }
        }
    }

    // ---------------------------------------------------------------- shared: frames

    private void frame(LoadModel.Frame frame, Map<?, ?> tree, RawColumns raw, String where) {
        int count = frame.count;
        List<Input> inputs = new ArrayList<>();
        List<?> components = Trees.listField(tree, "components", where);
        List<?> columns = Trees.listField(tree, "columns", where);
        if (columns.size() != components.size()) {
            throw Trees.bad(where, components.size() + " components but " + columns.size() + " columns");
        }
        Set<BaseRelationship<?>> markers = new HashSet<>();
        int previous = -1;
        for (int c = 0; c < components.size(); c++) {
            String at = where + ".components[" + c + "]";
            int index = (int) Trees.integer(components.get(c), 0, entries.length - 1L, at);
            if (index <= previous) {
                throw Trees.bad(at, "component indices must ascend without repeats (" + index + " after "
                        + previous + ")");
            }
            previous = index;
            SnapshotComponentEntry entry = entries[index];
            at = where + ", component " + entry.name();
            Component<?> component = resolved[index];
            if (entry.kind().startsWith("relationship")) {
                throw Trees.bad(at, "a dense relationship's marker is not listed: it follows its pairs");
            }
            if (entry.kind().startsWith("sparse-relationship")) {
                if (columns.get(c) != null) {
                    throw Trees.bad(at, "a sparse relationship's marker has no column");
                }
                if (component != null) {
                    markers.add((BaseRelationship<?>) component);
                    inputs.add(component);
                }
                continue;
            }
            Object column = columns.get(c);
            if (component == null) {
                skipRaw(entry, column, raw, count, at);
                continue;
            }
            inputs.add(component);
            column(frame, index, new LoadModel.Target(component, null, 0), column, raw, at);
        }
        pairs(frame, tree, raw, inputs, where);
        sparse(frame, tree, markers, where);
        frame.inputs = inputs.toArray(Input[]::new);
    }

    private void skipRaw(SnapshotComponentEntry entry, Object column, RawColumns raw, int count, String at) {
        if ("raw".equals(column)) {
            if (raw == null) {
                throw Trees.bad(at, "a table snapshot has no raw columns");
            }
            for (int f = 0; f < entry.fieldNames().size(); f++) {
                raw.next((long) count * entry.fieldKinds().get(f).byteSize(), at + "." + entry.fieldNames().get(f));
            }
        }
    }

    /** Decodes one column entry into fills for {@code target} (a component, or a pair's payload). */
    private void column(LoadModel.Frame frame, int index, LoadModel.Target target, Object column, RawColumns raw,
            String where) {
        SnapshotComponentEntry entry = entries[index];
        Component<?> definition = resolved[index];
        int count = frame.count;
        ComponentLayout layout = Schema.layout(definition);
        SnapshotCodec<Object> codec = Schema.codec(definition);
        boolean pairTarget = target.relationship() != null && definition instanceof RelationshipDefinition<?>;
        int targetField = pairTarget ? ((RelationshipDefinition<?>) definition).targetField() : -1;
        if (codec == null && layout.nativeColumnCount() > 0) {
            MemorySegment[] sources = new MemorySegment[entry.fieldNames().size()];
            if ("raw".equals(column)) {
                if (raw == null) {
                    throw Trees.bad(where, "a table snapshot has no raw columns");
                }
                for (int s = 0; s < sources.length; s++) {
                    sources[s] = raw.next((long) count * entry.fieldKinds().get(s).byteSize(),
                            where + "." + entry.fieldNames().get(s));
                }
            } else {
                Map<?, ?> fields = Trees.map(column, where);
                if (fields.size() != sources.length) {
                    throw Trees.bad(where, "holds " + fields.size() + " fields, the component table lists "
                            + sources.length);
                }
                for (int s = 0; s < sources.length; s++) {
                    String name = entry.fieldNames().get(s);
                    List<?> values = Trees.list(Trees.field(fields, name, where), where + "." + name);
                    if (values.size() != count) {
                        throw Trees.bad(where + "." + name, values.size() + " values for " + count + " entities");
                    }
                    sources[s] = primitives(entry.fieldKinds().get(s), values, where + "." + name);
                }
            }
            int[] map = fieldSources[index];
            for (int f = 0; f < map.length; f++) {
                if (f == targetField) {
                    frame.fills.add(new LoadModel.Constant(target, f, target.target()));
                } else if (map[f] >= 0) {
                    frame.fills.add(new LoadModel.Raw(target, f, sources[map[f]]));
                } else {
                    frame.fills.add(new LoadModel.Constant(target, f, fieldDefaults[index][f]));
                }
            }
            return;
        }
        boolean stored = codec != null || Schema.layout(definition).nativeColumnCount() > 0
                || WriterStorage.heap(definition);
        if (!stored) {
            if (column != null) {
                throw Trees.bad(where, "holds values, but " + entry.name() + " stores none");
            }
            return;
        }
        List<?> values = Trees.list(column, where);
        if (values.size() != count) {
            throw Trees.bad(where, values.size() + " values for " + count + " entities");
        }
        Object[] decoded = new Object[count];
        Class<?> type = target.relationship() != null ? definition.valueType() : definition.valueType();
        for (int i = 0; i < count; i++) {
            String at = where + "[" + i + "]";
            decoded[i] = decode(definition, codec, type, values.get(i), at);
            if (pairTarget && decoded[i] != null) {
                checkTarget((RelationshipDefinition<?>) definition, decoded[i], target.target(), at);
            }
        }
        if (definition == EntityKey.COMPONENT) {
            for (int i = 0; i < count; i++) {
                String key = (String) decoded[i];
                if (key == null || key.isEmpty()) {
                    throw Trees.bad(where + "[" + i + "]", "an EntityKey must be a non-empty string");
                }
                if (!keys.add(key)) {
                    throw Trees.bad(where + "[" + i + "]", "EntityKey '" + Trees.abbreviate(key) + "' is held twice");
                }
            }
        }
        boolean heap = WriterStorage.heap(definition);
        frame.fills.add(new LoadModel.Values(target, decoded, heap));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void checkTarget(RelationshipDefinition<?> definition, Object record, long target, String where) {
        long named = ((RelationshipDefinition) definition).targetOf((Record) record);
        if (named != target) {
            throw Trees.bad(where, "the edge record names target " + named + ", its edge is to " + target);
        }
    }

    private Object decode(Component<?> definition, SnapshotCodec<Object> codec, Class<?> type, Object tree,
            String where) {
        Object value;
        if (tree == null && WriterStorage.heap(definition) && !(definition instanceof ScalarComponent<?>)) {
            return null; // an empty managed slot
        }
        if (codec != null) {
            try {
                value = codec.load(tree, host.facade());
            } catch (RuntimeException e) {
                throw new InvalidSnapshotException(where + ": the custom codec of " + definition.name()
                        + " rejected its value: " + e, e);
            }
            if (value == null || !type.isInstance(value)) {
                throw Trees.bad(where, "the custom codec of " + definition.name() + " returned "
                        + (value == null ? "null" : value.getClass().getName()) + ", not a " + type.getName());
            }
            return value;
        }
        value = Trees.decodeManaged(type, tree, where);
        if (value == null && definition instanceof ScalarComponent<?>) {
            throw Trees.bad(where, "a " + definition.name() + " value must not be null");
        }
        return value;
    }

    /** Decoded table values of one field as a little-endian block, like a binary column. */
    private static MemorySegment primitives(PrimitiveKind kind, List<?> values, String where) {
        MemorySegment block = MemorySegment.ofArray(new byte[values.size() * kind.byteSize()]);
        ValueLayout layout = Table.portableLayout(kind);
        for (int i = 0; i < values.size(); i++) {
            Object boxed = Trees.decodePrimitive(kind, values.get(i), where + "[" + i + "]");
            long offset = (long) i * kind.byteSize();
            switch (kind) {
                case BYTE -> block.set((ValueLayout.OfByte) layout, offset, (Byte) boxed);
                case BOOLEAN -> block.set((ValueLayout.OfByte) layout, offset, (byte) ((Boolean) boxed ? 1 : 0));
                case SHORT -> block.set((ValueLayout.OfShort) layout, offset, (Short) boxed);
                case CHAR -> block.set((ValueLayout.OfChar) layout, offset, (Character) boxed);
                case INT -> block.set((ValueLayout.OfInt) layout, offset, (Integer) boxed);
                case FLOAT -> block.set((ValueLayout.OfFloat) layout, offset, (Float) boxed);
                case LONG -> block.set((ValueLayout.OfLong) layout, offset, (Long) boxed);
                case DOUBLE -> block.set((ValueLayout.OfDouble) layout, offset, (Double) boxed);
            }
        }
        return block;
    }

    private void pairs(LoadModel.Frame frame, Map<?, ?> tree, RawColumns raw, List<Input> inputs, String where) {
        List<?> pairs = Trees.listField(tree, "pairs", where);
        List<?> columns = Trees.listField(tree, "pairColumns", where);
        if (columns.size() != pairs.size()) {
            throw Trees.bad(where, pairs.size() + " pairs but " + columns.size() + " pair columns");
        }
        Set<List<Object>> seen = new HashSet<>();
        Set<BaseRelationship<?>> exclusive = new HashSet<>();
        for (int p = 0; p < pairs.size(); p++) {
            String at = where + ".pairs[" + p + "]";
            Map<?, ?> pair = Trees.map(pairs.get(p), at);
            int index = (int) Trees.integer(Trees.field(pair, "relationship", at), 0, entries.length - 1L,
                    at + ".relationship");
            long target = Trees.integer(Trees.field(pair, "target", at), 1, Long.MAX_VALUE, at + ".target");
            SnapshotComponentEntry entry = entries[index];
            at = where + ", edge " + entry.name() + " -> " + Entity.toString(target);
            if (!entry.kind().startsWith("relationship")) {
                throw Trees.bad(at, entry.name() + " is not a dense relationship (" + entry.kind() + ")");
            }
            if (!seen.add(List.of(index, target))) {
                throw Trees.bad(at, "the edge is listed twice");
            }
            if (!isSaved(target)) {
                throw Trees.bad(at, "its target is not an entity of the snapshot");
            }
            BaseRelationship<?> relationship = (BaseRelationship<?>) resolved[index];
            if (relationship == null) {
                skipRaw(entry, columns.get(p), raw, frame.count, at);
                continue;
            }
            if (relationship.isExclusive() && !exclusive.add(relationship)) {
                throw Trees.bad(at, entry.name() + " is exclusive, and the archetype holds two of its edges");
            }
            inputs.add(relationship instanceof RelationshipDefinition<?> definition ? definition.toZeroed(target)
                    : ((Relationship) relationship).to(target));
            column(frame, index, new LoadModel.Target(relationship, relationship, target), columns.get(p), raw, at);
        }
    }

    private void sparse(LoadModel.Frame frame, Map<?, ?> tree, Set<BaseRelationship<?>> markers, String where) {
        List<?> sparse = Trees.listField(tree, "sparse", where);
        Set<BaseRelationship<?>> seen = new HashSet<>();
        Set<Integer> listed = new HashSet<>();
        for (int s = 0; s < sparse.size(); s++) {
            String at = where + ".sparse[" + s + "]";
            Map<?, ?> entryTree = Trees.map(sparse.get(s), at);
            int index = (int) Trees.integer(Trees.field(entryTree, "relationship", at), 0, entries.length - 1L,
                    at + ".relationship");
            SnapshotComponentEntry entry = entries[index];
            at = where + ", sparse " + entry.name();
            if (!entry.kind().startsWith("sparse-relationship") || !listed.add(index)) {
                throw Trees.bad(at, "not a sparse relationship of this archetype, or listed twice");
            }
            List<?> rows = Trees.list(Trees.field(entryTree, "edges", at), at + ".edges");
            if (rows.size() != frame.count) {
                throw Trees.bad(at, rows.size() + " edge lists for " + frame.count + " entities");
            }
            BaseRelationship<?> relationship = (BaseRelationship<?>) resolved[index];
            if (relationship == null) {
                continue; // transient here
            }
            if (!markers.contains(relationship)) {
                throw Trees.bad(at, "edges without the relationship's marker in the archetype");
            }
            seen.add(relationship);
            SnapshotCodec<Object> codec = Schema.codec(relationship);
            int[] offsets = new int[frame.count + 1];
            List<Long> targets = new ArrayList<>();
            List<Object> payloads = relationship.payloadType() == null ? null : new ArrayList<>();
            for (int i = 0; i < frame.count; i++) {
                String rowAt = at + ", entity " + i;
                List<?> edges = Trees.list(rows.get(i), rowAt);
                if (edges.isEmpty()) {
                    throw Trees.bad(rowAt, "the marker is present but the entity holds no edge");
                }
                if (relationship.isExclusive() && edges.size() > 1) {
                    throw Trees.bad(rowAt, entry.name() + " is exclusive but the entity holds " + edges.size()
                            + " edges");
                }
                long last = 0;
                for (int e = 0; e < edges.size(); e++) {
                    String edgeAt = rowAt + ", edge " + e;
                    long target;
                    Object payload = null;
                    if (payloads == null) {
                        target = Trees.integer(edges.get(e), 1, Long.MAX_VALUE, edgeAt);
                    } else {
                        Map<?, ?> edge = Trees.map(edges.get(e), edgeAt);
                        target = Trees.integer(Trees.field(edge, "target", edgeAt), 1, Long.MAX_VALUE,
                                edgeAt + ".target");
                        payload = decode(relationship, codec, relationship.valueType(),
                                Trees.field(edge, "payload", edgeAt), edgeAt + ".payload");
                        if (payload == null) {
                            throw Trees.bad(edgeAt, "an edge payload must not be null");
                        }
                        checkTarget((RelationshipDefinition<?>) relationship, payload, target, edgeAt);
                    }
                    if (!Entity.isWellFormed(target)) {
                        throw Trees.bad(edgeAt, "target " + target + " is not an entity id");
                    }
                    if (e > 0 && target <= last) {
                        throw Trees.bad(edgeAt, "targets must ascend without repeats (" + target + " after " + last
                                + ")");
                    }
                    if (relationship.isCascadeDelete() && !isSaved(target)) {
                        throw Trees.bad(edgeAt, entry.name() + " cascades, but target " + Entity.toString(target)
                                + " is not an entity of the snapshot");
                    }
                    last = target;
                    targets.add(target);
                    if (payloads != null) {
                        payloads.add(payload);
                    }
                }
                offsets[i + 1] = targets.size();
            }
            frame.sparse.add(new LoadModel.Sparse(relationship, offsets,
                    targets.stream().mapToLong(Long::longValue).toArray(),
                    payloads == null ? null : payloads.toArray()));
        }
        for (BaseRelationship<?> marker : markers) {
            if (!seen.contains(marker)) {
                throw Trees.bad(where, "sparse relationship " + marker.name() + " has a marker but no edges");
            }
        }
    }

    // ---------------------------------------------------------------- shared: metadata

    private LoadModel finish(Map<?, ?> root, String where) {
        restoredLayout();
        SlotTable free = new SlotTable(model.highWater, model.freeSlots.length);
        for (int i = 0; i < model.freeSlots.length; i++) {
            int slot = model.freeSlots[i];
            if (!free.add(slot, model.freeGenerations[i])) {
                throw Trees.bad(where + ".freeSlots", "slot " + slot + " is listed twice");
            }
            if (restored.contains(slot)) {
                throw Trees.bad(where + ".freeSlots", "slot " + slot + " is free and holds an entity");
            }
        }
        Map<?, ?> data = Trees.mapField(root, "data", where);
        for (Map.Entry<?, ?> entry : data.entrySet()) {
            String key = Trees.string(entry.getKey(), where + ".data key");
            if (key.isEmpty()) {
                throw Trees.bad(where + ".data", "a key is empty");
            }
            if (key.equals(Snapshot.RANDOM_KEY)) {
                random(entry.getValue(), where + ".data." + key);
            } else {
                model.data.put(key, entry.getValue());
            }
        }
        Object states = root.get("states");
        if (states != null) {
            List<?> list = Trees.list(states, where + ".states");
            List<String> names = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                String name = Trees.string(list.get(i), where + ".states[" + i + "]");
                if (!host.hasState(name)) {
                    throw Trees.bad(where + ".states[" + i + "]", "state " + Trees.abbreviate(name) + " was not "
                            + "created in this world");
                }
                if (names.contains(name)) {
                    throw Trees.bad(where + ".states[" + i + "]", "state " + name + " is on the stack twice");
                }
                names.add(name);
            }
            model.states = names;
        }
        Object pipeline = root.get("pipeline");
        if (pipeline != null) {
            String at = where + ".pipeline";
            Map<?, ?> map = Trees.map(pipeline, at);
            double accumulator = Trees.float64(Trees.field(map, "fixedAccumulator", at), at + ".fixedAccumulator");
            if (!(accumulator >= 0) || Double.isInfinite(accumulator)) {
                throw Trees.bad(at, "fixedAccumulator " + accumulator + " must be finite and not negative");
            }
            model.fixedAccumulator = accumulator;
            Map<?, ?> phases = Trees.map(Trees.field(map, "phases", at), at + ".phases");
            List<String> leaves = host.leafPhases();
            model.phases = new LinkedHashMap<>();
            for (Map.Entry<?, ?> entry : phases.entrySet()) {
                // (names put together only for an exception: a load reads every phase)
                String name = entry.getKey() instanceof String found ? found
                        : Trees.string(entry.getKey(), at + ".phases key");
                if (!leaves.contains(name)) {
                    throw Trees.bad(at, "phase " + Trees.abbreviate(name) + " is not a leaf phase of this world");
                }
                model.phases.put(name, entry.getValue() instanceof Boolean enabled ? enabled
                        : Trees.bool(entry.getValue(), at + ".phases." + name));
            }
        }
        return model;
    }

    /**
     * Lays the restored slots out in slot order, each with its generation and position, once every frame's ids
     * are recorded; fewer slots than ids means that some slot came twice ({@link SlotTable#addPacked} does not
     * look), and the ids are then recorded again one by one to name the first duplicate, as a load that checked
     * each id on the way would have.
     *
     * @param frames each frame's ids, native order
     */
    private void layOutRestored(List<MemorySegment> frames) {
        int n = restored.size();
        int[] slots = scratch.slots(n);
        int[] generations = scratch.generations(n);
        int[] positions = scratch.positions(n);
        if (restored.layout(slots, generations, positions) != n) {
            SlotTable seen = new SlotTable(model.highWater, n);
            for (int f = 0; f < frames.size(); f++) {
                MemorySegment ids = frames.get(f);
                for (long at = 0; at < ids.byteSize() / 8; at++) {
                    long id = ids.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, at);
                    if (!seen.add(Entity.slot(id), Entity.generation(id))) {
                        throw duplicate("archetype " + f, id);
                    }
                }
            }
            throw new IllegalStateException("the ids recorded " + n + " slots, laid out as fewer, with no slot twice");
        }
        model.restoredSlots = slots;
        model.restoredGenerations = generations;
        model.restoredCount = n;
        restoredPositions = positions;
    }

    /**
     * The restored slots in slot order, each with its generation, and each frame's slots (ascending) with their
     * rows in the frame: what lets the entity index be written in slot order when the load is applied. All of it
     * lives in the scratch's reused arrays: frame {@code f}'s slots and rows at {@code [start f, start f + count)}
     * of two arrays shared by the frames (the restored slots' own arrays when there is one frame).
     */
    private void restoredLayout() {
        int n = model.restoredCount;
        int[] slots = model.restoredSlots;
        int[] positions = restoredPositions;
        List<LoadModel.Frame> frames = model.frames;
        if (frames.size() == 1) { // positions are the rows of the one frame
            frames.get(0).slots = slots;
            frames.get(0).rows = positions;
            frames.get(0).from = 0;
            return;
        }
        int[] frameSlots = scratch.frameSlots(n);
        int[] frameRows = scratch.frameRows(n);
        int[] starts = new int[frames.size()];
        int[] filled = new int[frames.size()];
        for (int f = 0, start = 0; f < starts.length; f++) {
            starts[f] = start;
            filled[f] = start;
            start += frames.get(f).count;
            frames.get(f).slots = frameSlots;
            frames.get(f).rows = frameRows;
            frames.get(f).from = starts[f];
        }
        for (int k = 0; k < n; k++) {
            int f = Arrays.binarySearch(starts, positions[k]); // starts ascend strictly: every frame holds one
            if (f < 0) {
                f = -f - 2; // the last frame starting before the position
            }
            frameSlots[filled[f]] = slots[k];
            frameRows[filled[f]++] = positions[k] - starts[f];
        }
    }

    private void random(Object payload, String where) {
        Map<?, ?> map = Trees.map(payload, where);
        model.randomSeed = Trees.word32(Trees.field(map, "seed", where), where + ".seed");
        Map<?, ?> streams = Trees.mapField(map, "streams", where);
        model.randomStreams = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : streams.entrySet()) {
            String name = Trees.string(entry.getKey(), where + ".streams key");
            String at = where + ".streams." + name;
            if (name.isEmpty()) {
                throw Trees.bad(where, "a stream name is empty");
            }
            List<?> words = Trees.list(entry.getValue(), at);
            if (words.size() != 4) {
                throw Trees.bad(at, "a stream holds four 32-bit words, not " + words.size());
            }
            int[] state = new int[4];
            for (int w = 0; w < 4; w++) {
                state[w] = Trees.word32(words.get(w), at + "[" + w + "]");
            }
            if ((state[0] | state[1] | state[2] | state[3]) == 0) {
                throw Trees.bad(at, "an all-zero state is not a xoshiro128** state");
            }
            model.randomStreams.put(name, state);
        }
    }

    /** Which definitions keep their values in a heap column. */
    static final class WriterStorage {
        private WriterStorage() {
        }

        static boolean heap(Component<?> definition) {
            StorageKind storage = definition instanceof BaseRelationship<?> r ? r.edgeStorage()
                    : definition.storage();
            return storage == StorageKind.MANAGED || storage == StorageKind.SCALAR
                    && definition.layout().heapColumn();
        }
    }
}
