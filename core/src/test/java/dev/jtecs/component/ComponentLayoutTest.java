package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ComponentLayoutTest {
    @Test
    void indexOfFindsFieldsByName() {
        ComponentLayout layout = new ComponentLayout(List.of("x", "y"), List.of(PrimitiveKind.FLOAT,
                PrimitiveKind.FLOAT), false);
        assertEquals(1, layout.indexOf("y"));
        assertEquals(-1, layout.indexOf("z"));
        assertEquals(2, layout.nativeColumnCount());
    }

    @Test
    void listsAreCopiedAndMustAgree() {
        List<String> names = new ArrayList<>(List.of("a"));
        ComponentLayout layout = new ComponentLayout(names, List.of(PrimitiveKind.INT), false);
        names.add("b");
        assertEquals(List.of("a"), layout.fieldNames());
        assertThrows(IllegalArgumentException.class,
                () -> new ComponentLayout(List.of("a", "b"), List.of(PrimitiveKind.INT), false));
    }

    @Test
    void sharedLayouts() {
        assertEquals(0, ComponentLayout.NONE.nativeColumnCount());
        assertEquals(true, ComponentLayout.HEAP.heapColumn());
        assertEquals(List.of("value"), ComponentLayout.single(PrimitiveKind.LONG).fieldNames());
    }
}
