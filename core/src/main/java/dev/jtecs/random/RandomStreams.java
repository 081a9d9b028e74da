package dev.jtecs.random;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Named random streams derived from one 32-bit seed: one {@link Xoshiro128} per name, created on first request
 * and returned again on every later one. A world owns one of these ({@code world.randomStream(name)}).
 *
 * <p>A stream's sequence depends only on the seed and its name, never on which other streams exist or how much
 * they have drawn. The name-to-state mapping is a persistence contract (saved games restore streams by name),
 * so it is spelled out here and pinned by tests:
 *
 * <pre>
 *   h     = FNV-1a 64 over the name's UTF-8 bytes   (offset basis 0xCBF29CE484222325, prime 0x100000001B3)
 *   key   = h XOR (seed as unsigned 32-bit * 0x9E3779B97F4A7C15)
 *   state = Xoshiro128.reseed(key)                  (two SplitMix64 values split into four words)
 * </pre>
 *
 * <p>Reseeding restarts every existing stream in place (callers keep their references and see the new
 * sequence) and makes later streams derive from the new seed. Not thread-safe, like the world that owns it.
 */
public final class RandomStreams {
    /** The seed a world starts with: a fixed value, never a clock reading. */
    public static final int DEFAULT_SEED = 0x5EED1234;

    private static final long FNV_OFFSET = 0xCBF2_9CE4_8422_2325L;
    private static final long FNV_PRIME = 0x0000_0100_0000_01B3L;
    private static final long GOLDEN = 0x9E37_79B9_7F4A_7C15L;

    private final Map<String, Xoshiro128> streams = new LinkedHashMap<>();
    private int seed;
    private boolean persistent;

    /** Streams derived from {@link #DEFAULT_SEED}. */
    public RandomStreams() {
        this(DEFAULT_SEED);
    }

    public RandomStreams(int seed) {
        this.seed = seed;
    }

    /**
     * The stream with this name, created on first use; always the same generator object for one name.
     *
     * @throws IllegalArgumentException when the name is empty
     */
    public Xoshiro128 stream(String name) {
        persistent = true;
        Xoshiro128 stream = streams.get(Objects.requireNonNull(name, "name"));
        if (stream == null) {
            if (name.isEmpty()) {
                throw new IllegalArgumentException("a random stream needs a non-empty name");
            }
            stream = new Xoshiro128(streamKey(seed, name));
            streams.put(name, stream);
        }
        return stream;
    }

    /** Restarts every existing stream from the new seed, in place; later streams derive from it too. */
    public void reseed(int seed) {
        persistent = true;
        this.seed = seed;
        for (Map.Entry<String, Xoshiro128> entry : streams.entrySet()) {
            entry.getValue().reseed(streamKey(seed, entry.getKey()));
        }
    }

    /**
     * Whether snapshots carry these streams: from the first {@link #stream} or {@link #reseed} call on (or a
     * {@link #restore}); until then a snapshot leaves random state out, and loading it changes nothing here.
     */
    public boolean isPersistent() {
        return persistent;
    }

    /**
     * Restores saved random state (a snapshot load): the seed, then every saved stream's four state words, in
     * place for streams already requested (callers keep their generators) and as new streams otherwise; streams
     * requested here but absent from the save restart from the restored seed. The caller has checked the
     * names (non-empty) and that each state has four words, not all zero.
     */
    public void restore(int seed, Map<String, int[]> saved) {
        persistent = true;
        this.seed = seed;
        for (Map.Entry<String, Xoshiro128> entry : streams.entrySet()) {
            if (!saved.containsKey(entry.getKey())) {
                entry.getValue().reseed(streamKey(seed, entry.getKey()));
            }
        }
        for (Map.Entry<String, int[]> entry : saved.entrySet()) {
            int[] state = entry.getValue();
            Xoshiro128 stream = streams.get(entry.getKey());
            if (stream == null) {
                streams.put(entry.getKey(), Xoshiro128.ofState(state[0], state[1], state[2], state[3]));
            } else {
                stream.setState(state[0], state[1], state[2], state[3]);
            }
        }
    }

    /** The current state words of every stream, by name in creation order (fresh arrays: no live view). */
    public Map<String, int[]> states() {
        Map<String, int[]> out = new LinkedHashMap<>();
        for (Map.Entry<String, Xoshiro128> entry : streams.entrySet()) {
            out.put(entry.getKey(), entry.getValue().state());
        }
        return out;
    }

    /** The current seed. */
    public int seed() {
        return seed;
    }

    /** Whether a stream with this name has been requested. */
    public boolean contains(String name) {
        return streams.containsKey(name);
    }

    /** The names of the streams requested so far, in the order they were first requested. */
    public List<String> names() {
        return List.copyOf(streams.keySet());
    }

    /** The 64-bit key a stream's state is expanded from; see the class comment. */
    public static long streamKey(int seed, String name) {
        long hash = FNV_OFFSET;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xFF;
            hash *= FNV_PRIME;
        }
        return hash ^ (Integer.toUnsignedLong(seed) * GOLDEN);
    }
}
