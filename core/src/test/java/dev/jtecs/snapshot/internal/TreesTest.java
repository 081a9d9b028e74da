package dev.jtecs.snapshot.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.PrimitiveKind;
import dev.jtecs.snapshot.InvalidSnapshotException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The strict tree readers: each answers the value it read, and refuses anything else naming where it was. */
class TreesTest {
    @Test
    void detachCopiesListsAndMapsAndKeepsLeaves() {
        List<Object> inner = new ArrayList<>(List.of("a", 1));
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("k", inner);
        Object copy = Trees.detach(tree, "w");
        assertEquals(tree, copy);
        assertNotSame(tree, copy);
        assertNotSame(inner, ((Map<?, ?>) copy).get("k"));
        inner.add(2);
        assertEquals(List.of("a", 1), ((Map<?, ?>) copy).get("k"));
        assertThrows(IllegalArgumentException.class, () -> Trees.detach(new Object(), "w"));
    }

    @Test
    void containersAndFieldsAreReadOrRefusedNamingWhere() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("present", null);
        assertSame(map, Trees.map(map, "w"));
        assertEquals("w: expected a map, found " + Trees.describe(List.of()),
                assertThrows(InvalidSnapshotException.class, () -> Trees.map(List.of(), "w")).getMessage());
        List<Object> list = List.of(1);
        assertSame(list, Trees.list(list, "w"));
        assertThrows(InvalidSnapshotException.class, () -> Trees.list(map, "w"));
        assertEquals(null, Trees.field(map, "present", "w"), "a key holding null is present");
        assertEquals("w: missing 'absent'",
                assertThrows(InvalidSnapshotException.class, () -> Trees.field(map, "absent", "w")).getMessage());
        assertEquals("s", Trees.string("s", "w"));
        assertThrows(InvalidSnapshotException.class, () -> Trees.string(1, "w"));
    }

    @Test
    void booleansAreReadAsTheyAre() {
        assertTrue(Trees.bool(true, "w"));
        assertFalse(Trees.bool(false, "w"));
        assertEquals("w: expected a boolean, found " + Trees.describe("true"),
                assertThrows(InvalidSnapshotException.class, () -> Trees.bool("true", "w")).getMessage());
    }

    @Test
    void integersAreRangeCheckedAndUnsignedWordsWrapToInts() {
        assertEquals(-7L, Trees.integer(-7, -10, 10, "w"));
        assertEquals(12345678901L, Trees.integer("12345678901", 0, Long.MAX_VALUE, "w"), "a decimal string");
        InvalidSnapshotException range = assertThrows(InvalidSnapshotException.class,
                () -> Trees.integer(11, -10, 10, "w"));
        assertTrue(range.getMessage().startsWith("w"), range.getMessage());
        assertTrue(range.getCause() instanceof IllegalArgumentException, "the codec's refusal is the cause");
        assertEquals(Integer.MIN_VALUE, Trees.int32(Integer.MIN_VALUE, "w"));
        assertThrows(InvalidSnapshotException.class, () -> Trees.int32(1L << 31, "w"));
        assertEquals(-1, Trees.word32(0xFFFF_FFFFL, "w"), "an unsigned word");
        assertEquals(0x7FFF_FFFF, Trees.word32(0x7FFF_FFFF, "w"));
        assertEquals(-5, Trees.word32(-5, "w"));
        assertThrows(InvalidSnapshotException.class, () -> Trees.word32(1L << 32, "w"));
    }

    @Test
    void doublesAndPrimitivesAndManagedValuesDecodeOrAreRefused() {
        assertEquals(2.5, Trees.float64(2.5, "w"));
        assertEquals(Double.NEGATIVE_INFINITY, Trees.float64("-Infinity", "w"));
        assertTrue(Double.isNaN(Trees.float64("NaN", "w")));
        assertThrows(InvalidSnapshotException.class, () -> Trees.float64("much", "w"));
        assertEquals((short) -3, Trees.decodePrimitive(PrimitiveKind.SHORT, -3, "w"));
        assertEquals(Long.MIN_VALUE, Trees.decodePrimitive(PrimitiveKind.LONG, Long.toString(Long.MIN_VALUE), "w"));
        assertThrows(InvalidSnapshotException.class, () -> Trees.decodePrimitive(PrimitiveKind.BYTE, 300, "w"));
        assertEquals("text", Trees.decodeManaged(String.class, "text", "w"));
        assertThrows(InvalidSnapshotException.class, () -> Trees.decodeManaged(Integer.class, "x", "w"));
    }

    @Test
    void badNamesWhereAndWhat() {
        InvalidSnapshotException bad = Trees.bad("archetype 2", "broken");
        assertEquals("archetype 2: broken", bad.getMessage());
        assertFalse(Trees.describe(List.of(1)).isEmpty());
        assertFalse(Trees.describe(null).isEmpty());
        assertEquals("short", Trees.abbreviate("short"));
        String longText = "x".repeat(10_000);
        assertTrue(Trees.abbreviate(longText).length() < longText.length());
    }
}
