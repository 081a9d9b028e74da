package dev.jtecs.snapshot.internal;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentLayout;
import dev.jtecs.component.PrimitiveKind;
import dev.jtecs.component.SnapshotCodec;
import dev.jtecs.component.internal.TreeCodec;
import dev.jtecs.snapshot.SnapshotBuffer;
import dev.jtecs.snapshot.SnapshotComponentEntry;
import dev.jtecs.storage.internal.SparseEdges;
import dev.jtecs.storage.internal.Table;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * Writes a {@link SaveModel} as a table (a detached tree) or in the binary framing (see {@link Binary}).
 *
 * <p>Frame trees are shared by both forms: {@code components} (component table indices), {@code pairs}
 * ({@code {relationship, target}}), {@code count}, {@code columns} and {@code pairColumns} (one entry per
 * component and pair: {@code null} for no values, {@code {field: [values]}} for automatic native columns,
 * {@code "raw"} in the binary form where the column blocks follow, {@code [values]} for managed and custom-codec
 * values), and {@code sparse} ({@code [{relationship, edges: [[edge...] per row]}]}). The table form adds
 * {@code ids}; the binary form carries ids in their own block.
 */
final class SnapshotWriter {
    private final SaveModel model;
    private final SparseEdges sparse;
    private final boolean binary;

    SnapshotWriter(SaveModel model, SparseEdges sparse, boolean binary) {
        this.model = model;
        this.sparse = sparse;
        this.binary = binary;
    }

    static List<Object> componentTable(List<SnapshotComponentEntry> entries) {
        List<Object> table = new ArrayList<>(entries.size());
        for (SnapshotComponentEntry entry : entries) {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("name", entry.name());
            map.put("kind", entry.kind());
            List<Object> fields = new ArrayList<>();
            for (int f = 0; f < entry.fieldNames().size(); f++) {
                Map<String, Object> field = new LinkedHashMap<>();
                field.put("name", entry.fieldNames().get(f));
                field.put("type", entry.fieldKinds().get(f).name());
                fields.add(field);
            }
            map.put("fields", fields);
            map.put("fingerprint", entry.fingerprint());
            map.put("codec", entry.customCodec() ? "custom" : "automatic");
            table.add(map);
        }
        return table;
    }

