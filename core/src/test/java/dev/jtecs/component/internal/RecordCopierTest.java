package dev.jtecs.component.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordCopierTest {
    record Inventory(List<String> items, int gold) {}

    private record Hidden(String name) {}

    record Empty() {}

    @Test
    void copiesTheOuterRecordAndSharesItsComponents() {
        List<String> items = new ArrayList<>(List.of("sword"));
        Inventory original = new Inventory(items, 12);
        Object copy = RecordCopier.copyOrShare(original);
        assertEquals(original, copy);
        assertNotSame(original, copy);
        assertSame(items, ((Inventory) copy).items());
        assertEquals(Inventory.class, copy.getClass());
    }

    @Test
    void reachesPrivateRecordsAndRecordsWithoutComponents() {
        Hidden hidden = new Hidden("x");
        assertEquals(hidden, RecordCopier.copyOrShare(hidden));
        assertNotSame(hidden, RecordCopier.copyOrShare(hidden));
        Empty empty = new Empty();
        assertNotSame(empty, RecordCopier.copyOrShare(empty));
    }

    @Test
    void sharesNonRecordsAndNull() {
        StringBuilder value = new StringBuilder("shared");
        assertSame(value, RecordCopier.copyOrShare(value));
        assertNull(RecordCopier.copyOrShare(null));
    }
}
