package dev.jtecs.bench.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ProfileTest {
    @Test
    void quickIsOneShortForkOnTheDefaultSizesAndFullIsTheClassSettings() {
        assertEquals(1, Profile.QUICK.forks());
        assertTrue(Profile.QUICK.quickParams());
        assertEquals("1 × 800 ms", Profile.QUICK.warmupText());
        assertEquals("3 × 150 ms", Profile.QUICK.measurementText());
        assertEquals(2, Profile.FULL.forks());
        assertEquals("5 × 1000 ms", Profile.FULL.warmupText(), "long enough for the per-entity paths' steady state");
        assertEquals("5 × 1000 ms", Profile.FULL.measurementText());
    }

    @Test
    void optionsMakeACustomProfileAndNoOptionsKeepTheProfile() {
        assertSame(Profile.QUICK, Profile.QUICK.with(null, null, null, null));
        Profile custom = Profile.QUICK.with(0, 1, 2, Duration.ofMillis(100));
        assertEquals(new Profile("custom", 0, 1, Duration.ofMillis(100), 2, Duration.ofMillis(100), true), custom);
    }

    @Test
    void estimatesIterationsPlusAForkCostThatGrowsWithTheEntities() {
        assertEquals(0.8 + 3 * 0.15, Profile.QUICK.iterationSeconds(), 1e-9);
        double small = 0.8 + 3 * 0.15 + Profile.FORK_BASE_SECONDS;
        assertEquals(Math.round(10 * small * 1000), Profile.QUICK.estimate(10, 0, 1).toMillis());
        double large = 10 + Profile.FORK_BASE_SECONDS + 2 * Profile.FORK_SECONDS_PER_MILLION_ENTITIES;
        assertEquals(Math.round(3 * 2 * large * 1000), Profile.FULL.estimate(3, 2_000_000, 1).toMillis(),
                "two forks each");
    }

    @Test
    void contentionStretchesTheForkCostButNotTheIterations() {
        double fixed = Profile.FORK_BASE_SECONDS + Profile.FORK_SECONDS_PER_MILLION_ENTITIES;
        long idle = Profile.QUICK.estimate(1, 1_000_000, 1).toMillis();
        long busy = Profile.QUICK.estimate(1, 1_000_000, 3).toMillis();
        assertEquals(Math.round(2 * fixed * 1000), busy - idle, 1);
        assertEquals(1.0, Profile.contention(1.5, 2), "below one task per processor: idle");
        assertEquals(2.0, Profile.contention(8, 2), 1e-12, "four tasks per processor: twice as long");
        assertEquals(1.0, Profile.contention(-1, 2), "unknown load");
        assertEquals(1.0, Profile.contention(Double.NaN, 2));
    }

    @Test
    void withoutForksOnlyTheFixtureCosts() {
        Profile inProcess = Profile.QUICK.with(0, null, null, null);
        assertEquals(Math.round((inProcess.iterationSeconds() + Profile.FORK_SECONDS_PER_MILLION_ENTITIES) * 1000),
                inProcess.estimate(1, 1_000_000, 1).toMillis());
    }

    @Test
    void refusesImpossibleCountsNamingThem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Profile.QUICK.with(-1, null, null, null));
        assertTrue(e.getMessage().contains("forks=-1"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Profile.QUICK.with(null, null, 0, null));
        assertTrue(e.getMessage().contains("measurementIterations=0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Profile.QUICK.with(null, null, null, Duration.ZERO));
        assertTrue(e.getMessage().contains("warmup=0 ms"), e.getMessage());
    }
}
