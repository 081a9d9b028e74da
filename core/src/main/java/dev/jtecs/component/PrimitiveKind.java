package dev.jtecs.component;

/** The primitive type of one native column, with its size in bytes. Booleans are stored as one byte, 0 or 1. */
public enum PrimitiveKind {
    BYTE(1, byte.class),
    BOOLEAN(1, boolean.class),
    SHORT(2, short.class),
    CHAR(2, char.class),
    INT(4, int.class),
    FLOAT(4, float.class),
    LONG(8, long.class),
    DOUBLE(8, double.class);

    private final int byteSize;
    private final Class<?> javaType;

    PrimitiveKind(int byteSize, Class<?> javaType) {
        this.byteSize = byteSize;
        this.javaType = javaType;
    }

    public int byteSize() {
        return byteSize;
    }

    public Class<?> javaType() {
        return javaType;
    }

    /** The kind for a primitive class, or {@code null} for any other class. */
    public static PrimitiveKind of(Class<?> type) {
        for (PrimitiveKind kind : values()) {
            if (kind.javaType == type) {
                return kind;
            }
        }
        return null;
    }
}
