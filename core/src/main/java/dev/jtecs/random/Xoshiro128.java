package dev.jtecs.random;

import java.util.List;
import java.util.ListIterator;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.random.RandomGenerator;

/**
 * A xoshiro128** pseudo-random generator: 128 bits of state in four 32-bit words, one 32-bit output per step
 * (Blackman and Vigna's reference algorithm, bit for bit). Mutable and not thread-safe: give each thread or
 * task its own generator.
 *
 * <p>Every method this class defines is a stable contract: for a given state it returns the same values in
 * every release, because saved games and replays rely on them. Each draw is documented in terms of raw 32-bit
 * outputs ({@link #nextInt()}):
 *
 * <ul>
 *   <li>{@link #nextLong()}: two outputs, the first one the high word;
 *   <li>{@link #nextInt(int)}, {@link #nextInt(int, int)}, {@link #nextIntInclusive(int, int)}: Lemire's
 *       multiply-and-reject method over one output per attempt, so every value of the range is equally likely;
 *   <li>{@link #nextFloat()}: the top 24 bits of one output, in {@code [0, 1)};
 *   <li>{@link #nextDouble()}: the top 26 bits of one output and the top 27 bits of the next, in {@code [0, 1)};
 *   <li>{@link #nextBoolean()}: the top bit of one output;
 *   <li>the shuffles: Fisher-Yates from the last position down, one bounded draw per position above 0.
 * </ul>
 *
 * The other {@link RandomGenerator} methods (Gaussian, exponential, bounded longs and doubles) are the JDK's
 * defaults built on the methods above; they are not part of the contract.
 *
 * <p>The state must never be all zeros (the generator would return 0 forever); every way of setting it refuses
 * that state, and seeding can never produce it.
 */
public final class Xoshiro128 implements RandomGenerator {
    private static final long MASK = 0xFFFF_FFFFL;
    private static final long TWO_32 = 1L << 32;

    private int s0;
    private int s1;
    private int s2;
    private int s3;

    /** A generator whose state is expanded from a 64-bit seed; see {@link #reseed(long)}. */
    public Xoshiro128(long seed) {
        reseed(seed);
    }

    /**
     * A generator with exactly this state.
     *
     * @throws IllegalArgumentException when all four words are zero
     */
    public static Xoshiro128 ofState(int s0, int s1, int s2, int s3) {
        Xoshiro128 generator = new Xoshiro128(0);
        generator.setState(s0, s1, s2, s3);
        return generator;
    }

    /**
     * Restarts the generator from a 64-bit seed: SplitMix64 started at {@code seed} yields two values, whose
     * low and high halves become the state words 0, 1 (first value) and 2, 3 (second value). SplitMix64 is a
     * bijection of its counter, so the two values are never both zero.
     */
    public void reseed(long seed) {
        long z = seed + 0x9E37_79B9_7F4A_7C15L;
        long a = mix64(z);
        long b = mix64(z + 0x9E37_79B9_7F4A_7C15L);
        s0 = (int) a;
        s1 = (int) (a >>> 32);
        s2 = (int) b;
        s3 = (int) (b >>> 32);
    }

