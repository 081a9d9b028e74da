package dev.jtecs.snapshot;

import dev.jtecs.query.QueryDescriptor;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How to save a snapshot: the format, where binary output goes, which entities are saved, and custom data to
 * attach. A mutable builder; the world reads it during the save only.
 *
 * <pre>
 *   SnapshotOptions.table()                                   detached tree (the default)
 *   SnapshotOptions.binary().buffer(reused).path(file)         framed bytes into a reused buffer, then a file
 *   SnapshotOptions.table().filter(QueryDescriptor...).layers(0, 1).customData("game.level", 3)
 * </pre>
 */
public final class SnapshotOptions {
    private SnapshotFormat format;
    private SnapshotBuffer buffer;
    private Path path;
    private QueryDescriptor filter;
    private int[] layers;
    private final Map<String, Object> customData = new LinkedHashMap<>();

    private SnapshotOptions(SnapshotFormat format) {
        this.format = format;
    }

    /** Table output unless a buffer or a path is given (then binary). */
    public static SnapshotOptions defaults() {
        return new SnapshotOptions(null);
    }

    /** The detached tree. */
    public static SnapshotOptions table() {
        return new SnapshotOptions(SnapshotFormat.TABLE);
    }

    /** The framed binary form. */
    public static SnapshotOptions binary() {
        return new SnapshotOptions(SnapshotFormat.BINARY);
    }

    /** Reusable output storage for the binary form (see {@link SnapshotBuffer}). */
    public SnapshotOptions buffer(SnapshotBuffer value) {
        this.buffer = Objects.requireNonNull(value, "buffer");
        return this;
    }

    /**
     * Writes the binary form to this file as well (through a temporary file beside it, moved into place once
     * complete, so a failed save leaves any earlier file as it was).
     */
    public SnapshotOptions path(Path value) {
        this.path = Objects.requireNonNull(value, "path");
        return this;
    }

    /**
     * Saves only the entities of archetypes this descriptor matches, judged by its own include, includeAny and
     * exclude lists: the automatic {@code Disabled} and {@code Paused} exclusions of queries do not apply.
     */
    public SnapshotOptions filter(QueryDescriptor descriptor) {
        this.filter = Objects.requireNonNull(descriptor, "descriptor");
        return this;
    }

    /**
     * Saves only entities whose {@code Transform2D} layer is one of these; entities without a {@code Transform2D}
     * always pass. Checked here, so a save never starts with a layer it cannot select.
     *
     * @throws IllegalArgumentException for a layer outside 0..31; the options keep the layers they had
     */
    public SnapshotOptions layers(int... values) {
        Objects.requireNonNull(values, "layers");
        for (int layer : values) {
            if (layer < 0 || layer > 31) {
                throw new IllegalArgumentException("layers: layer " + layer + " is outside 0..31");
            }
        }
        this.layers = values.clone();
        return this;
    }

    /**
     * Attaches a detached value (a tree of maps with string keys, lists, strings, numbers, booleans and
     * {@code null}) under a unique key.
     *
     * @throws IllegalArgumentException for an empty or repeated key (the reserved random key is refused when
     *     the snapshot is saved)
     */
    public SnapshotOptions customData(String key, Object value) {
        Objects.requireNonNull(key, "key");
        if (key.isEmpty()) {
            throw new IllegalArgumentException("customData: a key must not be empty");
        }
        if (customData.containsKey(key)) {
            throw new IllegalArgumentException("customData: key '" + key + "' is given twice");
        }
        customData.put(key, value);
        return this;
    }

    /** The format a save with these options produces. */
    public SnapshotFormat format() {
        if (format != null) {
            return format;
        }
        return buffer != null || path != null ? SnapshotFormat.BINARY : SnapshotFormat.TABLE;
    }

    /** Whether the format was chosen explicitly. */
    public boolean formatGiven() {
        return format != null;
    }

    public SnapshotBuffer buffer() {
        return buffer;
    }

    public Path path() {
        return path;
    }

    public QueryDescriptor filter() {
        return filter;
    }

    /** The layers selected, or {@code null} for all. */
    public int[] layers() {
        return layers == null ? null : layers.clone();
    }

    /** The custom data in the order it was given. */
    public Map<String, Object> customData() {
        return Collections.unmodifiableMap(customData);
    }

    @Override
    public String toString() {
        return "SnapshotOptions[format=" + format() + ", buffer=" + (buffer != null) + ", path=" + path
                + ", filter=" + filter + ", layers=" + (layers == null ? "all" : Arrays.toString(layers))
                + ", customData=" + customData.keySet() + "]";
    }
}
