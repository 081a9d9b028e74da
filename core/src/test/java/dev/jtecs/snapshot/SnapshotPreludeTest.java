package dev.jtecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jtecs.component.PrimitiveKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The prelude a load returns: its component table is its own. */
class SnapshotPreludeTest {
    private static final SnapshotComponentEntry ENTRY = new SnapshotComponentEntry("c", "scalar", List.of("value"),
            List.of(PrimitiveKind.INT), "0", false);

    @Test
    void thePreludeKeepsACopyOfItsComponentTable() {
        java.util.ArrayList<SnapshotComponentEntry> table = new java.util.ArrayList<>(List.of(ENTRY));
        SnapshotPrelude prelude = new SnapshotPrelude(1, 0, 0, 0, table);
        table.clear();
        assertEquals(List.of(ENTRY), prelude.componentTable());
        assertThrows(UnsupportedOperationException.class, () -> prelude.componentTable().clear());
    }
}
