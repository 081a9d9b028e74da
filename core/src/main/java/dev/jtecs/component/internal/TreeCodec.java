package dev.jtecs.component.internal;

import dev.jtecs.component.PrimitiveKind;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The automatic snapshot codec of single values, and the detached trees it writes and reads: {@code null},
 * booleans, strings, numbers, lists and string-keyed maps. Primitive fields are numbers and booleans ({@code long}
 * as an exact decimal string; floats and doubles as numbers, with strings for what JSON cannot hold); managed
 * values are strings, boxed primitives, enums (by constant name) or records whose components are all of those (a
 * map by component name, in declaration order). Anything else needs a custom codec, or {@code transient}.
 *
 * <p>It lives with the definitions because they use it ({@code snapshotSave}, {@code snapshotLoad}); the snapshot
 * layer uses it for every value it saves or loads without a custom codec. Every reader names where it was
 * reading ({@code where}) in its {@link IllegalArgumentException}; the snapshot reader turns those into
 * {@code InvalidSnapshotException}s with the same message.
 */
public final class TreeCodec {
    /** The deepest nesting a tree may have: deeper input is refused rather than followed. */
    public static final int MAX_DEPTH = 64;

    private TreeCodec() {
    }

    /** The exception of a value that is not what {@code where} needs. */
    public static IllegalArgumentException bad(String where, String what) {
        return new IllegalArgumentException(where + ": " + what);
    }

    /**
     * A detached copy of a caller's tree (fresh lists and maps, the same leaves).
     *
     * @throws IllegalArgumentException for a value that is not a tree (naming it and {@code where})
     */
    public static Object detach(Object value, String where) {
        return detach(value, where, 0);
    }

