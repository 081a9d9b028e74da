package dev.jtecs.snapshot.internal;

import dev.jtecs.snapshot.InvalidSnapshotException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Detached trees: the values snapshots carry ({@code null}, booleans, strings, numbers, lists, string-keyed maps),
 * their checks, and the strict readers the loaders use on them. Every reader names where it was reading
 * ({@code where}) in its exception, so a bad snapshot says what is wrong and where.
 */
final class Trees {
    /** The deepest nesting a tree may have: deeper input is refused rather than followed. */
    static final int MAX_DEPTH = 64;

    private Trees() {
    }

    /**
     * A detached copy of a caller's tree (fresh lists and maps, the same leaves).
     *
     * @throws IllegalArgumentException for a value that is not a tree (naming it and {@code where})
     */
    static Object detach(Object value, String where) {
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

    static InvalidSnapshotException bad(String where, String what) {
        return new InvalidSnapshotException(where + ": " + what);
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

    static int int32(Object value, String where) {
        return (int) integer(value, Integer.MIN_VALUE, Integer.MAX_VALUE, where);
    }

    /** A signed or unsigned 32-bit word, normalized to a signed {@code int}. */
    static int word32(Object value, String where) {
        return (int) integer(value, Integer.MIN_VALUE, 0xFFFF_FFFFL, where);
    }

    /** A double: any number, or one of the strings {@code NaN}, {@code Infinity}, {@code -Infinity}, {@code NaN:<hex bits>}. */
    static double float64(Object value, String where) {
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
    static float float32(Object value, String where) {
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
    static Object floatTree(float f) {
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
    static Object doubleTree(double d) {
        if (Double.isFinite(d)) {
            return d;
        }
        if (Double.isNaN(d)) {
            long bits = Double.doubleToRawLongBits(d);
            return bits == Double.doubleToLongBits(Double.NaN) ? "NaN" : "NaN:" + Long.toHexString(bits);
        }
        return d > 0 ? "Infinity" : "-Infinity";
    }

    static String describe(Object value) {
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

    static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }
}
