package dev.jtecs.snapshot.internal;

import dev.jtecs.component.PrimitiveKind;
import dev.jtecs.component.internal.RecordCodec;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The automatic codecs: primitive fields (numbers and booleans; {@code long} as an exact decimal string, floats
 * and doubles as numbers, with strings for what JSON cannot hold), and managed values that are strings, boxed
 * primitives, enums or records whose components are all of those (a map by component name, in declaration
 * order). Anything else needs a custom codec, or {@code transient}.
 */
final class Codecs {
    private Codecs() {
    }

    /** One primitive as it goes into a tree. */
    static Object encodePrimitive(PrimitiveKind kind, Object boxed) {
        return switch (kind) {
            case BYTE -> (int) (Byte) boxed;
            case BOOLEAN -> boxed;
            case SHORT -> (int) (Short) boxed;
            case CHAR -> (int) (Character) boxed;
            case INT -> boxed;
            case FLOAT -> Trees.floatTree((Float) boxed);
            case LONG -> Long.toString((Long) boxed);
            case DOUBLE -> Trees.doubleTree((Double) boxed);
        };
    }

    /** One primitive read back from a tree, boxed as its kind's Java type. */
    static Object decodePrimitive(PrimitiveKind kind, Object tree, String where) {
        return switch (kind) {
            case BYTE -> (byte) Trees.integer(tree, Byte.MIN_VALUE, Byte.MAX_VALUE, where);
            case BOOLEAN -> Trees.bool(tree, where);
            case SHORT -> (short) Trees.integer(tree, Short.MIN_VALUE, Short.MAX_VALUE, where);
            case CHAR -> (char) Trees.integer(tree, 0, Character.MAX_VALUE, where);
            case INT -> (int) Trees.integer(tree, Integer.MIN_VALUE, Integer.MAX_VALUE, where);
            case FLOAT -> Trees.float32(tree, where);
            case LONG -> Trees.integer(tree, Long.MIN_VALUE, Long.MAX_VALUE, where);
            case DOUBLE -> Trees.float64(tree, where);
        };
    }

    /** The zero of a kind, boxed. */
    static Object zero(PrimitiveKind kind) {
        return switch (kind) {
            case BYTE -> (byte) 0;
            case BOOLEAN -> false;
            case SHORT -> (short) 0;
            case CHAR -> (char) 0;
            case INT -> 0;
            case FLOAT -> 0f;
            case LONG -> 0L;
            case DOUBLE -> 0d;
        };
    }

    // ---------------------------------------------------------------- managed values

    /** How the automatic codec sees a class: {@code null} shape with a reason when it cannot encode it. */
    private record Shape(String[] names, Class<?>[] types, MethodHandle[] accessors, MethodHandle constructor,
            String refusal) {}

    private static final ClassValue<Shape> SHAPES = new ClassValue<>() {
        @Override
        protected Shape computeValue(Class<?> type) {
            return shape(type);
        }
    };

    private static Shape shape(Class<?> type) {
        if (!type.isRecord()) {
            return new Shape(null, null, null, null, type.getName() + " is not a record");
        }
        RecordComponent[] parts = type.getRecordComponents();
        String[] names = new String[parts.length];
        Class<?>[] types = new Class<?>[parts.length];
        MethodHandle[] accessors = new MethodHandle[parts.length];
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            for (int i = 0; i < parts.length; i++) {
                names[i] = parts[i].getName();
                types[i] = parts[i].getType();
                if (!simple(types[i])) {
                    return new Shape(null, null, null, null, "its component " + names[i] + " has type "
                            + types[i].getName() + ", which the automatic codec does not encode");
                }
                java.lang.reflect.Method accessor = parts[i].getAccessor();
                accessor.setAccessible(true);
                accessors[i] = lookup.unreflect(accessor);
            }
            if (RecordCodec.slots(types) > RecordCodec.MAX_CONSTRUCTOR_SLOTS) {
                return new Shape(null, null, null, null, "its " + types.length + " components take "
                        + RecordCodec.slots(types) + " parameter slots, more than the "
                        + RecordCodec.MAX_CONSTRUCTOR_SLOTS + " a constructor handle takes");
            }
            Constructor<?> ctor = type.getDeclaredConstructor(types);
            ctor.setAccessible(true);
            return new Shape(names, types, accessors, lookup.unreflectConstructor(ctor), null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return new Shape(null, null, null, null, type.getName() + " is not accessible (in a named module, open "
                    + "its package to dev.jtecs.core): " + e);
        }
    }