    private static Object detach(Object value, String where, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException(where + ": nested deeper than " + MAX_DEPTH + " levels");
        }
        if (value == null || value instanceof Boolean || value instanceof String || value instanceof Integer
                || value instanceof Long || value instanceof Double || value instanceof Float
                || value instanceof Short || value instanceof Byte) {
            return value;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            for (int i = 0; i < list.size(); i++) {
                copy.add(detach(list.get(i), where + "[" + i + "]", depth + 1));
            }
            return copy;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (!(entry.getKey() instanceof String key)) {
                    throw new IllegalArgumentException(where + ": map key " + entry.getKey() + " is not a string");
                }
                copy.put(key, detach(entry.getValue(), where + "." + key, depth + 1));
            }
            return copy;
        }
        throw new IllegalArgumentException(where + ": " + value.getClass().getName() + " is not a snapshot value "
                + "(use null, booleans, strings, numbers, lists and maps with string keys)");
    }

    public static Map<?, ?> map(Object value, String where) {
        if (value instanceof Map<?, ?> map) {
            return map;
        }
        throw bad(where, "expected a map, found " + describe(value));
    }

    public static String string(Object value, String where) {
        if (value instanceof String s) {
            return s;
        }
        throw bad(where, "expected a string, found " + describe(value));
    }

    public static boolean bool(Object value, String where) {
        if (value instanceof Boolean b) {
            return b;
        }
        throw bad(where, "expected a boolean, found " + describe(value));
    }

    /** An integral number (or a decimal string) in {@code [min, max]}. */
    public static long integer(Object value, long min, long max, String where) {
        long result;
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            result = ((Number) value).longValue();
        } else if (value instanceof BigInteger big) {
            if (big.bitLength() > 63) {
                throw bad(where, big + " is outside " + min + ".." + max);
            }
            result = big.longValue();
        } else if (value instanceof BigDecimal decimal) {
            try {
                result = decimal.longValueExact();
            } catch (ArithmeticException e) {
                throw bad(where, decimal + " is not an integer in " + min + ".." + max);
            }
        } else if (value instanceof String s) {
            try {
                result = Long.parseLong(s);
            } catch (NumberFormatException e) {
                throw bad(where, "'" + abbreviate(s) + "' is not a decimal integer");
            }
        } else {
            throw bad(where, "expected an integer, found " + describe(value));
        }
        if (result < min || result > max) {
            throw bad(where, result + " is outside " + min + ".." + max);
        }
        return result;
    }

    /** A double: any number, or one of the strings {@code NaN}, {@code Infinity}, {@code -Infinity}, {@code NaN:<hex bits>}. */
    public static double float64(Object value, String where) {
        if (value instanceof Number number && !(value instanceof BigDecimal)) {
            return number.doubleValue();
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.doubleValue();
        }
        if (value instanceof String s) {
            switch (s) {
                case "NaN" -> {
                    return Double.NaN;
                }
                case "Infinity" -> {
                    return Double.POSITIVE_INFINITY;
                }
                case "-Infinity" -> {
                    return Double.NEGATIVE_INFINITY;
                }
                default -> {
                    if (s.startsWith("NaN:") && s.length() <= 20) {
                        try {
                            double d = Double.longBitsToDouble(Long.parseUnsignedLong(s.substring(4), 16));
                            if (Double.isNaN(d)) {
                                return d;
                            }
                        } catch (NumberFormatException e) {
                            // reported below
                        }
                    }
                }
            }
        }
        throw bad(where, "expected a number, found " + describe(value));
    }

    /** A float, read as {@link #float64} does ({@code NaN:<hex>} holding the float's 32 bits). */
    public static float float32(Object value, String where) {
        if (value instanceof Float f) {
            return f;
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.floatValue();
        }
        if (value instanceof String s && s.startsWith("NaN:") && s.length() <= 12) {
            try {
                float f = Float.intBitsToFloat(Integer.parseUnsignedInt(s.substring(4), 16));
                if (Float.isNaN(f)) {
                    return f;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw bad(where, "'" + s + "' is not a float NaN");
        }
        return (float) float64(value, where);
    }

    /** A float for a tree: the number, or a string for what JSON cannot hold. */
    public static Object floatTree(float f) {
        if (Float.isFinite(f)) {
            return f;
        }
        if (Float.isNaN(f)) {
            int bits = Float.floatToRawIntBits(f);
            return bits == Float.floatToIntBits(Float.NaN) ? "NaN" : "NaN:" + Integer.toHexString(bits);
        }
        return f > 0 ? "Infinity" : "-Infinity";
    }

    /** A double for a tree: the number, or a string for what JSON cannot hold. */
    public static Object doubleTree(double d) {
        if (Double.isFinite(d)) {
            return d;
        }
        if (Double.isNaN(d)) {
            long bits = Double.doubleToRawLongBits(d);
            return bits == Double.doubleToLongBits(Double.NaN) ? "NaN" : "NaN:" + Long.toHexString(bits);
        }
        return d > 0 ? "Infinity" : "-Infinity";
    }

    public static String describe(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String s) {
            return "the string '" + abbreviate(s) + "'";
        }
        if (value instanceof List<?> list) {
            return "a list of " + list.size();
        }
        if (value instanceof Map<?, ?> map) {
            return "a map of " + map.size();
        }
        return value.getClass().getSimpleName() + " " + value;
    }

    public static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }

    // ---------------------------------------------------------------- values

    /** One primitive as it goes into a tree. */
    public static Object encodePrimitive(PrimitiveKind kind, Object boxed) {
        return switch (kind) {
            case BYTE -> (int) (Byte) boxed;
            case BOOLEAN -> boxed;
            case SHORT -> (int) (Short) boxed;
            case CHAR -> (int) (Character) boxed;
            case INT -> boxed;
            case FLOAT -> floatTree((Float) boxed);
            case LONG -> Long.toString((Long) boxed);
            case DOUBLE -> doubleTree((Double) boxed);
        };
    }

    /** One primitive read back from a tree, boxed as its kind's Java type. */
    public static Object decodePrimitive(PrimitiveKind kind, Object tree, String where) {
        return switch (kind) {
            case BYTE -> (byte) integer(tree, Byte.MIN_VALUE, Byte.MAX_VALUE, where);
            case BOOLEAN -> bool(tree, where);
            case SHORT -> (short) integer(tree, Short.MIN_VALUE, Short.MAX_VALUE, where);
            case CHAR -> (char) integer(tree, 0, Character.MAX_VALUE, where);
            case INT -> (int) integer(tree, Integer.MIN_VALUE, Integer.MAX_VALUE, where);
            case FLOAT -> float32(tree, where);
            case LONG -> integer(tree, Long.MIN_VALUE, Long.MAX_VALUE, where);
            case DOUBLE -> float64(tree, where);
        };
    }

    /** The zero of a kind, boxed. */
    public static Object zero(PrimitiveKind kind) {
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
            for (int i = 0; i < parts.length; i++) {
                names[i] = parts[i].getName();
                types[i] = parts[i].getType();
                if (!simple(types[i])) {
                    return new Shape(null, null, null, null, "its component " + names[i] + " has type "
                            + types[i].getName() + ", which the automatic codec does not encode");
                }
                accessors[i] = TypeAccess.accessor(parts[i]);
            }
            if (RecordCodec.slots(types) > RecordCodec.MAX_CONSTRUCTOR_SLOTS) {
                return new Shape(null, null, null, null, "its " + types.length + " components take "
                        + RecordCodec.slots(types) + " parameter slots, more than the "
                        + RecordCodec.MAX_CONSTRUCTOR_SLOTS + " a constructor handle takes");
            }
            return new Shape(names, types, accessors, TypeAccess.constructor(type, types), null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return new Shape(null, null, null, null, type.getName() + " is not accessible (" + TypeAccess.remedy()
                    + "): " + e);
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
    public static String refusal(Class<?> type) {
        if (simple(type)) {
            return null;
        }
        return SHAPES.get(type).refusal();
    }

    /** A managed value as a tree (the type passed {@link #refusal}). */
    public static Object encodeManaged(Object value) {
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
    public static Object decodeManaged(Class<?> type, Object tree, String where) {
        if (tree == null) {
            return null;
        }
        if (type == String.class) {
            return string(tree, where);
        }
        if (type.isEnum()) {
            return enumConstant(type, string(tree, where), where);
        }
        PrimitiveKind kind = boxedKind(type);
        if (kind != null) {
            return decodePrimitive(kind, tree, where);
        }
        Shape shape = SHAPES.get(type);
        if (shape.refusal() != null) {
            throw bad(where, "the automatic codec cannot decode " + type.getName() + ": " + shape.refusal());
        }
        Map<?, ?> fields = map(tree, where);
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
            args[i] = shape.types[i] == String.class ? string(part, at)
                    : shape.types[i].isEnum() ? enumConstant(shape.types[i], string(part, at), at)
                    : decodePrimitive(boxedKind(shape.types[i]), part, at);
        }
        try {
            return shape.constructor.invokeWithArguments(args);
        } catch (Throwable t) {
            throw bad(where, "constructing " + type.getName() + " failed: " + t);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object enumConstant(Class<?> type, String name, String where) {
        try {
            return Enum.valueOf((Class) type, name);
        } catch (IllegalArgumentException e) {
            throw bad(where, "'" + abbreviate(name) + "' is not a constant of " + type.getName());
        }
    }
}
