package dev.jtecs.mutation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.TagComponent;
import org.junit.jupiter.api.Test;

class PartitionConflictExceptionTest {
    static final TagComponent A = Components.tag("test.conflict.A");
    static final TagComponent B = Components.tag("test.conflict.B");

    @Test
    void namesTheEntityTheDimensionAndBothOperations() {
        PartitionDimension d = PartitionDimension.variants("v", A, B);
        PartitionConflictException e = new PartitionConflictException(5, d,
                PartitionConflictException.describe(A, true), PartitionConflictException.describe(B, true));
        assertEquals(5, e.entity());
        assertSame(d, e.dimension());
        assertTrue(e.getMessage().contains("setTag(test.conflict.B) after setTag(test.conflict.A)"), e.getMessage());
        assertTrue(e.getMessage().contains("dimension v"), e.getMessage());
        assertEquals("unsetTag(test.conflict.A)", PartitionConflictException.describe(A, false));
    }
}
