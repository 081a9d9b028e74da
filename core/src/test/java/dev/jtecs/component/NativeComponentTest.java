package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class NativeComponentTest {
    record Mixed(byte b, boolean z, short s, char c, int i, float f, long l, double d) {}

    record Point(float x, float y) {}

    record Counted(int n) {}

    static final NativeComponent<Mixed> MIXED = Components.registerNative(Mixed.class);
    static final NativeComponent<Point> POINT = Components.registerNative(Point.class, o -> o.transient_(true));

    @Test
    void layoutHasOneColumnPerFieldInDeclarationOrder() {
        ComponentLayout layout = MIXED.layout();
        assertEquals(List.of("b", "z", "s", "c", "i", "f", "l", "d"), layout.fieldNames());
        assertEquals(List.of(PrimitiveKind.BYTE, PrimitiveKind.BOOLEAN, PrimitiveKind.SHORT, PrimitiveKind.CHAR,
                PrimitiveKind.INT, PrimitiveKind.FLOAT, PrimitiveKind.LONG, PrimitiveKind.DOUBLE), layout.fieldKinds());
        assertFalse(layout.heapColumn());
    }

    @Test
    void defaultWithoutFactoryIsAllZero() {
        assertEquals(new Mixed((byte) 0, false, (short) 0, (char) 0, 0, 0f, 0L, 0d), MIXED.newDefault());
        assertFalse(MIXED.hasDefaultFactory());
    }

    @Test
    void defaultFactoryRunsOncePerCall() {
        AtomicInteger calls = new AtomicInteger();
        NativeComponent<Counted> counted = Components.registerNative(Counted.class,
                o -> o.defaults(() -> new Counted(calls.incrementAndGet())));
        assertTrue(counted.hasDefaultFactory());
        Counted a = counted.newDefault();
        Counted b = counted.newDefault();
        assertNotSame(a, b);
        assertEquals(2, calls.get());
        assertEquals(new Counted(2), b);
    }

    @Test
    void fieldHandlesAreTypedAndChecked() {
        assertEquals(0, POINT.floatField("x").field());
        assertEquals(1, POINT.floatField("y").field());
        assertEquals("y", POINT.floatField("y").name());
        assertThrows(IllegalArgumentException.class, () -> POINT.intField("x"));
        assertThrows(IllegalArgumentException.class, () -> POINT.floatField("z"));
        assertEquals(7, MIXED.doubleField("d").field());
        assertEquals(0, MIXED.byteField("b").field());
        assertEquals(1, MIXED.booleanField("z").field());
        assertEquals(2, MIXED.shortField("s").field());
        assertEquals(3, MIXED.charField("c").field());
        assertEquals(4, MIXED.intField("i").field());
        assertEquals(6, MIXED.longField("l").field());
    }

    @Test
    void ofBuildsAConstructedInput() {
        ComponentValue<Point> value = POINT.of(new Point(1, 2));
        assertEquals(POINT, value.component());
        assertEquals(new Point(1, 2), value.value());
        assertTrue(POINT.isTransient());
        assertEquals(Point.class, POINT.valueType());
        assertTrue(POINT.toString().contains(POINT.name()));
    }
}