    /** SplitMix64's output function (Stafford's variant 13). */
    static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }

    /** The next raw 32-bit output; every other draw is built from these. */
    @Override
    public int nextInt() {
        int result = Integer.rotateLeft(s1 * 5, 7) * 9;
        int t = s1 << 9;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= t;
        s3 = Integer.rotateLeft(s3, 11);
        return result;
    }

    /** Two outputs: the first is the high word, the second the low word. */
    @Override
    public long nextLong() {
        long high = nextInt();
        return (high << 32) | (nextInt() & MASK);
    }

    /**
     * A uniform value in {@code [0, bound)}.
     *
     * @throws IllegalArgumentException when {@code bound} is not positive
     */
    @Override
    public int nextInt(int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound=" + bound + " must be positive");
        }
        return bounded(bound);
    }

    /**
     * A uniform value in {@code [origin, bound)}.
     *
     * @throws IllegalArgumentException when {@code origin >= bound}
     */
    @Override
    public int nextInt(int origin, int bound) {
        if (origin >= bound) {
            throw new IllegalArgumentException("origin=" + origin + " must be below bound=" + bound);
        }
        return origin + bounded((long) bound - origin);
    }

    /**
     * A uniform value in {@code [min, max]}, both ends included (the whole {@code int} range is allowed).
     *
     * @throws IllegalArgumentException when {@code min > max}
     */
    public int nextIntInclusive(int min, int max) {
        if (min > max) {
            throw new IllegalArgumentException("min=" + min + " must not exceed max=" + max);
        }
        return min + bounded((long) max - min + 1);
    }

    /**
     * Lemire's nearly divisionless method: an output times the range; the high word is the result unless the
     * low word falls in the short band that would bias it, in which case the draw is repeated.
     *
     * @param range the number of values, {@code 1 .. 2^32}
     * @return a value in {@code [0, range)}, as an int (wrapping above {@code Integer.MAX_VALUE})
     */
    private int bounded(long range) {
        if (range == TWO_32) {
            return nextInt();
        }
        long product = (nextInt() & MASK) * range; // < 2^64: exact as an unsigned long
        long low = product & MASK;
        if (low < range) {
            long threshold = (TWO_32 - range) % range; // 2^32 mod range
            while (low < threshold) {
                product = (nextInt() & MASK) * range;
                low = product & MASK;
            }
        }
        return (int) (product >>> 32);
    }

    /** The top 24 bits of one output, scaled into {@code [0, 1)}. */
    @Override
    public float nextFloat() {
        return (nextInt() >>> 8) * 0x1.0p-24f;
    }

    /** 53 bits from two outputs (the top 26 of the first, the top 27 of the second), in {@code [0, 1)}. */
    @Override
    public double nextDouble() {
        long high = nextInt() >>> 6;
        long low = nextInt() >>> 5;
        return ((high << 27) | low) * 0x1.0p-53;
    }

    /** The top bit of one output. */
    @Override
    public boolean nextBoolean() {
        return nextInt() < 0;
    }

    /** Shuffles the array in place; every permutation is equally likely. */
    public void shuffle(int[] values) {
        Objects.requireNonNull(values, "values");
        for (int i = values.length - 1; i > 0; i--) {
            int j = bounded(i + 1L);
            int swap = values[i];
            values[i] = values[j];
            values[j] = swap;
        }
    }

    /** Shuffles the array in place; every permutation is equally likely. */
    public void shuffle(long[] values) {
        Objects.requireNonNull(values, "values");
        for (int i = values.length - 1; i > 0; i--) {
            int j = bounded(i + 1L);
            long swap = values[i];
            values[i] = values[j];
            values[j] = swap;
        }
    }

    /**
     * Shuffles a modifiable list in place with the same draws as the array shuffles. A list without random
     * access is shuffled through an array copy and written back in one pass.
     */
    public <T> void shuffle(List<T> list) {
        Objects.requireNonNull(list, "list");
        if (list instanceof RandomAccess) {
            for (int i = list.size() - 1; i > 0; i--) {
                int j = bounded(i + 1L);
                list.set(j, list.set(i, list.get(j)));
            }
            return;
        }
        @SuppressWarnings("unchecked")
        T[] array = (T[]) list.toArray();
        for (int i = array.length - 1; i > 0; i--) {
            int j = bounded(i + 1L);
            T swap = array[i];
            array[i] = array[j];
            array[j] = swap;
        }
        ListIterator<T> writer = list.listIterator();
        for (T value : array) {
            writer.next();
            writer.set(value);
        }
    }

    /** A copy of the four state words, in order. */
    public int[] state() {
        return new int[] {s0, s1, s2, s3};
    }

    /**
     * Sets the four state words; the next output continues from exactly this state.
     *
     * @throws IllegalArgumentException when all four are zero (the generator state is left unchanged)
     */
    public void setState(int s0, int s1, int s2, int s3) {
        if ((s0 | s1 | s2 | s3) == 0) {
            throw new IllegalArgumentException("xoshiro128** state must not be all zeros");
        }
        this.s0 = s0;
        this.s1 = s1;
        this.s2 = s2;
        this.s3 = s3;
    }

    /**
     * Sets the state from four words, as {@link #state()} returns them.
     *
     * @throws IllegalArgumentException when the array does not hold exactly four words, or all are zero
     */
    public void setState(int[] state) {
        Objects.requireNonNull(state, "state");
        if (state.length != 4) {
            throw new IllegalArgumentException("state.length=" + state.length + " must be 4");
        }
        setState(state[0], state[1], state[2], state[3]);
    }

    /** An independent generator with the same state. */
    public Xoshiro128 copy() {
        return ofState(s0, s1, s2, s3);
    }

    @Override
    public String toString() {
        return "Xoshiro128[" + Integer.toHexString(s0) + ", " + Integer.toHexString(s1) + ", "
                + Integer.toHexString(s2) + ", " + Integer.toHexString(s3) + "]";
    }
}
