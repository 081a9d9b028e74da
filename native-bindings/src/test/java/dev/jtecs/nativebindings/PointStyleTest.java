package dev.jtecs.nativebindings;

import static dev.jtecs.nativebindings.Dots.RATE;
import static dev.jtecs.nativebindings.Dots.VALUE;
import static dev.jtecs.nativebindings.Dots.X;
import static dev.jtecs.nativebindings.Dots.Y;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.LongField;
import dev.jtecs.component.NativeComponent;
import java.util.List;
import org.junit.jupiter.api.Test;

class PointStyleTest {
    record Stamp(long nanos) {}

    static final NativeComponent<Stamp> STAMP = Components.register(Stamp.class, o -> o.name("test.view.Stamp"));

    private static PointStyle style(float colourMin, float colourMax, float halfWidth, float pointSize) {
        return new PointStyle(X, Y, VALUE, null, colourMin, colourMax, 0, 0, halfWidth, 10, pointSize);
    }

    @Test
    void fieldsListEachUploadedFieldOnceInAttributeOrder() {
        assertEquals(List.of(X, Y, VALUE), style(0, 1, 10, 1).fields());
        PointStyle divided = new PointStyle(X, Y, VALUE, RATE, 0, 1, 0, 0, 1, 1, 1);
        assertEquals(List.of(X, Y, VALUE, RATE), divided.fields());
        PointStyle colourIsY = new PointStyle(X, Y, Y, null, 0, 1, 0, 0, 1, 1, 1);
        assertEquals(List.of(X, Y), colourIsY.fields());
    }

    @Test
    void badRangesViewsAndSizesAreRefusedWithTheirValues() {
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class, () -> style(1, 1, 10, 1));
        assertTrue(empty.getMessage().startsWith("colourMin=1.0 colourMax=1.0"), empty.getMessage());
        assertThrows(IllegalArgumentException.class, () -> style(0, Float.NaN, 10, 1));
        assertThrows(IllegalArgumentException.class, () -> style(0, 1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> style(0, 1, Float.POSITIVE_INFINITY, 1));
        assertThrows(IllegalArgumentException.class, () -> style(0, 1, 10, 0.5f));
        assertThrows(IllegalArgumentException.class, () -> style(0, 1, 10, 65));
        assertThrows(NullPointerException.class, () -> new PointStyle(null, Y, VALUE, null, 0, 1, 0, 0, 1, 1, 1));
    }

    @Test
    void longColumnsCannotBeDrawn() {
        LongField nanos = STAMP.longField("nanos");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new PointStyle(X, Y, nanos, null, 0, 1, 0, 0, 1, 1, 1));
        assertTrue(refused.getMessage().contains("is LONG"), refused.getMessage());
    }
}
