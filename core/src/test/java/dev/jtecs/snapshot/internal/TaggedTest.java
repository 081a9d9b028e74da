package dev.jtecs.snapshot.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.snapshot.InvalidSnapshotException;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The tagged tree form of the binary snapshot's metadata and frames: the exact bytes each value writes, trees
 * read back as written, and every malformed input refused with the byte offset of what is wrong.
 */
class TaggedTest {
    /** The bytes {@link Tagged#write} produced for {@code value}. */
    private static byte[] written(Object value) {
        Tagged.Bytes out = new Tagged.Bytes();
        Tagged.write(out, value);
        return Arrays.copyOf(out.array(), out.size());
    }

    /**
     * The sink doubles as it fills: writing 64 KiB one byte at a time allocates about twice that in all, where a
     * sink grown to exactly what each write needs would copy itself on every write (two gigabytes here).
     */
    @Test
    void aSinkWrittenByteByByteGrowsByDoubling() {
        int n = 1 << 16;
        long bytes = dev.jtecs.testing.Allocations.fewestBytes(2, () -> {
            Tagged.Bytes sink = new Tagged.Bytes();
            for (int i = 0; i < n; i++) {
                sink.put((byte) i);
            }
            assertEquals(n, sink.size());
            assertEquals((byte) (n - 1), sink.array()[n - 1]);
        });
        assertTrue(bytes < 4L * n, bytes + " bytes allocated to write " + n);
    }

    /** Builds input by hand: tags, little-endian words, raw bytes. */
    private static final class In {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        In b(int... values) {
            for (int v : values) {
                bytes.write(v);
            }
            return this;
        }

        In i32(int v) {
            for (int i = 0; i < 4; i++) {
                bytes.write(v >>> (8 * i));
            }
            return this;
        }

        In str(String s) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            i32(utf8.length);
            bytes.writeBytes(utf8);
            return this;
        }