    /** The tree of one frame. */
    Map<String, Object> frame(SaveModel.Frame frame) {
        Table table = frame.table;
        int count = frame.count();
        Map<String, Object> tree = new LinkedHashMap<>();
        List<Object> components = new ArrayList<>();
        for (int index : frame.componentIndex) {
            components.add(index);
        }
        tree.put("components", components);
        List<Object> pairs = new ArrayList<>();
        for (int i = 0; i < frame.pairPositions.length; i++) {
            Map<String, Object> pair = new LinkedHashMap<>();
            pair.put("relationship", frame.pairRelationship[i]);
            pair.put("target", Long.toString(frame.pairTarget[i]));
            pairs.add(pair);
        }
        tree.put("pairs", pairs);
        tree.put("count", count);
        if (!binary) {
            List<Object> ids = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                ids.add(Long.toString(table.entityAt(frame.row(i))));
            }
            tree.put("ids", ids);
        }
        List<Object> columns = new ArrayList<>();
        for (int p : frame.positions) {
            Component<?> component = table.componentAt(p);
            columns.add(component instanceof BaseRelationship<?> ? null : column(frame, p, component)); // a marker
        }
        tree.put("columns", columns);
        List<Object> pairColumns = new ArrayList<>();
        for (int i = 0; i < frame.pairPositions.length; i++) {
            int p = frame.pairPositions[i];
            BaseRelationship<?> relationship = model.components.get(frame.pairRelationship[i]) instanceof
                    BaseRelationship<?> r ? r : null;
            pairColumns.add(column(frame, p, relationship));
        }
        tree.put("pairColumns", pairColumns);
        List<Object> sparseEdges = new ArrayList<>();
        for (int s = 0; s < frame.sparse.length; s++) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("relationship", frame.sparseIndex[s]);
            entry.put("edges", sparseEdges(frame, frame.sparse[s]));
            sparseEdges.add(entry);
        }
        tree.put("sparse", sparseEdges);
        return tree;
    }

    /** One column's entry: {@code definition} is the component, or a pair's relationship. */
    private Object column(SaveModel.Frame frame, int position, Component<?> definition) {
        Table table = frame.table;
        SnapshotCodec<Object> codec = Schema.codec(definition);
        ComponentLayout layout = Schema.layout(definition);
        boolean heap = table.hasHeapColumn(position);
        if (codec == null && layout.nativeColumnCount() > 0) {
            if (binary) {
                return "raw";
            }
            Map<String, Object> fields = new LinkedHashMap<>();
            for (int f = 0; f < layout.nativeColumnCount(); f++) {
                fields.put(layout.fieldNames().get(f), fieldValues(frame, position, f));
            }
            return fields;
        }
        boolean stored = heap || table.nativeColumnCount(position) > 0;
        if (!stored) {
            return null; // a tag, a sparse marker, a target-only pair
        }
        int count = frame.count();
        List<Object> values = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int row = frame.row(i);
            Object value = heap ? table.heapValue(position, row) : table.readValue(position, row);
            values.add(encode(definition, codec, value, table.entityAt(row)));
        }
        return values;
    }

    private static Object encode(Component<?> definition, SnapshotCodec<Object> codec, Object value, long entity) {
        String where = "saveSnapshot: entity " + dev.jtecs.entity.Entity.toString(entity) + ", component "
                + definition.name();
        if (codec == null || value == null) {
            return TreeCodec.encodeManaged(value); // an empty managed slot stays empty: no codec sees null
        }
        Object saved;
        try {
            saved = codec.save(value);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(where + ": its save codec threw " + e, e);
        }
        return Trees.detach(saved, where);
    }

    private List<Object> fieldValues(SaveModel.Frame frame, int position, int field) {
        Table table = frame.table;
        PrimitiveKind kind = table.nativeKindAt(position, field);
        int count = frame.count();
        MemorySegment scratch = MemorySegment.ofArray(new byte[Math.max(1, count) * kind.byteSize()]);
        forEachRun(frame, (from, n, at) -> table.exportColumn(position, field, from, n, scratch,
                (long) at * kind.byteSize()));
        ValueLayout layout = Table.portableLayout(kind);
        List<Object> values = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long offset = (long) i * kind.byteSize();
            Object boxed = switch (kind) {
                case BYTE -> scratch.get((ValueLayout.OfByte) layout, offset);
                case BOOLEAN -> scratch.get((ValueLayout.OfByte) layout, offset) != 0;
                case SHORT -> scratch.get((ValueLayout.OfShort) layout, offset);
                case CHAR -> scratch.get((ValueLayout.OfChar) layout, offset);
                case INT -> scratch.get((ValueLayout.OfInt) layout, offset);
                case FLOAT -> scratch.get((ValueLayout.OfFloat) layout, offset);
                case LONG -> scratch.get((ValueLayout.OfLong) layout, offset);
                case DOUBLE -> scratch.get((ValueLayout.OfDouble) layout, offset);
            };
            values.add(TreeCodec.encodePrimitive(kind, boxed));
        }
        return values;
    }

    private List<Object> sparseEdges(SaveModel.Frame frame, BaseRelationship<?> relationship) {
        SnapshotCodec<Object> codec = Schema.codec(relationship);
        int count = frame.count();
        List<Object> rows = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long entity = frame.table.entityAt(frame.row(i));
            List<Object> edges = new ArrayList<>();
            sparse.forEach(relationship, entity, (target, payload) -> {
                if (relationship.payloadType() == null) {
                    edges.add(Long.toString(target));
                } else {
                    Map<String, Object> edge = new LinkedHashMap<>();
                    edge.put("target", Long.toString(target));
                    edge.put("payload", encode(relationship, codec, payload, entity));
                    edges.add(edge);
                }
            });
            rows.add(edges);
        }
        return rows;
    }

    @FunctionalInterface
    interface Run {
        void rows(int from, int n, int at);
    }

    /** Visits a frame's rows as runs of consecutive table rows: {@code (first row, length, frame index)}. */
    static void forEachRun(SaveModel.Frame frame, Run run) {
        int count = frame.count();
        if (frame.rows == null) {
            if (count > 0) {
                run.rows(0, count, 0);
            }
            return;
        }
        int start = 0;
        for (int i = 1; i <= count; i++) {
            if (i == count || frame.rows[i] != frame.rows[i - 1] + 1) {
                run.rows(frame.rows[start], i - start, start);
                start = i;
            }
        }
    }

    // ---------------------------------------------------------------- binary

    /**
     * Writes the binary form into {@code buffer} (or memory of its own when {@code null}) and returns exactly
     * the bytes written.
     */
    MemorySegment binary(Map<String, Object> meta, int[] freeSlots, int[] freeGenerations, SnapshotBuffer buffer,
            int highWater) {
        Tagged.Bytes metaBytes = new Tagged.Bytes();
        Tagged.write(metaBytes, meta);
        List<Tagged.Bytes> frameBytes = new ArrayList<>();
        long total = Binary.HEADER + section(metaBytes.size()) + section(8L * freeSlots.length);
        int sections = 2;
        for (SaveModel.Frame frame : model.frames) {
            Tagged.Bytes bytes = new Tagged.Bytes();
            Tagged.write(bytes, frame(frame));
            frameBytes.add(bytes);
            total += section(bytes.size()) + section(8L * frame.count());
            sections += 2;
            for (int c = 0; c < frame.positions.length; c++) {
                Component<?> component = frame.table.componentAt(frame.positions[c]);
                if (Schema.raw(component)) {
                    for (int f = 0; f < component.layout().nativeColumnCount(); f++) {
                        total += section((long) frame.count() * component.layout().fieldKinds().get(f).byteSize());
                        sections++;
                    }
                }
            }
            for (int i = 0; i < frame.pairPositions.length; i++) {
                Component<?> relationship = model.components.get(frame.pairRelationship[i]);
                if (Schema.raw(relationship)) {
                    ComponentLayout layout = Schema.layout(relationship);
                    for (int f = 0; f < layout.nativeColumnCount(); f++) {
                        total += section((long) frame.count() * layout.fieldKinds().get(f).byteSize());
                        sections++;
                    }
                }
            }
        }
        MemorySegment out = buffer != null ? buffer.ensure(total) : Arena.ofAuto().allocate(total, 64);
        CRC32C crc = new CRC32C();
        Binary.writeHeader(out, total, sections, model.frames.size(), model.entityCount, highWater, crc);
        long at = Binary.HEADER;
        at = tagged(out, at, Binary.META, 0, metaBytes, crc);
        int[] pairs = new int[freeSlots.length * 2];
        for (int i = 0; i < freeSlots.length; i++) {
            pairs[2 * i] = freeSlots[i];
            pairs[2 * i + 1] = freeGenerations[i];
        }
        long payload = at + Binary.SECTION;
        MemorySegment.copy(pairs, 0, out, Tagged.INT, payload, pairs.length);
        at = close(out, at, Binary.FREE, 0, 8L * freeSlots.length, crc);
        for (int f = 0; f < model.frames.size(); f++) {
            SaveModel.Frame frame = model.frames.get(f);
            Table table = frame.table;
            at = tagged(out, at, Binary.FRAME, f, frameBytes.get(f), crc);
            long idsAt = at + Binary.SECTION;
            CopiedCrc ids = new CopiedCrc(out, idsAt, crc);
            forEachRun(frame, (from, n, index) -> {
                for (int done = 0; done < n; ) { // in pieces, each checksummed while it is still in the cache
                    int k = Math.min(n - done, CopiedCrc.rows(8L));
                    table.exportEntities(from + done, k, out, idsAt + 8L * (index + done));
                    ids.copied(idsAt + 8L * (index + done + k));
                    done += k;
                }
            });
            at = closeChecked(out, at, Binary.IDS, f, 8L * frame.count(), ids.finish(idsAt + 8L * frame.count()), crc);
            int column = 0;
            for (int c = 0; c < frame.positions.length; c++) {
                int position = frame.positions[c];
                if (Schema.raw(table.componentAt(position))) {
                    for (int field = 0; field < table.nativeColumnCount(position); field++) {
                        at = rawColumn(out, at, frame, position, field, column++, crc);
                    }
                }
            }
            for (int i = 0; i < frame.pairPositions.length; i++) {
                int position = frame.pairPositions[i];
                if (Schema.raw(model.components.get(frame.pairRelationship[i]))) {
                    for (int field = 0; field < table.nativeColumnCount(position); field++) {
                        at = rawColumn(out, at, frame, position, field, column++, crc);
                    }
                }
            }
        }
        if (at != total) {
            throw new IllegalStateException("snapshot size planned " + total + " bytes, wrote " + at);
        }
        return out;
    }

    private static long section(long payload) {
        return Binary.SECTION + Binary.pad(payload);
    }

    private static long rawColumn(MemorySegment out, long at, SaveModel.Frame frame, int position, int field,
            int column, CRC32C crc) {
        Table table = frame.table;
        long size = table.nativeKindAt(position, field).byteSize();
        long payload = at + Binary.SECTION;
        CopiedCrc checked = new CopiedCrc(out, payload, crc);
        forEachRun(frame, (from, n, index) -> {
            for (int done = 0; done < n; ) { // in pieces, each checksummed while it is still in the cache
                int k = Math.min(n - done, CopiedCrc.rows(size));
                table.exportColumn(position, field, from + done, k, out, payload + size * (index + done));
                checked.copied(payload + size * (index + done + k));
                done += k;
            }
        });
        return closeChecked(out, at, Binary.COLUMN, column, size * frame.count(), checked.finish(payload + size * frame.count()), crc);
    }

    /**
     * The CRC-32C of a block's payload, computed while the block is written: the bytes copied since the last
     * update are folded in once they reach {@link #PIECE} bytes (and the rest at the end), so each piece is
     * checksummed while it is still in the cache instead of being read back from memory after the whole block is
     * written. A frame's rows come in runs of any length (one for a whole table, one per row at worst for a
     * filtered save), and runs are split into pieces or gathered into them, so updates stay a few per
     * {@link #PIECE} bytes either way. The checksum equals {@link Binary#crc} of the finished payload.
     */
    static final class CopiedCrc {
        /** Bytes per update: well inside a core's L2 cache. */
        static final long PIECE = 64 * 1024;

        private final MemorySegment out;
        private final CRC32C crc;
        private long checked; // the payload up to here is folded in

        CopiedCrc(MemorySegment out, long payload, CRC32C crc) {
            this.out = out;
            this.crc = crc;
            this.checked = payload;
            crc.reset();
        }

        /** How many elements of {@code bytes} each make one piece. */
        static int rows(long bytes) {
            return (int) Math.max(1, PIECE / bytes);
        }

        /** The payload is written up to {@code end}: folds what was written in once it makes a piece. */
        void copied(long end) {
            if (end - checked >= PIECE) {
                Binary.update(crc, out, checked, end - checked);
                checked = end;
            }
        }

        /** Folds in the rest up to {@code end}: the payload's checksum. */
        int finish(long end) {
            if (end > checked) {
                Binary.update(crc, out, checked, end - checked);
                checked = end;
            }
            return (int) crc.getValue();
        }
    }

    private static long tagged(MemorySegment out, long at, int kind, int arg, Tagged.Bytes bytes, CRC32C crc) {
        MemorySegment.copy(bytes.array(), 0, out, ValueLayout.JAVA_BYTE, at + Binary.SECTION, bytes.size());
        return close(out, at, kind, arg, bytes.size(), crc);
    }

    /** Writes the header of a section whose payload is in place, zeroes its padding; returns the next offset. */
    private static long close(MemorySegment out, long at, int kind, int arg, long length, CRC32C crc) {
        return closeChecked(out, at, kind, arg, length, Binary.crc(crc, out, at + Binary.SECTION, length), crc);
    }

    /** {@link #close} of a payload whose checksum was computed as it was written. */
    private static long closeChecked(MemorySegment out, long at, int kind, int arg, long length, int payloadCrc,
            CRC32C crc) {
        long payload = at + Binary.SECTION;
        long padded = Binary.pad(length);
        if (padded > length) {
            out.asSlice(payload + length, padded - length).fill((byte) 0);
        }
        Binary.writeSection(out, at, kind, arg, length, payloadCrc, crc);
        return payload + padded;
    }
}
