package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.bench.particles.Particles;
import dev.jtecs.storage.Archetype;
import java.util.function.ToLongFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Both {@code sparse_delta} consumers keep their mirror equal to the world frame after frame; the dirty-only one
 * copies just the archetypes the frame wrote.
 */
class SparseDeltaBenchmarkTest {
    private static final int N = SparseDeltaBenchmark.COMBINATIONS * 8;

    private static long[] runFrames(int dirtyArchetypes, ToLongFunction<SparseDeltaBenchmark> frame,
            long[] copiedPerFrame) {
        SparseDeltaBenchmark bench = new SparseDeltaBenchmark();
        bench.entities = N;
        bench.dirtyArchetypes = dirtyArchetypes;
        bench.setUp();
        try {
            for (int f = 0; f < copiedPerFrame.length; f++) {
                copiedPerFrame[f] = frame.applyAsLong(bench);
                assertMirrorsWorld(bench, "frame " + f);
            }
            return Positions.of(bench.world);
        } finally {
            bench.tearDown();
        }
    }

    private static void assertMirrorsWorld(SparseDeltaBenchmark bench, String when) {
        for (Archetype archetype : bench.all) {
            for (int row = 0; row < archetype.count(); row++) {
                float[] expected = {archetype.get(Particles.X).get(row), archetype.get(Particles.Y).get(row)};
                assertArrayEquals(expected, bench.mirrored(archetype, row), 0f,
                        "archetype " + archetype.id() + " row " + row + " after " + when);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 16, 100})
    void bothConsumersMirrorTheWorldAndDirtyOnlyCopiesOnlyWhatWasWritten(int dirtyArchetypes) {
        long[] dirtyCopied = new long[4];
        long[] fullCopied = new long[4];
        long[] afterDirty = runFrames(dirtyArchetypes, SparseDeltaBenchmark::jtecs, dirtyCopied);
        long[] afterFull = runFrames(dirtyArchetypes, SparseDeltaBenchmark::jtecsFullRescan, fullCopied);
        assertArrayEquals(afterFull, afterDirty, "the same writes land in both worlds");
        long everything = 2L * N * Float.BYTES;
        long perArchetype = 2L * (N / SparseDeltaBenchmark.COMBINATIONS) * Float.BYTES;
        for (int f = 0; f < dirtyCopied.length; f++) {
            assertEquals(everything, fullCopied[f], "full re-scan, frame " + f);
            assertEquals(dirtyArchetypes * perArchetype, dirtyCopied[f], "dirty only, frame " + f);
        }
        assertTrue(dirtyCopied[0] < fullCopied[0]);
    }

    @Test
    void refusesTooFewEntitiesOrAnOutOfRangeSpread() {
        SparseDeltaBenchmark bench = new SparseDeltaBenchmark();
        bench.entities = SparseDeltaBenchmark.COMBINATIONS - 1;
        bench.dirtyArchetypes = 1;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, bench::setUp);
        assertTrue(e.getMessage().contains("entities=255"), e.getMessage());
        bench.entities = N;
        bench.dirtyArchetypes = SparseDeltaBenchmark.WRITES + 1;
        e = assertThrows(IllegalArgumentException.class, bench::setUp);
        assertTrue(e.getMessage().contains("dirtyArchetypes=101"), e.getMessage());
    }
}
