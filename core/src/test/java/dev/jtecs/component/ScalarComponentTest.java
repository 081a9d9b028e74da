package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ScalarComponentTest {
    @Test
    void eachScalarKindHasItsColumnLayout() {
        ScalarComponent.OfDouble d = Components.scalar("test.scalar.D", 1.5);
        ScalarComponent.OfLong l = Components.scalar("test.scalar.L", 7L);
        ScalarComponent.OfInt i = Components.scalar("test.scalar.I", 3);
        ScalarComponent.OfBoolean b = Components.scalar("test.scalar.B", true);
        ScalarComponent.OfString s = Components.scalar("test.scalar.S", "x");
        assertEquals(PrimitiveKind.DOUBLE, d.layout().fieldKinds().get(0));
        assertEquals(PrimitiveKind.LONG, l.layout().fieldKinds().get(0));
        assertEquals(PrimitiveKind.INT, i.layout().fieldKinds().get(0));
        assertEquals(PrimitiveKind.BOOLEAN, b.layout().fieldKinds().get(0));
        assertTrue(s.layout().heapColumn());
        assertEquals(0, s.layout().nativeColumnCount());
        assertEquals(1.5, d.newDefault());
        assertEquals(7L, l.scalarDefault());
        assertEquals(3, i.newDefault());
        assertEquals(true, b.newDefault());
        assertEquals("x", s.newDefault());
        assertEquals(StorageKind.SCALAR, d.storage());
    }

    @Test
    void ofBoxesTheRawValue() {
        ScalarComponent.OfInt level = Components.scalar("test.scalar.Level", 0);
        assertEquals(42, level.of(42).value());
        assertEquals(Integer.class, level.valueType());
        assertEquals(level, level.ofBoxed(5).component());
    }

    @Test
    void stringScalarRejectsNullDefault() {
        assertThrows(NullPointerException.class, () -> Components.scalar("test.scalar.Null", (String) null));
    }

    @Test
    void transientOptionApplies() {
        ScalarComponent.OfLong t = Components.scalar("test.scalar.T", 0L, o -> o.transient_(true));
        assertTrue(t.isTransient());
    }
}
