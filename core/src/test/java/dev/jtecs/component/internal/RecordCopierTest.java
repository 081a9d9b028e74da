package dev.jtecs.component.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /** A record of {@code type} holding 1, 2, 3, ... */
    private static Object counting(Class<?> type) throws ReflectiveOperationException {
        Class<?>[] types = java.util.Arrays.stream(type.getRecordComponents())
                .map(java.lang.reflect.RecordComponent::getType).toArray(Class<?>[]::new);
        java.lang.reflect.Constructor<?> ctor = type.getDeclaredConstructor(types);
        return ctor.newInstance(RecordCodecTest.countingValues(type));
    }

    // issue 18, smaller item: records with the most fields the JVM allows failed with a JDK-internal message
    @Test
    void copiesEveryRecordAConstructorHandleTakesAndRefusesWiderOnesNamingThem() throws Exception {
        for (Class<?> widest : List.of(WideRecords.Ints254.class, WideRecords.Longs127.class)) {
            Object value = counting(widest);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> RecordCopier.copyOrShare(value));
            assertTrue(e.getMessage().startsWith("cannot copy record: " + widest.getName() + " has "),
                    e.getMessage());
            assertTrue(e.getMessage().contains("taking 254 parameter slots"), e.getMessage());
            assertFalse(e.getMessage().contains("open its package"), "not an access problem: " + e.getMessage());
            assertFalse(e.getMessage().contains("bad parameter count"), e.getMessage());
        }
        // the widest that work: 253 single slots (past the filtered copier), 252, 126 longs and an int
        for (Class<?> taken : List.of(WideRecords.Ints253.class, WideRecords.Ints252.class,
                WideRecords.Longs126Int1.class)) {
            Object value = counting(taken);
            Object copy = RecordCopier.copyOrShare(value);
            assertEquals(value, copy, taken.getSimpleName());
            assertNotSame(value, copy, taken.getSimpleName());
        }
        assertEquals(251, RecordCopier.MAX_FILTERED_COMPONENTS);
    }
}
