package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.kernels.vector.VectorBoundsOps;
import dev.jtecs.kernels.vector.VectorFillOps;
import dev.jtecs.kernels.vector.VectorLifetimeLerpOps;
import dev.jtecs.kernels.vector.VectorLifetimeOps;
import dev.jtecs.kernels.vector.VectorParticleOps;
import dev.jtecs.kernels.vector.VectorSumOps;
import dev.jtecs.kernels.vector.VectorTransformOps;
import org.junit.jupiter.api.Test;

class KernelProviderTest {
    private static final String C2 = "mixed mode, sharing";

    @Test
    void vectorWhenTheModuleIsReadableAndC2IsOn() {
        assertEquals(KernelMode.VECTOR, KernelProvider.decide(null, true, C2).mode());
        assertEquals(KernelMode.VECTOR, KernelProvider.decide("auto", true, C2).mode());
    }

    @Test
    void propertyForcesScalar() {
        KernelProvider.Choice choice = KernelProvider.decide(" Scalar ", true, C2);
        assertEquals(KernelMode.SCALAR, choice.mode());
        assertTrue(choice.reason().contains("-Djtecs.kernels=scalar"), choice.reason());
    }

    @Test
    void scalarWithAReasonWhenTheModuleIsMissingOrC2IsOff() {
        KernelProvider.Choice missing = KernelProvider.decide(null, false, C2);
        assertEquals(KernelMode.SCALAR, missing.mode());
        assertTrue(missing.reason().contains("jdk.incubator.vector"), missing.reason());
        KernelProvider.Choice interpreted = KernelProvider.decide(null, true, "interpreted mode, sharing");
        assertEquals(KernelMode.SCALAR, interpreted.mode());
        assertTrue(interpreted.reason().contains("-Xint"), interpreted.reason());
        KernelProvider.Choice client = KernelProvider.decide(null, true, "mixed mode, emulated-client, sharing");
        assertEquals(KernelMode.SCALAR, client.mode());
        assertTrue(client.reason().contains("C2"), client.reason());
    }

    @Test
    void unknownPropertyValueIsNamedAndIgnored() {
        KernelProvider.Choice choice = KernelProvider.decide("simd", true, C2);
        assertEquals(KernelMode.VECTOR, choice.mode());
        assertTrue(choice.reason().contains("jtecs.kernels=simd"), choice.reason());
    }

    @Test
    void thisJvmFollowsTheDecisionAndKeepsOneInstance() {
        KernelMode expected = KernelProvider.decide(System.getProperty(KernelProvider.PROPERTY), true,
                System.getProperty("java.vm.info", "")).mode(); // tests always run with the module added
        assertEquals(expected, KernelProvider.mode(), KernelProvider.reason());
        assertEquals(expected, KernelProvider.particles().mode());
        assertSame(KernelProvider.particles(), KernelProvider.particles());
        assertEquals(expected, KernelProvider.bounds().mode());
        assertSame(KernelProvider.bounds(), KernelProvider.bounds());
    }

    @Test
    void everyKernelFamilyRunsTheChosenModeAndKeepsOneInstance() {
        assertEquals(KernelProvider.mode(), KernelProvider.lifetimeLerps().mode());
        assertEquals(KernelProvider.mode(), KernelProvider.fills().mode());
        assertSame(KernelProvider.lifetimeLerps(), KernelProvider.lifetimeLerps());
        assertSame(KernelProvider.fills(), KernelProvider.fills());
        assertEquals(KernelProvider.mode(), KernelProvider.sums().mode());
        assertSame(KernelProvider.sums(), KernelProvider.sums());
    }

    /** Checked in every run, the forced-scalar one too: the lookup the provider makes once it has chosen vector. */
    @Test
    void everyVectorTwinIsFoundByTheNamingConvention() {
        assertSame(VectorParticleOps.INSTANCE, KernelProvider.vectorTwin(ParticleOps.class));
        assertSame(VectorLifetimeOps.INSTANCE, KernelProvider.vectorTwin(LifetimeOps.class));
        assertSame(VectorTransformOps.INSTANCE, KernelProvider.vectorTwin(TransformOps.class));
        assertSame(VectorLifetimeLerpOps.INSTANCE, KernelProvider.vectorTwin(LifetimeLerpOps.class));
        assertSame(VectorFillOps.INSTANCE, KernelProvider.vectorTwin(FillOps.class));
        assertSame(VectorBoundsOps.INSTANCE, KernelProvider.vectorTwin(BoundsOps.class));
        assertSame(VectorSumOps.INSTANCE, KernelProvider.vectorTwin(SumOps.class));
        IllegalStateException none = assertThrows(IllegalStateException.class,
                () -> KernelProvider.vectorTwin(ColumnKernel.class));
        assertTrue(none.getMessage().contains("dev.jtecs.kernels.vector.VectorColumnKernel.INSTANCE"),
                none.getMessage());
    }

    /**
     * The build runs this module's suite twice (simd-kernels/pom.xml): once as configured, where a JVM with C2
     * and the module must run vector, and once with {@code -Djtecs.kernels=scalar}, which must run scalar. Each
     * execution names what it expects in {@code jtecs.test.expectedKernels}; a run outside the build (no such
     * property) checks that the provider made the choice {@link KernelProvider#decide} gives for this JVM.
     */
    @Test
    void eachBuildExecutionRunsTheImplementationItAsksFor() {
        String vmInfo = System.getProperty("java.vm.info", "");
        KernelMode forThisJvm = KernelProvider.decide(System.getProperty(KernelProvider.PROPERTY),
                KernelProvider.vectorModuleReadable(), vmInfo).mode();
        assertEquals(forThisJvm, KernelProvider.mode(), KernelProvider.reason());
        assertEquals(forThisJvm, KernelProvider.particles().mode());
        String expected = System.getProperty("jtecs.test.expectedKernels", "unset");
        switch (expected) {
            case "scalar" -> {
                assertEquals("scalar", System.getProperty(KernelProvider.PROPERTY));
                assertEquals(KernelMode.SCALAR, KernelProvider.mode(), KernelProvider.reason());
            }
            case "auto" -> {
                boolean c2 = !vmInfo.contains("interpreted mode") && !vmInfo.contains("emulated-client");
                assertEquals(c2 && KernelProvider.vectorModuleReadable() ? KernelMode.VECTOR : KernelMode.SCALAR,
                        KernelProvider.mode(), KernelProvider.reason() + " (java.vm.info=" + vmInfo + ")");
            }
            case "unset" -> { } // outside the build: the choice for this JVM was checked above
            default -> throw new AssertionError("jtecs.test.expectedKernels=" + expected + ": use auto or scalar");
        }
    }
}
