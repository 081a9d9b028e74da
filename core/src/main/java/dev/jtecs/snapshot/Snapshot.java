package dev.jtecs.snapshot;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A saved world: the result of {@code world.saveSnapshot}, in one of two forms ({@link SnapshotFormat}). A
 * table snapshot is a detached tree ({@link #table()}) that shares nothing with the world; a binary snapshot is
 * a byte stream ({@link #buffer()}): a view of the caller's {@link SnapshotBuffer} when one was given (valid
 * until the next save into it), otherwise memory of its own, and the file it was also written to, if any.
 *
 * <p>Either form loads back with {@code world.loadSnapshot}, which also takes a bare tree (parsed JSON), bytes,
 * a segment or a file path.
 */
public final class Snapshot {
    /** The framing version this build writes and reads. */
    public static final int VERSION = 1;
    /** The reserved custom data key of the random streams, refused from callers and handlers. */
    public static final String RANDOM_KEY = "jtecs.random";

    private final SnapshotFormat format;
    private final SnapshotPrelude prelude;
    private final Map<String, Object> table;
    private final MemorySegment buffer;
    private final Path path;

    private Snapshot(SnapshotFormat format, SnapshotPrelude prelude, Map<String, Object> table, MemorySegment buffer,
            Path path) {
        this.format = format;
        this.prelude = prelude;
        this.table = table;
        this.buffer = buffer;
        this.path = path;
    }

    /** A table snapshot (the world makes these). */
    public static Snapshot ofTable(SnapshotPrelude prelude, Map<String, Object> table) {
        return new Snapshot(SnapshotFormat.TABLE, Objects.requireNonNull(prelude, "prelude"),
                Objects.requireNonNull(table, "table"), null, null);
    }

    /** A binary snapshot (the world makes these). */
    public static Snapshot ofBinary(SnapshotPrelude prelude, MemorySegment buffer, Path path) {
        return new Snapshot(SnapshotFormat.BINARY, Objects.requireNonNull(prelude, "prelude"), null,
                Objects.requireNonNull(buffer, "buffer").asReadOnly(), path);
    }

    public SnapshotFormat format() {
        return format;
    }

    public SnapshotPrelude prelude() {
        return prelude;
    }

    public int version() {
        return prelude.version();
    }

    public int nextEntityId() {
        return prelude.nextEntityId();
    }

    public long entityCount() {
        return prelude.entityCount();
    }

    public int archetypeCount() {
        return prelude.archetypeCount();
    }

    public List<SnapshotComponentEntry> componentTable() {
        return prelude.componentTable();
    }

    /**
     * The detached tree of a table snapshot: the caller's to keep, change or serialize.
     *
     * @throws IllegalStateException for a binary snapshot
     */
    public Map<String, Object> table() {
        if (table == null) {
            throw new IllegalStateException("a binary snapshot has no table; use buffer()");
        }
        return table;
    }

    /**
     * The bytes of a binary snapshot, read-only.
     *
     * @throws IllegalStateException for a table snapshot
     */
    public MemorySegment buffer() {
        if (buffer == null) {
            throw new IllegalStateException("a table snapshot has no buffer; use table()");
        }
        return buffer;
    }

    /** The file a binary snapshot was also written to, or {@code null}. */
    public Path path() {
        return path;
    }

    /** A heap copy of a binary snapshot's bytes. */
    public byte[] toByteArray() {
        return buffer().toArray(ValueLayout.JAVA_BYTE);
    }

    @Override
    public String toString() {
        return "Snapshot[" + format + ", version=" + version() + ", entities=" + entityCount() + ", archetypes="
                + archetypeCount() + (buffer != null ? ", bytes=" + buffer.byteSize() : "")
                + (path != null ? ", path=" + path : "") + "]";
    }
}
