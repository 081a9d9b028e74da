package dev.jtecs.snapshot.internal;

import dev.jtecs.snapshot.InvalidSnapshotException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The binary form of a detached tree: one tag byte per value, little-endian fixed-width numbers, counted
 * strings, lists and maps.
 *
 * <pre>
 *   0 null   1 false   2 true   3 int32   4 int64   5 float32   6 float64
 *   7 string: u32 byte length, UTF-8        8 list: u32 count, values        9 map: u32 count, (key string, value)*
 * </pre>
 *
 * <p>Reading is defensive: every length and count is checked against the bytes left before anything is
 * allocated (a count can never ask for more elements than bytes remain), lists and maps are pre-sized for at
 * most {@link #PRESIZE} elements and grow as their elements are actually read, nesting is bounded, strings must
 * be valid UTF-8, map keys distinct, and the tree must end exactly where its section ends.
 */
final class Tagged {
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private static final byte NULL = 0;
    private static final byte FALSE = 1;
    private static final byte TRUE = 2;
    private static final byte INT32 = 3;
    private static final byte INT64 = 4;
    private static final byte FLOAT32 = 5;
    private static final byte FLOAT64 = 6;
    private static final byte STRING = 7;
    private static final byte LIST = 8;
    private static final byte MAP = 9;
    /** The most elements a list or map is sized for before its elements are read. */
    static final int PRESIZE = 1 << 12;

    private Tagged() {
    }

    /** A growable little-endian byte sink on the heap. */
    static final class Bytes {
        private byte[] data = new byte[256];
        private int size;

        int size() {
            return size;
        }

        byte[] array() {
            return data;
        }

        void room(long more) {
            long needed = size + more; // in long: a string near 2^31 characters must not wrap around
            if (needed > data.length) {
                if (needed > Integer.MAX_VALUE - 16) {
                    throw new IllegalStateException("snapshot metadata exceeds 2 GiB");
                }
                data = Arrays.copyOf(data, (int) Math.min(Math.max(needed, (long) data.length * 2),
                        Integer.MAX_VALUE - 16));
            }
        }

        void put(byte b) {
            room(1);
            data[size++] = b;
        }

        void putInt(int v) {
            room(4);
            for (int i = 0; i < 4; i++) {
                data[size++] = (byte) (v >>> (8 * i));
            }
        }

        void putLong(long v) {
            room(8);
            for (int i = 0; i < 8; i++) {
                data[size++] = (byte) (v >>> (8 * i));
            }
        }

        void putBytes(byte[] bytes) {
            room(bytes.length);
            System.arraycopy(bytes, 0, data, size, bytes.length);
            size += bytes.length;
        }
    }

    /**
     * Appends one tree (already checked with {@link Trees#detach}, or built by the engine). The kinds are tested
     * most common first (a save writes mostly strings, maps and lists), with plain {@code instanceof} tests: a
     * pattern {@code switch} over these types goes through a bootstrapped type switch on every value.
     */
    static void write(Bytes out, Object value) {
        if (value instanceof String s) {
            out.put(STRING);
            writeString(out, s);
        } else if (value instanceof Map<?, ?> map) {
            out.put(MAP);
            out.putInt(map.size());
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                writeString(out, (String) entry.getKey());
                write(out, entry.getValue());
            }
        } else if (value instanceof List<?> list) {
            out.put(LIST);
            out.putInt(list.size());
            for (Object element : list) {
                write(out, element);
            }
        } else if (value instanceof Integer i) {
            out.put(INT32);
            out.putInt(i);
        } else if (value instanceof Long l) {
            out.put(INT64);
            out.putLong(l);
        } else if (value instanceof Boolean b) {
            out.put(b ? TRUE : FALSE);
        } else if (value instanceof Double d) {
            out.put(FLOAT64);
            out.putLong(Double.doubleToRawLongBits(d));
        } else if (value instanceof Float f) {
            out.put(FLOAT32);
            out.putInt(Float.floatToRawIntBits(f));
        } else if (value instanceof Short || value instanceof Byte) {
            out.put(INT32); // widened, as the reader gives them back
            out.putInt(((Number) value).intValue());
        } else if (value == null) {
            out.put(NULL);
        } else {
            throw new IllegalArgumentException(value.getClass().getName() + " is not a snapshot value");
        }
    }

    /** A counted UTF-8 string; an ASCII one (names, keys) is copied in character by character, with no array. */
    private static void writeString(Bytes out, String s) {
        int n = s.length();
        out.room(4L + n);
        byte[] data = out.data;
        int at = out.size + 4;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) { // not ASCII: its UTF-8 bytes, counted, replace the partial copy
                byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
                out.putInt(utf8.length);
                out.putBytes(utf8);
                return;
            }
            data[at + i] = (byte) c;
        }
        out.putInt(n);
        out.size += n;
    }

    /**
     * Reads the one tree that fills {@code segment[offset, offset + length)} exactly.
     *
     * @throws InvalidSnapshotException naming {@code where} and the byte offset of what is wrong
     */
    static Object read(MemorySegment segment, long offset, long length, String where) {
        Reader reader = new Reader(segment, offset, offset + length, where);
        Object value = reader.value(0);
        if (reader.position != reader.end) {
            throw reader.bad("the tree ends at byte " + reader.position + ", " + (reader.end - reader.position)
                    + " bytes before its section does");
        }
        return value;
    }

    private static final class Reader {
        final MemorySegment segment;
        final long end;
        final String where;
        long position;

        Reader(MemorySegment segment, long position, long end, String where) {
            this.segment = segment;
            this.position = position;
            this.end = end;
            this.where = where;
        }

        InvalidSnapshotException bad(String what) {
            return new InvalidSnapshotException(where + " (byte " + position + "): " + what);
        }

        void need(long bytes, String what) {
            if (bytes < 0 || end - position < bytes) {
                throw bad(what + " needs " + bytes + " bytes, " + (end - position) + " are left (truncated or a "
                        + "hostile length)");
            }
        }

        int count(String what) {
            need(4, what);
            int n = segment.get(INT, position);
            position += 4;
            if (n < 0) {
                throw bad(what + " has a negative count " + n);
            }
            return n;
        }

        Object value(int depth) {
            if (depth > Trees.MAX_DEPTH) {
                throw bad("nested deeper than " + Trees.MAX_DEPTH + " levels");
            }
            need(1, "a value");
            byte tag = segment.get(ValueLayout.JAVA_BYTE, position++);
            switch (tag) {
                case NULL:
                    return null;
                case FALSE:
                    return Boolean.FALSE;
                case TRUE:
                    return Boolean.TRUE;
                case INT32: {
                    need(4, "an int32");
                    int v = segment.get(INT, position);
                    position += 4;
                    return v;
                }
                case INT64: {
                    need(8, "an int64");
                    long v = segment.get(LONG, position);
                    position += 8;
                    return v;
                }
                case FLOAT32: {
                    need(4, "a float32");
                    float v = Float.intBitsToFloat(segment.get(INT, position));
                    position += 4;
                    return v;
                }
                case FLOAT64: {
                    need(8, "a float64");
                    double v = Double.longBitsToDouble(segment.get(LONG, position));
                    position += 8;
                    return v;
                }
                case STRING:
                    return string();
                case LIST: {
                    int n = count("a list");
                    if (n > end - position) { // every element takes at least one byte
                        need(n, "a list of " + n); // throws
                    }
                    // a reference per element is several bytes: pre-size a bounded part, grow past it as read
                    List<Object> list = new ArrayList<>(Math.min(n, PRESIZE));
                    for (int i = 0; i < n; i++) {
                        list.add(value(depth + 1));
                    }
                    return list;
                }
                case MAP: {
                    int n = count("a map");
                    if (5L * n > end - position) { // a key's length and a value's tag at least
                        need(5L * n, "a map of " + n); // throws
                    }
                    Map<String, Object> map = new LinkedHashMap<>(Math.min(n, PRESIZE) * 2);
                    for (int i = 0; i < n; i++) {
                        String key = string();
                        if (map.containsKey(key)) {
                            throw bad("map key '" + Trees.abbreviate(key) + "' appears twice");
                        }
                        map.put(key, value(depth + 1));
                    }
                    return map;
                }
                default:
                    position--;
                    throw bad("unknown value tag " + tag);
            }
        }

        String string() {
            int n = count("a string");
            if (n > end - position) {
                need(n, "a string of " + n + " bytes"); // throws: the message is made only then
            }
            byte[] utf8 = new byte[n];
            MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, position, utf8, 0, n);
            // The JDK's decoder replaces malformed input rather than refusing it, but a byte at or above 0x80 either
            // joins others into one character (fewer characters than bytes) or becomes U+FFFD: as many characters
            // as bytes and no U+FFFD means every byte was ASCII, and the string is exact. Anything else is decoded
            // again strictly. (For an all-Latin-1 string the search for U+FFFD answers at once.)
            String s = new String(utf8, StandardCharsets.UTF_8);
            if (s.length() != n || s.indexOf('\uFFFD') >= 0) {
                s = strictUtf8(utf8);
            }
            position += n;
            return s;
        }

        /** Decodes bytes that are not all ASCII, refusing malformed input instead of replacing it. */
        private String strictUtf8(byte[] utf8) {
            try {
                return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(java.nio.ByteBuffer.wrap(utf8))
                        .toString();
            } catch (CharacterCodingException e) {
                throw bad("a string is not valid UTF-8");
            }
        }
    }
}
