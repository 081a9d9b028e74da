package dev.jtecs.component;

import java.util.List;

/**
 * How one component occupies an archetype: its native columns (one per primitive field, in declaration order)
 * and whether it has one heap column.
 *
 * @param fieldNames the names of the native columns (record component names; {@code "value"} for scalars)
 * @param fieldKinds the primitive kind of each native column
 * @param heapColumn whether the component has one {@code Object[]} column
 */
public record ComponentLayout(List<String> fieldNames, List<PrimitiveKind> fieldKinds, boolean heapColumn) {
    public static final ComponentLayout NONE = new ComponentLayout(List.of(), List.of(), false);
    public static final ComponentLayout HEAP = new ComponentLayout(List.of(), List.of(), true);

    public ComponentLayout {
        fieldNames = List.copyOf(fieldNames);
        fieldKinds = List.copyOf(fieldKinds);
        if (fieldNames.size() != fieldKinds.size()) {
            throw new IllegalArgumentException("fieldNames=" + fieldNames + " fieldKinds=" + fieldKinds);
        }
    }

    public int nativeColumnCount() {
        return fieldKinds.size();
    }

    /** The index of a native column by field name, or -1. */
    public int indexOf(String fieldName) {
        return fieldNames.indexOf(fieldName);
    }

    static ComponentLayout single(PrimitiveKind kind) {
        return new ComponentLayout(List.of("value"), List.of(kind), false);
    }
}
