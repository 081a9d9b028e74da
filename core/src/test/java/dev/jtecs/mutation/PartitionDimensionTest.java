package dev.jtecs.mutation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.TagComponent;
import java.util.List;
import org.junit.jupiter.api.Test;

class PartitionDimensionTest {
    static final TagComponent A = Components.tag("test.dimension.A");
    static final TagComponent B = Components.tag("test.dimension.B");
    static final TagComponent C = Components.tag("test.dimension.C");

    @Test
    void aPresenceDimensionHasArityOne() {
        PartitionDimension d = PartitionDimension.presence("p", A);
        assertEquals(1, d.arity());
        assertTrue(d.isPresence());
        assertEquals(1, d.valueOf(A));
        assertEquals(List.of(A), d.tags());
    }

    @Test
    void aMultiVariantDimensionValuesItsTagsByDeclarationOrder() {
        PartitionDimension d = PartitionDimension.variants("v", C, A, B);
        assertEquals(3, d.arity());
        assertFalse(d.isPresence());
        assertEquals(1, d.valueOf(C));
        assertEquals(3, d.valueOf(B));
        assertEquals("v", d.name());
        assertEquals("PartitionDimension[v: [test.dimension.C, test.dimension.A, test.dimension.B]]", d.toString(),
                "what error messages and logs show: the name, then the tags in value order");
    }

    @Test
    void badDeclarationsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> PartitionDimension.variants("v", A));
        assertThrows(IllegalArgumentException.class, () -> PartitionDimension.variants("v", A, A));
        assertThrows(IllegalArgumentException.class, () -> PartitionDimension.presence(" ", A));
        assertThrows(NullPointerException.class, () -> PartitionDimension.variants("v", A, null));
        assertThrows(NullPointerException.class, () -> PartitionDimension.presence("p", null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PartitionDimension.presence("p", A).valueOf(B));
        assertTrue(e.getMessage().contains("test.dimension.B"), e.getMessage());
    }
}
