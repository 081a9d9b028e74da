package dev.jtecs.random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class Xoshiro128Test {
    /** The reference C implementation's outputs for state {1, 2, 3, 4} (checked against it, as signed ints). */
    private static final int[] REFERENCE_1234 = {11520, 0, 5927040, 70819200, 2031721883, 1637235492, 1287239034,
        -560106447};

    private static long unsigned(int x) {
        return x & 0xFFFF_FFFFL;
    }

    @Test
    void matchesTheReferenceAlgorithmFromState1234() {
        Xoshiro128 generator = Xoshiro128.ofState(1, 2, 3, 4);
        for (int expected : REFERENCE_1234) {
            assertEquals(expected, generator.nextInt());
        }
        assertArrayEquals(new int[] {857776784, -337879523, -1866189288, -457953528}, generator.state());
    }

    @Test
    void firstOutputFollowsTheScramblerByHand() {
        // result = rotl(s1 * 5, 7) * 9 with s1 = 2: rotl(10, 7) = 1280, times 9 = 11520
        assertEquals(Integer.rotateLeft(2 * 5, 7) * 9, Xoshiro128.ofState(1, 2, 3, 4).nextInt());
        assertEquals(11520, Integer.rotateLeft(2 * 5, 7) * 9);
    }

    @Test
    void seedingExpandsTwoSplitMix64Values() {
        // SplitMix64 from 0 first yields 0xE220A8397B1DCDAF: low word 0x7B1DCDAF = 2065550767, high 0xE220A839
        assertArrayEquals(new int[] {2065550767, -501176263, -1581685260, 1853398634}, new Xoshiro128(0).state());
        Xoshiro128 seeded = new Xoshiro128(42);
        assertArrayEquals(new int[] {803958421, -1109970394, -1301876477, 686809907}, seeded.state());
        assertArrayEquals(new int[] {1776835114, -129762608, 17111135, -1977672026},
                IntStream.range(0, 4).map(i -> seeded.nextInt()).toArray());
    }

    @Test
    void reseedRestartsTheSequence() {
        Xoshiro128 generator = new Xoshiro128(7);
        int first = generator.nextInt();
        generator.nextInt();
        generator.reseed(7);
        assertEquals(first, generator.nextInt());
    }

    @Test
    void nextLongIsTwoOutputsHighWordFirst() {
        Xoshiro128 generator = new Xoshiro128(3);
        Xoshiro128 raw = generator.copy();
        long expected = ((long) raw.nextInt() << 32) | unsigned(raw.nextInt());
        assertEquals(expected, generator.nextLong());
        assertArrayEquals(raw.state(), generator.state());
    }

    @Test
    void floatsTakeTheTop24BitsOfOneOutput() {
        Xoshiro128 generator = Xoshiro128.ofState(1, 2, 3, 4);
        for (int raw : REFERENCE_1234) {
            float value = generator.nextFloat();
            assertEquals((raw >>> 8) / (float) (1 << 24), value);
            assertTrue(value >= 0f && value < 1f, "value=" + value);
        }
    }

    @Test
    void floatsNeverReachOne() {
        // the largest possible output, all ones, must still land below 1
        assertTrue((0xFFFF_FFFF >>> 8) * 0x1.0p-24f < 1f);
        assertTrue((((long) (0xFFFF_FFFF >>> 6) << 27) | (0xFFFF_FFFF >>> 5)) * 0x1.0p-53 < 1.0);
    }

    @Test
    void doublesTake26And27BitsOfTwoOutputs() {
        Xoshiro128 generator = Xoshiro128.ofState(1, 2, 3, 4);
        for (int i = 0; i < REFERENCE_1234.length; i += 2) {
            long bits = ((long) (REFERENCE_1234[i] >>> 6) << 27) | (REFERENCE_1234[i + 1] >>> 5);
            assertEquals(bits / (double) (1L << 53), generator.nextDouble());
        }
    }

    @Test
    void booleansAreTheTopBit() {
        Xoshiro128 generator = Xoshiro128.ofState(1, 2, 3, 4);
        for (int raw : REFERENCE_1234) {
            assertEquals(raw < 0, generator.nextBoolean());
        }
    }

    /** Lemire's method spelled out independently: accept the high word unless the low word is below 2^32 mod r. */
    private static int referenceBounded(Xoshiro128 raw, long range) {
        long threshold = (1L << 32) % range;
        while (true) {
            long product = unsigned(raw.nextInt()) * range;
            if ((product & 0xFFFF_FFFFL) >= threshold) {
                return (int) (product >>> 32);
            }
        }
    }

    @Test
    void boundedDrawsMatchLemiresMethodDrawForDraw() {
        long seed = 0x5EEDL;
        System.out.println("Xoshiro128Test.boundedDrawsMatchLemiresMethodDrawForDraw seed=" + seed);
        Xoshiro128 ranges = new Xoshiro128(seed);
        Xoshiro128 generator = new Xoshiro128(seed + 1);
        Xoshiro128 reference = generator.copy();
        long[] special = {1, 2, 3, 7, (1L << 31) + 1, (1L << 32) - 1, 1000};
        for (long range : special) {
            for (int i = 0; i < 200; i++) {
                int max = (int) (Integer.MIN_VALUE + range - 1);
                assertEquals(referenceBounded(reference, range),
                        generator.nextIntInclusive(Integer.MIN_VALUE, max) - Integer.MIN_VALUE, "range=" + range);
            }
        }
        for (int i = 0; i < 5000; i++) {
            int bound = 1 + (ranges.nextInt() >>> 1);
            int value = generator.nextInt(bound);
            assertEquals(referenceBounded(reference, bound), value, "bound=" + bound);
            assertTrue(value >= 0 && value < bound, "value=" + value + " bound=" + bound);
        }
        assertArrayEquals(reference.state(), generator.state(), "same number of outputs consumed");
    }

    @Test
    void rangesCoverTheirEndsAndOnlyThem() {
        Xoshiro128 generator = new Xoshiro128(11);
        int[] seen = new int[5];
        for (int i = 0; i < 1000; i++) {
            int value = generator.nextIntInclusive(-2, 2);
            assertTrue(value >= -2 && value <= 2, "value=" + value);
            seen[value + 2]++;
            int exclusive = generator.nextInt(10, 13);
            assertTrue(exclusive >= 10 && exclusive < 13, "exclusive=" + exclusive);
        }
        for (int count : seen) {
            assertTrue(count > 150 && count < 250, Arrays.toString(seen));
        }
        assertEquals(5, generator.nextIntInclusive(5, 5));
        int extreme = generator.nextInt(Integer.MIN_VALUE, Integer.MAX_VALUE);
        assertTrue(extreme < Integer.MAX_VALUE);
    }

    @Test
    void theFullIntRangeIsOneRawOutput() {
        Xoshiro128 generator = new Xoshiro128(5);
        Xoshiro128 raw = generator.copy();
        for (int i = 0; i < 10; i++) {
            assertEquals(Integer.MIN_VALUE + raw.nextInt(),
                    generator.nextIntInclusive(Integer.MIN_VALUE, Integer.MAX_VALUE));
        }
    }

    @Test
    void smallRangesAreUniform() {
        long seed = 20260101L;
        System.out.println("Xoshiro128Test.smallRangesAreUniform seed=" + seed);
        Xoshiro128 generator = new Xoshiro128(seed);
        int[] counts = new int[6];
        int draws = 60_000;
        for (int i = 0; i < draws; i++) {
            counts[generator.nextInt(6)]++;
        }
        double chiSquare = 0;
        for (int count : counts) {
            double expected = draws / 6.0;
            chiSquare += (count - expected) * (count - expected) / expected;
        }
        assertTrue(chiSquare < 20.5, "chi-square=" + chiSquare + " (5 degrees of freedom, p < 0.001) counts="
                + Arrays.toString(counts));
    }

    @Test
    void badBoundsAreRejectedWithoutDrawing() {
        Xoshiro128 generator = new Xoshiro128(1);
        int[] before = generator.state();
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> generator.nextInt(0));
        assertEquals("bound=0 must be positive", zero.getMessage());
        assertThrows(IllegalArgumentException.class, () -> generator.nextInt(-3));
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class, () -> generator.nextInt(4, 4));
        assertEquals("origin=4 must be below bound=4", empty.getMessage());
        IllegalArgumentException inverted =
                assertThrows(IllegalArgumentException.class, () -> generator.nextIntInclusive(3, 2));
        assertEquals("min=3 must not exceed max=2", inverted.getMessage());
        assertArrayEquals(before, generator.state());
    }

    @Test
    void stateRoundTripsAndRefusesAllZeros() {
        Xoshiro128 generator = new Xoshiro128(9);
        int[] saved = generator.state();
        int a = generator.nextInt();
        int b = generator.nextInt();
        generator.setState(saved);
        assertEquals(a, generator.nextInt());
        assertEquals(b, generator.nextInt());

        int[] current = generator.state();
        IllegalArgumentException zeros =
                assertThrows(IllegalArgumentException.class, () -> generator.setState(0, 0, 0, 0));
        assertTrue(zeros.getMessage().contains("all zeros"), zeros.getMessage());
        assertThrows(IllegalArgumentException.class, () -> generator.setState(new int[] {1, 2, 3}));
        assertThrows(IllegalArgumentException.class, () -> Xoshiro128.ofState(0, 0, 0, 0));
        assertArrayEquals(current, generator.state(), "a refused state changes nothing");

        int[] view = generator.state();
        view[0] ^= 1;
        assertNotEquals(view[0], generator.state()[0], "state() is a copy");
    }

    @Test
    void copiesAreIndependent() {
        Xoshiro128 generator = new Xoshiro128(21);
        Xoshiro128 copy = generator.copy();
        assertEquals(generator.nextInt(), copy.nextInt());
        copy.nextInt();
        assertNotEquals(Arrays.toString(generator.state()), Arrays.toString(copy.state()));
    }

    /** Fisher-Yates from the top, one bounded draw per position above 0. */
    private static int[] referenceShuffle(Xoshiro128 raw, int[] values) {
        int[] out = values.clone();
        for (int i = out.length - 1; i > 0; i--) {
            int j = referenceBounded(raw, i + 1);
            int swap = out[i];
            out[i] = out[j];
            out[j] = swap;
        }
        return out;
    }

    @Test
    void shufflesAreFisherYatesAndAgreeAcrossContainers() {
        int[] values = IntStream.range(0, 50).toArray();
        Xoshiro128 generator = new Xoshiro128(77);
        int[] expected = referenceShuffle(generator.copy(), values);

        int[] ints = values.clone();
        generator.copy().shuffle(ints);
        assertArrayEquals(expected, ints);

        long[] longs = Arrays.stream(values).asLongStream().toArray();
        generator.copy().shuffle(longs);
        assertArrayEquals(Arrays.stream(expected).asLongStream().toArray(), longs);

        List<Integer> list = new ArrayList<>(Arrays.stream(values).boxed().toList());
        generator.copy().shuffle(list);
        assertEquals(Arrays.stream(expected).boxed().toList(), list);

        List<Integer> linked = new LinkedList<>(Arrays.stream(values).boxed().toList());
        generator.copy().shuffle(linked);
        assertEquals(Arrays.stream(expected).boxed().toList(), linked);

        int[] sorted = ints.clone();
        Arrays.sort(sorted);
        assertArrayEquals(values, sorted, "a shuffle is a permutation");
        generator.shuffle(new int[0]);
        generator.shuffle(new int[] {4});
    }

    @Test
    void shufflesReachEveryPermutationEvenly() {
        long seed = 99L;
        System.out.println("Xoshiro128Test.shufflesReachEveryPermutationEvenly seed=" + seed);
        Xoshiro128 generator = new Xoshiro128(seed);
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < 6000; i++) {
            int[] values = {0, 1, 2};
            generator.shuffle(values);
            counts.merge(Arrays.toString(values), 1, Integer::sum);
        }
        assertEquals(6, counts.size(), counts.toString());
        for (int count : counts.values()) {
            assertTrue(count > 850 && count < 1150, counts.toString());
        }
    }

    /** The state word {@code s1} whose next output is {@code output} (the output is {@code rotl(s1 * 5, 7) * 9}). */
    private static int s1For(int output) {
        return Integer.rotateRight(output * inverse(9), 7) * inverse(5);
    }

    /** The inverse of an odd number modulo 2^32 (Newton's iteration doubles the correct bits each step). */
    private static int inverse(int odd) {
        int x = odd;
        for (int i = 0; i < 5; i++) {
            x *= 2 - odd * x;
        }
        return x;
    }

    /**
     * A bounded draw keeps an output whose low word sits exactly on the biased band's edge ({@code 2^32 mod range})
     * and draws again for one inside it, in both cases consuming exactly the outputs it used: made from states
     * whose next output is chosen (range 3: the band is {@code [0, 1)}; 0xAAAAAAAB times 3 leaves 1 in the low word).
     */
    @Test
    void aBoundedDrawKeepsTheEdgeOfTheBiasedBandAndDrawsAgainInsideIt() {
        int edge = 0xAAAAAAAB;
        Xoshiro128 kept = Xoshiro128.ofState(1, s1For(edge), 2, 3);
        Xoshiro128 outputs = kept.copy();
        assertEquals(edge, outputs.nextInt());
        assertEquals(2, kept.nextInt(3), "the high word of 3 * 0xAAAAAAAB = 0x2_0000_0001");
        assertEquals(outputs.nextInt(), kept.nextInt(), "one output used");

        Xoshiro128 redrawn = Xoshiro128.ofState(1, s1For(0), 2, 3);
        Xoshiro128 expected = redrawn.copy();
        assertEquals(0, expected.nextInt(), "low word 0: inside the band");
        long second = expected.nextInt() & 0xFFFF_FFFFL;
        assertEquals((int) (second * 3 >>> 32), redrawn.nextInt(3));
        assertEquals(expected.nextInt(), redrawn.nextInt(), "two outputs used");
    }

    /** Each shuffle draws once for every position but the first, and no more: what follows is the same stream. */
    @Test
    void aShuffleDrawsOnceForEveryPositionButTheFirst() {
        int n = 10;
        Xoshiro128 reference = new Xoshiro128(99);
        for (int i = 0; i < n - 1; i++) {
            reference.nextInt();
        }
        int after = reference.nextInt();
        List<java.util.function.Consumer<Xoshiro128>> shuffles = List.of(
                r -> r.shuffle(new int[n]),
                r -> r.shuffle(new long[n]),
                r -> r.shuffle(new ArrayList<>(java.util.Collections.nCopies(n, "x"))),
                r -> r.shuffle(new java.util.LinkedList<>(java.util.Collections.nCopies(n, "x"))));
        for (int k = 0; k < shuffles.size(); k++) {
            Xoshiro128 random = new Xoshiro128(99);
            shuffles.get(k).accept(random);
            assertEquals(after, random.nextInt(), "shuffle " + k);
        }
    }

    @Test
    void toStringShowsTheStateInHex() {
        assertEquals("Xoshiro128[1, ff, a, 7fffffff]", Xoshiro128.ofState(1, 255, 10, Integer.MAX_VALUE).toString());
    }
}
