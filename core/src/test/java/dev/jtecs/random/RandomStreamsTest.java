package dev.jtecs.random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.world.World;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Pins the name-to-sequence mapping. The expected values were computed by an independent C program (the
 * reference xoshiro128** and SplitMix64 code plus FNV-1a 64), not by this implementation.
 */
class RandomStreamsTest {
    private static final int[] LOOT_DEFAULT_STATE = {142018970, 107393523, -1688783877, 554440906};
    private static final int[] LOOT_DEFAULT = {111402000, -1287366371, 834439690, 1783750586, 2072961532,
        -267357943};
    private static final int[] SPAWN_DEFAULT = {1363666484, 870930329, 807215564, -967108711, 444286089,
        1955180640};
    private static final int[] LOOT_42 = {-1679361908, -1789227391, 2055069529, 815881857, -516160767, 47643350};
    private static final int[] ETE_DEFAULT = {1270795206, 1731297092, 1360248045, -852518882, -1406076468,
        1436377621};

    private static int[] draw(Xoshiro128 stream, int count) {
        return IntStream.range(0, count).map(i -> stream.nextInt()).toArray();
    }

    @Test
    void theDefaultSeedIsFixed() {
        assertEquals(0x5EED1234, RandomStreams.DEFAULT_SEED);
        assertEquals(0x5EED1234, new RandomStreams().seed());
    }

    @Test
    void streamKeysFollowTheDocumentedDerivation() {
        assertEquals(0xB0DD93448BDE0731L, RandomStreams.streamKey(0x5EED1234, "game.loot"));
        assertEquals(0xCA2FD57F710A130AL, RandomStreams.streamKey(0x5EED1234, "game.spawn"));
        assertEquals(0x928F9D0FC4ADF207L, RandomStreams.streamKey(42, "game.loot"));
        assertEquals(0xD7D1792B25FEB613L, RandomStreams.streamKey(0x5EED1234, "\u00e9t\u00e9"), "UTF-8 bytes");
        // FNV-1a 64 of "a" is 0xAF63DC4C8601EC8C; seed 0 leaves the hash as it is
        assertEquals(0xAF63DC4C8601EC8CL, RandomStreams.streamKey(0, "a"));
    }

    @Test
    void namedStreamsProduceThePinnedSequences() {
        RandomStreams streams = new RandomStreams();
        Xoshiro128 loot = streams.stream("game.loot");
        assertArrayEquals(LOOT_DEFAULT_STATE, loot.state());
        assertArrayEquals(LOOT_DEFAULT, draw(loot, 6));
        assertArrayEquals(SPAWN_DEFAULT, draw(streams.stream("game.spawn"), 6));
        assertArrayEquals(ETE_DEFAULT, draw(streams.stream("\u00e9t\u00e9"), 6));
        assertArrayEquals(LOOT_42, draw(new RandomStreams(42).stream("game.loot"), 6));
    }

    @Test
    void aStreamIgnoresEveryOtherStream() {
        RandomStreams busy = new RandomStreams();
        for (int i = 0; i < 20; i++) {
            draw(busy.stream("other." + i), i);
        }
        Xoshiro128 spawn = busy.stream("game.spawn");
        draw(busy.stream("game.loot"), 100);
        assertArrayEquals(SPAWN_DEFAULT, draw(spawn, 6));
    }

    @Test
    void oneGeneratorPerName() {
        RandomStreams streams = new RandomStreams();
        assertSame(streams.stream("a"), streams.stream("a"));
        streams.stream("b");
        assertEquals(List.of("a", "b"), streams.names());
    }

    @Test
    void reseedRestartsExistingStreamsInPlace() {
        RandomStreams streams = new RandomStreams();
        Xoshiro128 loot = streams.stream("game.loot");
        draw(loot, 3);
        streams.reseed(42);
        assertEquals(42, streams.seed());
        assertArrayEquals(LOOT_42, draw(loot, 6), "the captured generator restarted from the new seed");
        streams.reseed(RandomStreams.DEFAULT_SEED);
        assertArrayEquals(LOOT_DEFAULT, draw(loot, 6), "reseeding with the same seed restarts the sequence");
        streams.reseed(42);
        assertArrayEquals(LOOT_42, draw(new RandomStreams(42).stream("game.loot"), 6));
        assertArrayEquals(LOOT_42, draw(streams.stream("game.loot"), 6));
    }

    @Test
    void streamsCreatedAfterAReseedDeriveFromTheNewSeed() {
        RandomStreams streams = new RandomStreams();
        streams.reseed(42);
        assertArrayEquals(LOOT_42, draw(streams.stream("game.loot"), 6));
    }

    @Test
    void emptyAndNullNamesAreRefusedAndCreateNothing() {
        RandomStreams streams = new RandomStreams();
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class, () -> streams.stream(""));
        assertEquals("a random stream needs a non-empty name", empty.getMessage());
        assertThrows(NullPointerException.class, () -> streams.stream(null));
        assertEquals(List.of(), streams.names());
        assertFalse(streams.contains(""));
        streams.stream("game.loot");
        assertTrue(streams.contains("game.loot"));
        assertFalse(streams.contains("game.lot"));
    }

    @Test
    void worldsOwnStreamsDerivedFromTheirSeed() {
        try (World world = World.create()) {
            assertEquals(RandomStreams.DEFAULT_SEED, world.randomSeed());
            Xoshiro128 loot = world.randomStream("game.loot");
            assertSame(loot, world.randomStream("game.loot"));
            assertArrayEquals(LOOT_DEFAULT, draw(loot, 6));
            world.seedRandom(42);
            assertEquals(42, world.randomSeed());
            assertArrayEquals(LOOT_42, draw(loot, 6));
            assertThrows(IllegalArgumentException.class, () -> world.randomStream(""));
        }
        try (World other = World.create()) {
            assertArrayEquals(LOOT_DEFAULT, draw(other.randomStream("game.loot"), 6), "a fresh world, same seed");
        }
    }
}
