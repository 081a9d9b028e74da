package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class PrimitiveKindTest {
    @Test
    void sizesMatchTheJavaTypes() {
        assertEquals(Byte.BYTES, PrimitiveKind.BYTE.byteSize());
        assertEquals(1, PrimitiveKind.BOOLEAN.byteSize());
        assertEquals(Short.BYTES, PrimitiveKind.SHORT.byteSize());
        assertEquals(Character.BYTES, PrimitiveKind.CHAR.byteSize());
        assertEquals(Integer.BYTES, PrimitiveKind.INT.byteSize());
        assertEquals(Float.BYTES, PrimitiveKind.FLOAT.byteSize());
        assertEquals(Long.BYTES, PrimitiveKind.LONG.byteSize());
        assertEquals(Double.BYTES, PrimitiveKind.DOUBLE.byteSize());
    }

    @Test
    void ofMapsPrimitiveClassesOnly() {
        for (PrimitiveKind kind : PrimitiveKind.values()) {
            assertEquals(kind, PrimitiveKind.of(kind.javaType()));
        }
        assertNull(PrimitiveKind.of(Integer.class));
        assertNull(PrimitiveKind.of(String.class));
    }
}