    private static boolean simple(Class<?> type) {
        return type.isPrimitive() || type == String.class || type.isEnum() || boxedKind(type) != null;
    }

    private static PrimitiveKind boxedKind(Class<?> type) {
        if (type.isPrimitive()) {
            return PrimitiveKind.of(type);
        }
        if (type == Byte.class) {
            return PrimitiveKind.BYTE;
        }
        if (type == Boolean.class) {
            return PrimitiveKind.BOOLEAN;
        }
        if (type == Short.class) {
            return PrimitiveKind.SHORT;
        }
        if (type == Character.class) {
            return PrimitiveKind.CHAR;
        }
        if (type == Integer.class) {
            return PrimitiveKind.INT;
        }
        if (type == Float.class) {
            return PrimitiveKind.FLOAT;
        }
        if (type == Long.class) {
            return PrimitiveKind.LONG;
        }
        if (type == Double.class) {
            return PrimitiveKind.DOUBLE;
        }
        return null;
    }

    /**
     * Why the automatic codec cannot encode values of {@code type}, or {@code null} when it can (a string, a boxed
     * primitive, an enum, or a record of those and primitives).
     */
    static String refusal(Class<?> type) {
        if (simple(type)) {
            return null;
        }
        return SHAPES.get(type).refusal();
    }

    /** A managed value as a tree (the type passed {@link #refusal}). */
    static Object encodeManaged(Object value) {
        if (value == null) {
            return null;
        }
        Class<?> type = value.getClass();
        if (value instanceof String) {
            return value;
        }
        if (type.isEnum()) {
            return ((Enum<?>) value).name();
        }
        PrimitiveKind kind = boxedKind(type);
        if (kind != null) {
            return encodePrimitive(kind, value);
        }
        Shape shape = SHAPES.get(type);
        Map<String, Object> fields = new LinkedHashMap<>();
        for (int i = 0; i < shape.names.length; i++) {
            Object part;
            try {
                part = shape.accessors[i].invoke(value);
            } catch (Throwable t) {
                throw new IllegalStateException("reading " + type.getName() + "." + shape.names[i] + ": " + t, t);
            }
            fields.put(shape.names[i], encodeSimple(shape.types[i], part));
        }
        return fields;
    }

    private static Object encodeSimple(Class<?> type, Object part) {
        if (part == null) {
            return null;
        }
        if (type == String.class) {
            return part;
        }
        if (type.isEnum()) {
            return ((Enum<?>) part).name();
        }
        return encodePrimitive(boxedKind(type), part);
    }

    /** A managed value of {@code type} read back from a tree. */
    static Object decodeManaged(Class<?> type, Object tree, String where) {
        if (tree == null) {
            return null;
        }
        if (type == String.class) {
            return Trees.string(tree, where);
        }
        if (type.isEnum()) {
            return enumConstant(type, Trees.string(tree, where), where);
        }
        PrimitiveKind kind = boxedKind(type);
        if (kind != null) {
            return decodePrimitive(kind, tree, where);
        }
        Shape shape = SHAPES.get(type);
        if (shape.refusal() != null) {
            throw Trees.bad(where, "the automatic codec cannot decode " + type.getName() + ": " + shape.refusal());
        }
        Map<?, ?> fields = Trees.map(tree, where);
        Object[] args = new Object[shape.names.length];
        for (int i = 0; i < args.length; i++) {
            String at = where + "." + shape.names[i];
            Object part = fields.get(shape.names[i]);
            if (part == null) {
                if (shape.types[i].isPrimitive()) {
                    args[i] = zero(PrimitiveKind.of(shape.types[i])); // a field added since: its zero
                }
                continue;
            }
            args[i] = shape.types[i] == String.class ? Trees.string(part, at)
                    : shape.types[i].isEnum() ? enumConstant(shape.types[i], Trees.string(part, at), at)
                    : decodePrimitive(boxedKind(shape.types[i]), part, at);
        }
        try {
            return shape.constructor.invokeWithArguments(args);
        } catch (Throwable t) {
            throw Trees.bad(where, "constructing " + type.getName() + " failed: " + t);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object enumConstant(Class<?> type, String name, String where) {
        try {
            return Enum.valueOf((Class) type, name);
        } catch (IllegalArgumentException e) {
            throw Trees.bad(where, "'" + Trees.abbreviate(name) + "' is not a constant of " + type.getName());
        }
    }
}