        byte[] done() {
            return bytes.toByteArray();
        }
    }

    private static Object read(byte[] bytes) {
        return Tagged.read(MemorySegment.ofArray(bytes), 0, bytes.length, "t");
    }

    private static String refusal(byte[] bytes) {
        return assertThrows(InvalidSnapshotException.class, () -> read(bytes)).getMessage();
    }

    @Test
    void everyScalarWritesItsTagAndLittleEndianBits() {
        assertArrayEquals(new byte[] {0}, written(null));
        assertArrayEquals(new byte[] {1}, written(false));
        assertArrayEquals(new byte[] {2}, written(true));
        assertArrayEquals(new byte[] {3, 0x44, 0x33, 0x22, 0x11}, written(0x11223344));
        assertArrayEquals(new byte[] {3, (byte) 0xFE, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF}, written((short) -2),
                "a short widens to an int32");
        assertArrayEquals(new byte[] {3, 0x7F, 0, 0, 0}, written((byte) 127), "a byte widens to an int32");
        assertArrayEquals(new byte[] {4, 8, 7, 6, 5, 4, 3, 2, 1}, written(0x0102030405060708L));
        int floatBits = Float.floatToRawIntBits(1.5f);
        assertArrayEquals(new In().b(5).i32(floatBits).done(), written(1.5f));
        long doubleBits = Double.doubleToRawLongBits(-2.25);
        assertArrayEquals(new In().b(6).i32((int) doubleBits).i32((int) (doubleBits >>> 32)).done(), written(-2.25));
        assertArrayEquals(new In().b(7).str("hé").done(), written("hé"));
        assertThrows(IllegalArgumentException.class, () -> written(new Object()));
    }

    @Test
    void listsAndMapsWriteTheirCountThenTheirElementsInOrder() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("b", 1);
        map.put("a", List.of());
        assertArrayEquals(new In().b(8).i32(3).b(0).b(2).b(9).i32(2).str("b").b(3).i32(1).str("a").b(8).i32(0).done(),
                written(Arrays.asList(null, true, map)));
    }

    @Test
    void treesReadBackAsWrittenWithShortsAndBytesAsInts() {
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("n", null);
        inner.put("f", false);
        inner.put("neg", -7L);
        inner.put("nan", Float.intBitsToFloat(0x7FC0_0001));
        inner.put("d", Double.longBitsToDouble(0x7FF8_0000_0000_0003L));
        inner.put("empty", "");
        inner.put("emptyMap", new LinkedHashMap<>());
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("z", List.of(1, (short) 2, (byte) 3, Long.MIN_VALUE, "x"));
        tree.put("a", inner);
        Object back = read(written(tree));
        Map<String, Object> expected = new LinkedHashMap<>(tree);
        expected.put("z", List.of(1, 2, 3, Long.MIN_VALUE, "x"));
        assertEquals(expected, back);
        assertEquals(List.of("z", "a"), new ArrayList<>(((Map<?, ?>) back).keySet()), "the map keeps its order");
        Map<?, ?> readInner = (Map<?, ?>) ((Map<?, ?>) back).get("a");
        assertEquals(0x7FC0_0001, Float.floatToRawIntBits((Float) readInner.get("nan")), "raw float bits");
        assertEquals(0x7FF8_0000_0000_0003L, Double.doubleToRawLongBits((Double) readInner.get("d")));
    }

    @Test
    void theByteSinkGrowsPastItsFirstArrayKeepingEveryByte() {
        List<Object> values = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            values.add((long) i * 0x0101_0101_0101L);
            text.append((char) ('a' + i % 26));
        }
        values.add(text.toString()); // one put of more than the array's doubling
        byte[] bytes = written(values);
        assertEquals(1 + 4 + 300 * 9 + 1 + 4 + 300, bytes.length);
        assertEquals(values, read(bytes));
        Tagged.Bytes one = new Tagged.Bytes();
        byte[] big = new byte[1000];
        Arrays.fill(big, (byte) 9);
        one.putBytes(big); // larger than twice the initial room
        one.put((byte) 1);
        assertEquals(1001, one.size());
        assertEquals(9, one.array()[999]);
        assertEquals(1, one.array()[1000]);
    }

    @Test
    void roomPastTwoGibibytesIsRefusedBeforeAnythingIsAllocatedEvenWhereAnIntWouldWrapAround() {
        Tagged.Bytes sink = new Tagged.Bytes();
        sink.put((byte) 5);
        IllegalStateException tooBig = assertThrows(IllegalStateException.class,
                () -> sink.room(Integer.MAX_VALUE - 16L));
        assertEquals("snapshot metadata exceeds 2 GiB", tooBig.getMessage());
        // a string of 2^31 - 2 characters: its count and bytes are 4 + n, past Integer.MAX_VALUE
        assertThrows(IllegalStateException.class, () -> sink.room(4L + Integer.MAX_VALUE - 2));
        assertEquals(1, sink.size(), "the sink is as it was");
        assertEquals(5, sink.array()[0]);
    }

    @Test
    void aTreeReadsFromAnOffsetInsideALargerSegment() {
        byte[] tree = written(List.of("ab", 5));
        byte[] framed = new byte[tree.length + 10];
        System.arraycopy(tree, 0, framed, 7, tree.length);
        assertEquals(List.of("ab", 5), Tagged.read(MemorySegment.ofArray(framed), 7, tree.length, "t"));
    }

    @Test
    void nestingUpToTheLimitReadsAndOneLevelMoreIsRefused() {
        In ok = new In();
        for (int d = 0; d < Trees.MAX_DEPTH; d++) {
            ok.b(8).i32(1);
        }
        ok.b(0);
        Object value = read(ok.done());
        for (int d = 0; d < Trees.MAX_DEPTH; d++) {
            value = ((List<?>) value).get(0);
        }
        assertEquals(null, value);
        In deep = new In();
        for (int d = 0; d <= Trees.MAX_DEPTH; d++) {
            deep.b(8).i32(1);
        }
        deep.b(0);
        assertEquals("t (byte " + 5 * (Trees.MAX_DEPTH + 1) + "): nested deeper than 64 levels",
                refusal(deep.done()));
    }

    @Test
    void nestingInsideMapsCountsToTheSameLimit() {
        In deep = new In();
        for (int d = 0; d <= Trees.MAX_DEPTH; d++) {
            deep.b(9).i32(1).str("k");
        }
        deep.b(0);
        assertEquals("t (byte " + 10 * (Trees.MAX_DEPTH + 1) + "): nested deeper than 64 levels",
                refusal(deep.done()));
        In ok = new In();
        for (int d = 0; d < Trees.MAX_DEPTH; d++) {
            ok.b(9).i32(1).str("k");
        }
        ok.b(2);
        Object value = read(ok.done());
        for (int d = 0; d < Trees.MAX_DEPTH; d++) {
            value = ((Map<?, ?>) value).get("k");
        }
        assertEquals(true, value);
    }

    @Test
    void truncatedNumbersAndEmptyInputAreRefusedNamingWhatWasLeft() {
        assertEquals("t (byte 0): a value needs 1 bytes, 0 are left (truncated or a hostile length)",
                refusal(new byte[0]));
        assertEquals("t (byte 1): an int32 needs 4 bytes, 3 are left (truncated or a hostile length)",
                refusal(new byte[] {3, 1, 2, 3}));
        assertEquals("t (byte 1): an int64 needs 8 bytes, 7 are left (truncated or a hostile length)",
                refusal(new byte[] {4, 1, 2, 3, 4, 5, 6, 7}));
        assertEquals("t (byte 1): a float32 needs 4 bytes, 0 are left (truncated or a hostile length)",
                refusal(new byte[] {5}));
        assertEquals("t (byte 1): a float64 needs 8 bytes, 4 are left (truncated or a hostile length)",
                refusal(new byte[] {6, 0, 0, 0, 0}));
        assertEquals(3, read(new byte[] {3, 3, 0, 0, 0}), "exactly the bytes an int32 needs");
        assertEquals(3L, read(new byte[] {4, 3, 0, 0, 0, 0, 0, 0, 0}));
    }

    @Test
    void countsAreCheckedAgainstTheBytesLeftBeforeAnythingIsRead() {
        assertEquals("t (byte 5): a list has a negative count -1",
                refusal(new In().b(8).i32(-1).done()));
        assertEquals("t (byte 5): a list of 3 needs 3 bytes, 2 are left (truncated or a hostile length)",
                refusal(new In().b(8).i32(3).b(0, 0).done()));
        assertEquals(Arrays.asList(null, null, null), read(new In().b(8).i32(3).b(0, 0, 0).done()),
                "a list of exactly one byte per element");
        assertEquals(List.of(), read(new In().b(8).i32(0).done()), "an empty list ends its section");
        assertEquals("t (byte 5): a map of 3 needs 15 bytes, 14 are left (truncated or a hostile length)",
                refusal(new In().b(9).i32(3).b(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0).done()));
        Map<String, Object> two = new LinkedHashMap<>();
        two.put("", null);
        two.put("a", null);
        assertEquals(two, read(new In().b(9).i32(2).str("").b(0).str("a").b(0).done()),
                "a map of the least bytes its count allows, an empty key first");
        assertEquals(Map.of(), read(new In().b(9).i32(0).done()));
        assertEquals("t (byte 5): a string has a negative count -5", refusal(new In().b(7).i32(-5).done()));
        assertEquals("t (byte 5): a string of 4 bytes needs 4 bytes, 3 are left (truncated or a hostile length)",
                refusal(new In().b(7).i32(4).b('a', 'b', 'c').done()));
        assertEquals("", read(new In().b(7).i32(0).done()));
        assertEquals("t (byte 1): a string needs 4 bytes, 2 are left (truncated or a hostile length)",
                refusal(new byte[] {7, 0, 0}));
    }

    @Test
    void malformedTreesAreRefusedAtTheOffendingByte() {
        assertEquals("t (byte 5): unknown value tag 10", refusal(new In().b(8).i32(1).b(10).done()));
        assertEquals("t (byte 0): unknown value tag -1", refusal(new byte[] {(byte) 0xFF}));
        assertEquals("t (byte 5): a string is not valid UTF-8",
                refusal(new In().b(7).i32(2).b(0xC3, 0x28).done()));
        assertEquals("t (byte 16): map key 'k' appears twice",
                refusal(new In().b(9).i32(2).str("k").b(1).str("k").b(2).done()));
        assertEquals("t (byte 1): the tree ends at byte 1, 2 bytes before its section does",
                refusal(new byte[] {0, 0, 0}));
    }

    @Test
    void everyAsciiCharacterReadsAsItselfAndOneHighByteTakesTheStrictDecoder() {
        StringBuilder ascii = new StringBuilder();
        for (char c = 0; c < 0x80; c++) {
            ascii.append(c);
        }
        assertEquals(ascii.toString(), read(new In().b(7).str(ascii.toString()).done()));
        assertEquals("plain\u00e9", read(new In().b(7).str("plain\u00e9").done())); // the last byte pair is not ASCII
        assertEquals("t (byte 5): a string is not valid UTF-8", // ASCII up to one lone continuation byte
                refusal(new In().b(7).i32(4).b('a', 'b', 'c', 0x80).done()));
    }

    @Test
    void stringsAreWrittenAsTheirUtf8BytesFromTheFirstCharacterPastAscii() {
        assertArrayEquals(new byte[] {7, 2, 0, 0, 0, 'a', 0x7F}, written("a\u007F"), "ASCII: one byte each");
        assertArrayEquals(new byte[] {7, 3, 0, 0, 0, 'a', (byte) 0xC2, (byte) 0x80}, written("a\u0080"),
                "U+0080, the first character past ASCII, takes two bytes");
        String mixed = "k\u00e9y\uD83D\uDE00z";
        assertArrayEquals(new In().b(7).str(mixed).done(), written(mixed));
        assertEquals(mixed, read(written(mixed)));
        assertEquals(Map.of("\u0080", "\u0080"), read(written(Map.of("\u0080", "\u0080"))), "a key too");
    }

    @Test
    void aStringAfterAStringStartsWhereTheFirstEnded() {
        byte[] bytes = new In().b(8).i32(3).b(7).str("héllo").b(7).str("").b(7).str("z").done();
        assertEquals(List.of("héllo", "", "z"), read(bytes));
    }
}
