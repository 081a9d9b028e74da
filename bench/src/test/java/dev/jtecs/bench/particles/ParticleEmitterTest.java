package dev.jtecs.bench.particles;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.random.RandomStreams;
import dev.jtecs.world.World;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ParticleEmitterTest {
    private static ParticleEmitter emitter(int seed) {
        return new ParticleEmitter(new RandomStreams(seed).stream(ParticleSimulation.RANDOM_STREAM));
    }

    @Test
    void initialParticlesDoNotDependOnHowTheyAreChunked() {
        ParticleEmitter whole = emitter(1);
        whole.initial(1000);
        float[] x = Arrays.copyOf(whole.x(), 1000);
        double[] life = Arrays.copyOf(whole.lifetime(), 1000);
        ParticleEmitter chunked = emitter(1);
        chunked.initial(300);
        float[] x1 = Arrays.copyOf(chunked.x(), 300);
        double[] life1 = Arrays.copyOf(chunked.lifetime(), 300);
        chunked.initial(700);
        assertArrayEquals(Arrays.copyOf(x, 300), x1);
        assertArrayEquals(Arrays.copyOf(life, 300), life1);
        assertArrayEquals(Arrays.copyOfRange(x, 300, 1000), Arrays.copyOf(chunked.x(), 700));
        assertArrayEquals(Arrays.copyOfRange(life, 300, 1000), Arrays.copyOf(chunked.lifetime(), 700));
    }

    @Test
    void theWorldsStreamOfTheSameSeedGivesTheSameParticles() {
        ParticleEmitter standalone = emitter(77);
        try (World world = World.create()) {
            world.seedRandom(77);
            ParticleEmitter inWorld = new ParticleEmitter(world.randomStream(ParticleSimulation.RANDOM_STREAM));
            standalone.burst(50);
            inWorld.burst(50);
            assertArrayEquals(Arrays.copyOf(standalone.vx(), 50), Arrays.copyOf(inWorld.vx(), 50));
            assertArrayEquals(Arrays.copyOf(standalone.lifetime(), 50), Arrays.copyOf(inWorld.lifetime(), 50));
        }
    }

    @Test
    void aBurstStartsFromOnePointWithFreshLifetimes() {
        ParticleEmitter emitter = emitter(2);
        assertEquals(2000, emitter.burst(2000));
        double span = 2 * ParticleRules.MEAN_LIFETIME;
        double sum = 0;
        for (int i = 0; i < 2000; i++) {
            assertEquals(emitter.x()[0], emitter.x()[i]);
            assertEquals(emitter.y()[0], emitter.y()[i]);
            assertTrue(emitter.lifetime()[i] > 0 && emitter.lifetime()[i] <= span, "" + emitter.lifetime()[i]);
            assertTrue(emitter.vy()[i] >= 0 && emitter.vy()[i] < ParticleRules.SPEED);
            assertTrue(Math.abs(emitter.vx()[i]) <= ParticleRules.SPEED);
            sum += emitter.lifetime()[i];
        }
        assertEquals(ParticleRules.MEAN_LIFETIME, sum / 2000, ParticleRules.MEAN_LIFETIME * 0.05);
    }

    @Test
    void initialLifetimesFollowTheSteadyStatesRemainingLife() {
        ParticleEmitter emitter = emitter(3);
        int n = 100_000;
        emitter.initial(n);
        double m = ParticleRules.MEAN_LIFETIME;
        double sum = 0;
        int underHalfMean = 0;
        for (int i = 0; i < n; i++) {
            double r = emitter.lifetime()[i];
            assertTrue(r >= 0 && r <= 2 * m);
            assertTrue(Math.abs(emitter.x()[i]) <= ParticleRules.HALF_EXTENT);
            sum += r;
            if (r < m / 2) {
                underHalfMean++;
            }
        }
        // density (1 - r / 2m) / m: mean 2m/3, and P(r < m/2) = 1/2 - 1/16 = 7/16
        assertEquals(2 * m / 3, sum / n, m * 0.01);
        assertEquals(7.0 / 16, (double) underHalfMean / n, 0.01);
    }

    @Test
    void rejectsNegativeCounts() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> emitter(1).burst(-1));
        assertEquals("count=-1 must not be negative", e.getMessage());
        assertEquals(0, emitter(1).initial(0));
    }
}
