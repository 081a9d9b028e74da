package dev.jtecs.bench.frame;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.kernels.KernelMode;
import dev.jtecs.kernels.KernelProvider;
import dev.jtecs.kernels.LifetimeOps;
import dev.jtecs.kernels.ParticleOps;
import org.junit.jupiter.api.Test;

class KernelChoiceTest {
    @Test
    void parsesTheTwoNamesInAnyCase() {
        assertEquals(KernelChoice.SCALAR, KernelChoice.parse("scalar"));
        assertEquals(KernelChoice.VECTOR, KernelChoice.parse(" Vector "));
        assertEquals("vector", KernelChoice.VECTOR.optionValue());
    }

    @Test
    void rejectsAnythingElseNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KernelChoice.parse("simd"));
        assertEquals("kernels must be scalar or vector, got 'simd'", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> KernelChoice.parse(null));
    }

    @Test
    void scalarIsTheTwinsAndVectorIsTheProvidersKernels() {
        assertSame(ParticleOps.SCALAR, KernelChoice.SCALAR.particles());
        assertSame(LifetimeOps.SCALAR, KernelChoice.SCALAR.lifetimes());
        assertTrue(KernelChoice.SCALAR.isAvailable());
        assertEquals(KernelProvider.mode() == KernelMode.VECTOR, KernelChoice.VECTOR.isAvailable());
        assertTrue(KernelChoice.VECTOR.isAvailable(), "tests run with jdk.incubator.vector: " + KernelProvider.reason());
        assertEquals(KernelMode.VECTOR, KernelChoice.VECTOR.particles().mode());
        assertEquals(KernelMode.VECTOR, KernelChoice.VECTOR.lifetimes().mode());
    }
}
