package dev.jtecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jtecs.component.PrimitiveKind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A component table row: its fingerprint is FNV-1a 64 over {@code name:KIND;} per field; its lists are copies. */
class SnapshotComponentEntryTest {
    /** FNV-1a 64 written out independently of the production code. */
    private static String fnv(String text) {
        long hash = 0xCBF29CE484222325L;
        for (byte b : text.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            hash = (hash ^ (b & 0xFF)) * 0x100000001B3L;
        }
        return String.format("%016x", hash);
    }

    @Test
    void theFingerprintIsFnv1aOverEveryFieldInOrder() {
        assertEquals("cbf29ce484222325", SnapshotComponentEntry.fingerprint(List.of(), List.of()),
                "no fields: the offset basis");
        assertEquals(fnv("x:FLOAT;y:INT;"), SnapshotComponentEntry.fingerprint(List.of("x", "y"),
                List.of(PrimitiveKind.FLOAT, PrimitiveKind.INT)));
        assertEquals(fnv("é:BYTE;"), SnapshotComponentEntry.fingerprint(List.of("é"), List.of(PrimitiveKind.BYTE)),
                "bytes above 0x7F count unsigned");
        assertEquals(fnv("a\u00e9b:FLOAT;x\uD83D\uDE00:LONG;z:INT;"), SnapshotComponentEntry.fingerprint(
                List.of("a\u00e9b", "x\uD83D\uDE00", "z"), List.of(PrimitiveKind.FLOAT, PrimitiveKind.LONG,
                        PrimitiveKind.INT)), "ASCII before and after characters of two and four UTF-8 bytes");
        assertEquals(fnv("\u007F:INT;\u0080:INT;"), SnapshotComponentEntry.fingerprint(List.of("\u007F", "\u0080"),
                List.of(PrimitiveKind.INT, PrimitiveKind.INT)), "the last ASCII character and the first past it");
        assertNotEquals(SnapshotComponentEntry.fingerprint(List.of("x", "y"),
                List.of(PrimitiveKind.FLOAT, PrimitiveKind.FLOAT)), SnapshotComponentEntry.fingerprint(
                List.of("y", "x"), List.of(PrimitiveKind.FLOAT, PrimitiveKind.FLOAT)), "order matters");
        assertEquals(16, SnapshotComponentEntry.fingerprint(List.of("a"), List.of(PrimitiveKind.LONG)).length());
    }

    @Test
    void theEntryCopiesItsListsAndRefusesMismatchedOnes() {
        List<String> names = new ArrayList<>(List.of("x"));
        List<PrimitiveKind> kinds = new ArrayList<>(List.of(PrimitiveKind.DOUBLE));
        SnapshotComponentEntry entry = new SnapshotComponentEntry("c", "native", names, kinds, "f", true);
        names.add("y");
        kinds.clear();
        assertEquals(List.of("x"), entry.fieldNames());
        assertEquals(List.of(PrimitiveKind.DOUBLE), entry.fieldKinds());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SnapshotComponentEntry("c", "native", List.of("x", "y"), List.of(PrimitiveKind.INT), "f",
                        false));
        assertEquals("component c: 2 field names, 1 kinds", e.getMessage());
        assertThrows(NullPointerException.class, () -> new SnapshotComponentEntry(null, "tag", List.of(), List.of(),
                "f", false));
        assertThrows(NullPointerException.class, () -> new SnapshotComponentEntry("c", null, List.of(), List.of(),
                "f", false));
        assertThrows(NullPointerException.class, () -> new SnapshotComponentEntry("c", "tag", List.of(), List.of(),
                null, false));
    }
}
