package dev.jtecs.snapshot.internal;

import dev.jtecs.component.PrimitiveKind;
import dev.jtecs.component.internal.TreeCodec;
import dev.jtecs.snapshot.InvalidSnapshotException;
import java.util.List;
import java.util.Map;

/**
 * The strict readers the loaders use on detached trees ({@code null}, booleans, strings, numbers, lists,
 * string-keyed maps), and the checks of trees callers hand to a save. Every reader names where it was reading
 * ({@code where}) in its exception, so a bad snapshot says what is wrong and where. The value readers and the
 * automatic codec are {@link TreeCodec}'s (the definitions use them too); here their refusals become
 * {@link InvalidSnapshotException}s with the same message.
 */
final class Trees {
    /** The deepest nesting a tree may have: deeper input is refused rather than followed. */
    static final int MAX_DEPTH = TreeCodec.MAX_DEPTH;

    private Trees() {
    }

    /**
     * A detached copy of a caller's tree (fresh lists and maps, the same leaves).
     *
     * @throws IllegalArgumentException for a value that is not a tree (naming it and {@code where})
     */
    static Object detach(Object value, String where) {
        return TreeCodec.detach(value, where);
    }

    static InvalidSnapshotException bad(String where, String what) {
        return new InvalidSnapshotException(where + ": " + what);
    }

    private static InvalidSnapshotException invalid(IllegalArgumentException e) {
        return new InvalidSnapshotException(e.getMessage(), e);
    }

    static Map<?, ?> map(Object value, String where) {
        if (value instanceof Map<?, ?> map) {
            return map;
        }
        throw bad(where, "expected a map, found " + describe(value));
    }

    static List<?> list(Object value, String where) {
        if (value instanceof List<?> list) {
            return list;
        }
        throw bad(where, "expected a list, found " + describe(value));
    }

    static Object field(Map<?, ?> map, String key, String where) {
        if (!map.containsKey(key)) {
            throw bad(where, "missing '" + key + "'");
        }
        return map.get(key);
    }

    /** {@code map(field(map, key, where), where + "." + key)}, the name put together only for the exception. */
    static Map<?, ?> mapField(Map<?, ?> map, String key, String where) {
        Object value = field(map, key, where);
        return value instanceof Map<?, ?> found ? found : map(value, where + "." + key);
    }

    /** {@code list(field(map, key, where), where + "." + key)}, the name put together only for the exception. */
    static List<?> listField(Map<?, ?> map, String key, String where) {
        Object value = field(map, key, where);
        return value instanceof List<?> found ? found : list(value, where + "." + key);
    }

    /** {@code string(field(map, key, where), where + "." + key)}, the name put together only for the exception. */
    static String stringField(Map<?, ?> map, String key, String where) {
        Object value = field(map, key, where);
        return value instanceof String found ? found : string(value, where + "." + key);
    }

    static String string(Object value, String where) {
        if (value instanceof String s) {
            return s;
        }
        throw bad(where, "expected a string, found " + describe(value));
    }

    static boolean bool(Object value, String where) {
        if (value instanceof Boolean b) {
            return b;
        }
        throw bad(where, "expected a boolean, found " + describe(value));
    }

    /** An integral number (or a decimal string) in {@code [min, max]}. */
    static long integer(Object value, long min, long max, String where) {
        try {
            return TreeCodec.integer(value, min, max, where);
        } catch (IllegalArgumentException e) {
            throw invalid(e);
        }
    }

    static int int32(Object value, String where) {
        return (int) integer(value, Integer.MIN_VALUE, Integer.MAX_VALUE, where);
    }

    /** A signed or unsigned 32-bit word, normalized to a signed {@code int}. */
    static int word32(Object value, String where) {
        return (int) integer(value, Integer.MIN_VALUE, 0xFFFF_FFFFL, where);
    }

    /** A double: any number, or one of the strings {@code NaN}, {@code Infinity}, {@code -Infinity}, {@code NaN:<hex bits>}. */
    static double float64(Object value, String where) {
        try {
            return TreeCodec.float64(value, where);
        } catch (IllegalArgumentException e) {
            throw invalid(e);
        }
    }

    /** One primitive of a saved column, boxed as its kind's Java type. */
    static Object decodePrimitive(PrimitiveKind kind, Object tree, String where) {
        try {
            return TreeCodec.decodePrimitive(kind, tree, where);
        } catch (IllegalArgumentException e) {
            throw invalid(e);
        }
    }

    /** A saved value of {@code type} read back by the automatic codec. */
    static Object decodeManaged(Class<?> type, Object tree, String where) {
        try {
            return TreeCodec.decodeManaged(type, tree, where);
        } catch (IllegalArgumentException e) {
            throw invalid(e);
        }
    }

    static String describe(Object value) {
        return TreeCodec.describe(value);
    }

    static String abbreviate(String s) {
        return TreeCodec.abbreviate(s);
    }
}
