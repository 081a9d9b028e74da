package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.bench.frame.KernelChoice;
import dev.jtecs.bench.particles.ParticleSnapshot;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every engine's {@code particles} frame computes the same particles: the same live count and the same number
 * of expiries in every frame, and the same particles (as a multiset, bit for bit) at checkpoints, jtecs with
 * either kernels included.
 */
class ParticlesBenchmarkTest {
    private static final int N = 3000;
    private static final int FRAMES = 160; // past the longest lifetime (200 frames at most, 100 on average) ...
    private static final int[] CHECKPOINTS = {1, 2, 40, 100, FRAMES}; // ... so initial and respawned ones expire

    private static Map<String, ParticleFrame> engines(ParticlesBenchmark bench) {
        Map<String, ParticleFrame> engines = new LinkedHashMap<>();
        engines.put("jtecs", bench.jtecs);
        engines.put("jtecs-scalar", bench.jtecsScalar);
        engines.put("jtecs-separate", bench.jtecsSeparate);
        engines.put("jtecs-2-threads", bench.jtecsTwoThreads);
        engines.put("plain-array-fused", bench.plainArrayFused);
        engines.put("plain-array-fused-2-threads", bench.plainArrayFusedTwoThreads);
        engines.put("dominion", bench.dominion);
        engines.put("artemis", bench.artemis);
        engines.put("ashley", bench.ashley);
        return engines;
    }

    @Test
    void everyEngineComputesTheSameParticlesFrameAfterFrame() {
        assertTrue(KernelChoice.VECTOR.isAvailable(), "the build runs tests with jdk.incubator.vector");
        ParticlesBenchmark bench = new ParticlesBenchmark();
        bench.entities = N;
        bench.setUp(EngineUnderTest.ALL);
        try {
            Map<String, ParticleFrame> engines = engines(bench);
            ParticleFrame reference = bench.jtecs;
            int checkpoint = 0;
            for (int frame = 1; frame <= FRAMES; frame++) {
                for (ParticleFrame engine : engines.values()) {
                    engine.frame();
                }
                for (Map.Entry<String, ParticleFrame> e : engines.entrySet()) {
                    String at = e.getKey() + " after frame " + frame;
                    assertEquals(N, e.getValue().liveCount(), at + ": live particles");
                    assertEquals(reference.expired(), e.getValue().expired(), at + ": expired so far");
                    assertEquals((long) N * 24, e.getValue().extractedBytes(), at + ": x, y, startingTime and "
                            + "remaining of every particle extracted");
                }
                if (frame == CHECKPOINTS[checkpoint]) {
                    checkpoint++;
                    ParticleSnapshot expected = reference.snapshot();
                    for (Map.Entry<String, ParticleFrame> e : engines.entrySet()) {
                        ParticleSnapshot actual = e.getValue().snapshot();
                        assertEquals(0.0, expected.maxDifference(actual), e.getKey() + " after frame " + frame);
                        assertEquals(expected, actual, e.getKey() + " after frame " + frame + ", bit for bit");
                    }
                }
            }
            assertTrue(reference.expired() > N, "more than one generation expired: " + reference.expired());
            assertTrue(((PlainArrayFusedParticles) bench.plainArrayFused).outputMirrorsState(),
                    "the plain loop's output mirrors its particles");
            assertTrue(((PlainArrayFusedParticles) bench.plainArrayFusedTwoThreads).outputMirrorsState(),
                    "the two-thread plain loop's output mirrors its particles");
        } finally {
            bench.tearDown();
        }
    }

    @Test
    void setUpBuildsOnlyTheMeasuredEngine() {
        ParticlesBenchmark bench = new ParticlesBenchmark();
        bench.entities = 100;
        bench.setUp("artemisFrame");
        try {
            assertEquals(null, bench.jtecs);
            assertEquals(null, bench.jtecsScalar);
            assertEquals(null, bench.jtecsSeparate);
            assertEquals(null, bench.jtecsTwoThreads);
            assertEquals(null, bench.plainArrayFused);
            assertEquals(null, bench.plainArrayFusedTwoThreads);
            assertEquals(null, bench.dominion);
            assertEquals(null, bench.ashley);
            bench.artemisFrame();
            assertEquals(100, bench.artemis.liveCount());
        } finally {
            bench.tearDown();
        }
    }
}
