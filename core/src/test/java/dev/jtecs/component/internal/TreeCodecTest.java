package dev.jtecs.component.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.PrimitiveKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TreeCodecTest {
    enum Mood { CALM, ANGRY }

    /** Every boxed kind, a string and an enum: what the automatic codec encodes field by field. */
    record Boxes(Byte b, Boolean z, Short s, Character c, Integer i, Float f, Long l, Double d, String text,
            Mood mood, float raw) {}

    private static String refusal(org.junit.jupiter.api.function.Executable call) {
        return assertThrows(IllegalArgumentException.class, call).getMessage();
    }

    /** Floats that JSON cannot hold go as strings, NaN payloads included, and come back bit for bit. */
    @Test
    void floatsRoundTripBitForBitThroughTrees() {
        float payloadNaN = Float.intBitsToFloat(0x7fc0_0001);
        for (float f : new float[] {0f, -0f, 1.5f, Float.MIN_VALUE, Float.MAX_VALUE, Float.NaN, payloadNaN,
                Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY}) {
            Object tree = TreeCodec.floatTree(f);
            assertEquals(Float.floatToRawIntBits(f), Float.floatToRawIntBits(TreeCodec.float32(tree, "f")), "" + f);
        }
        assertEquals("NaN", TreeCodec.floatTree(Float.NaN));
        assertEquals("NaN:7fc00001", TreeCodec.floatTree(payloadNaN));
        assertEquals("Infinity", TreeCodec.floatTree(Float.POSITIVE_INFINITY));
        assertEquals("-Infinity", TreeCodec.floatTree(Float.NEGATIVE_INFINITY));
        assertEquals(2.5f, TreeCodec.float32(new BigDecimal("2.5"), "f"));
        assertEquals(2.5f, TreeCodec.float32(2.5d, "f"), "any number");
        assertEquals(Float.POSITIVE_INFINITY, TreeCodec.float32("Infinity", "f"));
        assertEquals("f: 'NaN:0' is not a float NaN", refusal(() -> TreeCodec.float32("NaN:0", "f")));
        assertEquals("f: 'NaN:zz' is not a float NaN", refusal(() -> TreeCodec.float32("NaN:zz", "f")));
        // nine hex digits are more than a float's bits: read as a double's, which these are not a NaN of
        assertEquals("f: expected a number, found the string 'NaN:7fc000011'",
                refusal(() -> TreeCodec.float32("NaN:7fc000011", "f")));
        assertEquals("f: expected a number, found Boolean true", refusal(() -> TreeCodec.float32(true, "f")));
    }

    @Test
    void doublesRoundTripBitForBitThroughTrees() {
        double payloadNaN = Double.longBitsToDouble(0x7ff8_0000_0000_0001L);
        for (double d : new double[] {0d, -0d, Math.PI, Double.MIN_VALUE, Double.NaN, payloadNaN,
                Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            Object tree = TreeCodec.doubleTree(d);
            assertEquals(Double.doubleToRawLongBits(d), Double.doubleToRawLongBits(TreeCodec.float64(tree, "d")));
        }
        assertEquals("NaN:7ff8000000000001", TreeCodec.doubleTree(payloadNaN));
        assertEquals("-Infinity", TreeCodec.doubleTree(Double.NEGATIVE_INFINITY));
        assertEquals(Math.PI, TreeCodec.doubleTree(Math.PI));
        assertEquals(0.1, TreeCodec.float64(new BigDecimal("0.1"), "d"));
        assertEquals(3.0, TreeCodec.float64(3, "d"));
        String maxPayload = "NaN:" + Long.toHexString(0xffff_ffff_ffff_ffffL); // 20 characters: read
        assertTrue(Double.isNaN(TreeCodec.float64(maxPayload, "d")));
        assertTrue(refusal(() -> TreeCodec.float64(maxPayload + "0", "d")).startsWith("d: expected a number"));
        assertEquals("d: expected a number, found the string 'NaN:1'", refusal(() -> TreeCodec.float64("NaN:1", "d")),
                "bits that are no NaN");
        assertTrue(refusal(() -> TreeCodec.float64("NaN:xyz", "d")).startsWith("d: expected a number"));
        assertTrue(refusal(() -> TreeCodec.float64(null, "d")).endsWith("found null"));
    }

    @Test
    void integersAreReadInTheirRangeFromEveryNumberTypeAndDecimalStrings() {
        assertEquals(-128, TreeCodec.integer(-128, -128, 127, "b"), "the bounds are inclusive");
        assertEquals(127, TreeCodec.integer((short) 127, -128, 127, "b"));
        assertEquals("b: 128 is outside -128..127", refusal(() -> TreeCodec.integer(128, -128, 127, "b")));
        assertEquals("b: -129 is outside -128..127", refusal(() -> TreeCodec.integer(-129L, -128, 127, "b")));
        assertEquals(Long.MAX_VALUE, TreeCodec.integer(BigInteger.valueOf(Long.MAX_VALUE), Long.MIN_VALUE,
                Long.MAX_VALUE, "l"));
        assertEquals(Long.MIN_VALUE, TreeCodec.integer(BigInteger.valueOf(Long.MIN_VALUE), Long.MIN_VALUE,
                Long.MAX_VALUE, "l"), "64 bits in two's complement: a bit length of 63");
        BigInteger past = BigInteger.ONE.shiftLeft(63);
        assertEquals("l: " + past + " is outside 0..9", refusal(() -> TreeCodec.integer(past, 0, 9, "l")));
        assertEquals(7, TreeCodec.integer(new BigDecimal("7.000"), 0, 9, "n"));
        assertEquals("n: 7.5 is not an integer in 0..9", refusal(() -> TreeCodec.integer(new BigDecimal("7.5"), 0,
                9, "n")));
        assertEquals(-42, TreeCodec.integer("-42", -100, 100, "s"));
        assertEquals("s: '4x' is not a decimal integer", refusal(() -> TreeCodec.integer("4x", 0, 9, "s")));
        assertEquals("s: expected an integer, found Double 1.0", refusal(() -> TreeCodec.integer(1.0, 0, 9, "s")));
        assertEquals((byte) 3, TreeCodec.integer((byte) 3, 0, 9, "s"));
    }

    @Test
    void everyPrimitiveKindRoundTripsAndHasAZero() {
        Map<PrimitiveKind, Object> samples = Map.of(PrimitiveKind.BYTE, (byte) -5, PrimitiveKind.BOOLEAN, true,
                PrimitiveKind.SHORT, (short) 300, PrimitiveKind.CHAR, 'x', PrimitiveKind.INT, -70_000,
                PrimitiveKind.FLOAT, 1.25f, PrimitiveKind.LONG, 1L << 60, PrimitiveKind.DOUBLE, Math.E);
        for (PrimitiveKind kind : PrimitiveKind.values()) {
            Object tree = TreeCodec.encodePrimitive(kind, samples.get(kind));
            assertEquals(samples.get(kind), TreeCodec.decodePrimitive(kind, tree, "v"), kind.toString());
            assertEquals(kind.javaType(), unboxed(TreeCodec.zero(kind).getClass()), kind.toString());
        }
        assertEquals("1152921504606846976", TreeCodec.encodePrimitive(PrimitiveKind.LONG, 1L << 60),
                "a long as an exact decimal string");
        assertEquals(65_535, TreeCodec.decodePrimitive(PrimitiveKind.CHAR, 65_535, "c").hashCode());
        assertTrue(refusal(() -> TreeCodec.decodePrimitive(PrimitiveKind.CHAR, -1, "c")).contains("outside 0..65535"));
        assertTrue(refusal(() -> TreeCodec.decodePrimitive(PrimitiveKind.BOOLEAN, 1, "z")).contains("a boolean"));
    }

    private static Class<?> unboxed(Class<?> boxed) {
        return java.lang.invoke.MethodType.methodType(boxed).unwrap().returnType();
    }

    /** A record of boxed kinds, a string and an enum becomes a map by component name and comes back equal. */
    @Test
    void aRecordOfBoxedKindsStringsAndEnumsRoundTrips() {
        Boxes value = new Boxes((byte) 1, false, (short) 2, 'q', 3, Float.NaN, 4L, Double.NEGATIVE_INFINITY, "t",
                Mood.ANGRY, -0f);
        assertNull(TreeCodec.refusal(Boxes.class));
        Object tree = TreeCodec.encodeManaged(value);
        assertEquals(List.of("b", "z", "s", "c", "i", "f", "l", "d", "text", "mood", "raw"),
                List.copyOf(((Map<?, ?>) tree).keySet()), "declaration order");
        assertEquals(value, TreeCodec.decodeManaged(Boxes.class, tree, "v"));
        Boxes empty = new Boxes(null, null, null, null, null, null, null, null, null, null, 0f);
        assertEquals(empty, TreeCodec.decodeManaged(Boxes.class, TreeCodec.encodeManaged(empty), "v"));
        for (Object boxed : new Object[] {(byte) 1, true, (short) 2, 'c', 3, 4f, 5L, 6.0, "s", Mood.CALM}) {
            assertEquals(boxed, TreeCodec.decodeManaged(boxed.getClass(), TreeCodec.encodeManaged(boxed), "v"));
        }
        Map<String, Object> older = new LinkedHashMap<>(); // a field added since: its zero, or null
        older.put("text", "old");
        assertEquals(new Boxes(null, null, null, null, null, null, null, null, "old", null, 0f),
                TreeCodec.decodeManaged(Boxes.class, older, "v"));
        assertEquals("v.mood: 'SAD' is not a constant of " + Mood.class.getName(),
                refusal(() -> TreeCodec.decodeManaged(Boxes.class, Map.of("mood", "SAD"), "v")));
    }

    @Test
    void detachingCopiesTheTreeAndRefusesWhatIsNoTreeOrTooDeep() {
        List<Object> list = new ArrayList<>(List.of(1, "a"));
        Object copy = TreeCodec.detach(Map.of("k", list), "t");
        list.add(2);
        assertEquals(Map.of("k", List.of(1, "a")), copy, "a copy, not a view");
        Object nested = 0;
        for (int depth = 0; depth < TreeCodec.MAX_DEPTH; depth++) {
            nested = List.of(nested);
        }
        Object deepest = nested;
        assertEquals(deepest, TreeCodec.detach(deepest, "t"), "as deep as allowed");
        String tooDeep = refusal(() -> TreeCodec.detach(List.of(deepest), "t"));
        assertEquals("t" + "[0]".repeat(TreeCodec.MAX_DEPTH + 1) + ": nested deeper than 64 levels", tooDeep);
        Map<Object, Object> numeric = new LinkedHashMap<>();
        numeric.put(1, "x");
        assertEquals("t[0]: map key 1 is not a string", refusal(() -> TreeCodec.detach(List.of(numeric), "t")));
        assertEquals("t.k: java.lang.Object is not a snapshot value (use null, booleans, strings, numbers, lists "
                + "and maps with string keys)", refusal(() -> TreeCodec.detach(Map.of("k", new Object()), "t")));
    }

    @Test
    void descriptionsNameTheKindAndAbbreviateLongStrings() {
        String forty = "x".repeat(40);
        assertEquals(forty, TreeCodec.abbreviate(forty));
        assertEquals("x".repeat(37) + "...", TreeCodec.abbreviate(forty + "y"));
        assertEquals("a list of 2", TreeCodec.describe(List.of(1, 2)));
        assertEquals("a map of 1", TreeCodec.describe(Map.of("a", 1)));
        assertEquals("the string 'hi'", TreeCodec.describe("hi"));
        assertEquals("Integer 7", TreeCodec.describe(7));
    }
}
