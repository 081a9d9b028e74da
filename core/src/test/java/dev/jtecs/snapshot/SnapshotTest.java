package dev.jtecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.PrimitiveKind;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The two forms of a saved snapshot: what each hands out, what each refuses, and the prelude's figures. */
class SnapshotTest {
    private static final SnapshotComponentEntry ENTRY = new SnapshotComponentEntry("c", "scalar", List.of("value"),
            List.of(PrimitiveKind.INT), "0", false);
    private static final SnapshotPrelude PRELUDE = new SnapshotPrelude(1, 12, 5, 3, List.of(ENTRY));

    @Test
    void aTableSnapshotHandsOutItsTreeAndThePreludesFigures() {
        Map<String, Object> tree = new LinkedHashMap<>();
        Snapshot snapshot = Snapshot.ofTable(PRELUDE, tree);
        assertEquals(SnapshotFormat.TABLE, snapshot.format());
        assertSame(tree, snapshot.table());
        assertSame(PRELUDE, snapshot.prelude());
        assertEquals(1, snapshot.version());
        assertEquals(12, snapshot.nextEntityId());
        assertEquals(5, snapshot.entityCount());
        assertEquals(3, snapshot.archetypeCount());
        assertEquals(List.of(ENTRY), snapshot.componentTable());
        assertNull(snapshot.path());
        assertEquals("a table snapshot has no buffer; use table()",
                assertThrows(IllegalStateException.class, snapshot::buffer).getMessage());
        assertThrows(IllegalStateException.class, snapshot::toByteArray);
        assertEquals("Snapshot[TABLE, version=1, entities=5, archetypes=3]", snapshot.toString());
        assertThrows(NullPointerException.class, () -> Snapshot.ofTable(null, tree));
        assertThrows(NullPointerException.class, () -> Snapshot.ofTable(PRELUDE, null));
    }

    @Test
    void aBinarySnapshotHandsOutItsBytesReadOnly() {
        MemorySegment bytes = MemorySegment.ofArray(new byte[] {1, 2, 3});
        Snapshot snapshot = Snapshot.ofBinary(PRELUDE, bytes, Path.of("save.snap"));
        assertEquals(SnapshotFormat.BINARY, snapshot.format());
        assertTrue(snapshot.buffer().isReadOnly());
        assertArrayEquals(new byte[] {1, 2, 3}, snapshot.toByteArray());
        assertThrows(IllegalArgumentException.class, () -> snapshot.buffer().set(ValueLayout.JAVA_BYTE, 0,
                (byte) 9));
        assertEquals(Path.of("save.snap"), snapshot.path());
        assertEquals("a binary snapshot has no table; use buffer()",
                assertThrows(IllegalStateException.class, snapshot::table).getMessage());
        assertEquals("Snapshot[BINARY, version=1, entities=5, archetypes=3, bytes=3, path=save.snap]",
                snapshot.toString());
        assertEquals("Snapshot[BINARY, version=1, entities=5, archetypes=3, bytes=3]",
                Snapshot.ofBinary(PRELUDE, bytes, null).toString());
        assertThrows(NullPointerException.class, () -> Snapshot.ofBinary(PRELUDE, null, null));
    }
}
