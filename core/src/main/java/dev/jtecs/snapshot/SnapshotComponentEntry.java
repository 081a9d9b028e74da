package dev.jtecs.snapshot;

import dev.jtecs.component.PrimitiveKind;
import java.util.List;
import java.util.Objects;

/**
 * One row of a snapshot's component table: a saved component or relationship by its persisted name, how it is
 * stored, the native field layout its values were saved with and the layout's fingerprint, and whether a custom
 * codec wrote them. Archetype frames name components by their index in this table, never by a process-local id.
 *
 * @param name the persisted name
 * @param kind {@code native}, {@code scalar}, {@code managed}, {@code tag}, {@code relationship} (dense) or
 *     {@code sparse-relationship}
 * @param fieldNames the native fields in declaration order ({@code value} for a numeric scalar; a payload
 *     relationship's record fields; empty otherwise)
 * @param fieldKinds the kind of each native field
 * @param fingerprint the layout fingerprint: 16 hex digits of FNV-1a 64 over {@code name:KIND;} per field
 * @param customCodec whether the values were written by a custom {@code save} codec
 */
public record SnapshotComponentEntry(String name, String kind, List<String> fieldNames,
        List<PrimitiveKind> fieldKinds, String fingerprint, boolean customCodec) {
    public SnapshotComponentEntry {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        fieldNames = List.copyOf(fieldNames);
        fieldKinds = List.copyOf(fieldKinds);
        Objects.requireNonNull(fingerprint, "fingerprint");
        if (fieldNames.size() != fieldKinds.size()) {
            throw new IllegalArgumentException("component " + name + ": " + fieldNames.size() + " field names, "
                    + fieldKinds.size() + " kinds");
        }
    }

    /** The fingerprint of a field layout (see the record comment). */
    public static String fingerprint(List<String> names, List<PrimitiveKind> kinds) {
        long hash = 0xCBF2_9CE4_8422_2325L;
        for (int i = 0; i < names.size(); i++) {
            hash = fnv(hash, names.get(i));
            hash = fnv(hash, ":");
            hash = fnv(hash, kinds.get(i).name());
            hash = fnv(hash, ";");
        }
        return java.util.HexFormat.of().toHexDigits(hash);
    }

    /** Folds the UTF-8 bytes of {@code text} into an FNV-1a 64 hash (ASCII text without encoding it first). */
    private static long fnv(long hash, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0x80) { // not ASCII: fold the rest as its UTF-8 bytes
                for (byte b : text.substring(i).getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
                    hash ^= b & 0xFF;
                    hash *= 0x0000_0100_0000_01B3L;
                }
                return hash;
            }
            hash ^= c;
            hash *= 0x0000_0100_0000_01B3L;
        }
        return hash;
    }
}
