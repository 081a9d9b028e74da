package dev.jtecs.snapshot;

/** The two forms a snapshot takes. */
public enum SnapshotFormat {
    /**
     * A detached tree of {@code Map<String, Object>}, {@code List<Object>}, strings, numbers, booleans and
     * {@code null}, which a JSON library (Jackson) writes and reads back as it is; 64-bit integers (entity ids,
     * {@code long} fields) are exact decimal strings.
     */
    TABLE,
    /**
     * A framed, versioned, checksummed byte stream: metadata, then per archetype its entity ids and one block
     * per eligible native column, each written and read with one bulk copy.
     */
    BINARY
}
