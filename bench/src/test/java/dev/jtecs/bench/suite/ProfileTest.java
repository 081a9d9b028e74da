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
        assertEquals("5 × 1000 ms", Profile.FULL.measurementText());
    }

    @Test
    void optionsMakeACustomProfileAndNoOptionsKeepTheProfile() {
        assertSame(Profile.QUICK, Profile.QUICK.with(null, null, null, null));
        Profile custom = Profile.QUICK.with(0, 1, 2, Duration.ofMillis(100));
        assertEquals(new Profile("custom", 0, 1, Duration.ofMillis(100), 2, Duration.ofMillis(100), true), custom);
    }

    @Test
    void estimatesIterationsPlusAForkCost() {
        double perFork = Profile.FORK_OVERHEAD_SECONDS + 0.8 + 3 * 0.15;
        assertEquals(Math.round(10 * perFork * 1000), Profile.QUICK.estimate(10).toMillis());
        assertEquals(Math.round(3 * 2 * (Profile.FORK_OVERHEAD_SECONDS + 8)) * 1000,
                Profile.FULL.estimate(3).toMillis());
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
