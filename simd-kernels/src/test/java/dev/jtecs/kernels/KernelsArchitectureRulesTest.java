package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.lang.ArchRule;
import dev.jtecs.kernels.parallel.ParallelKernelRunner;
import dev.jtecs.kernels.vector.VectorParticleOps;
import dev.jtecs.kernels.vector.VectorSumOps;
import dev.jtecs.world.World;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import jdk.incubator.vector.FloatVector;
import org.junit.jupiter.api.Test;

/**
 * Each rule of {@link KernelsArchitectureTest} holds on the real classes it is shown here together with and fails
 * once a class that breaks it joins them: the rules can fail. The breaking classes are the nested fixtures below
 * (test code, which the architecture test does not import).
 */
class KernelsArchitectureRulesTest {
    /** An API-package class that uses the Vector API itself. */
    static final class UsesTheVectorApi {
        static int lanes() {
            return FloatVector.SPECIES_PREFERRED.length();
        }
    }

    /** An API-package class that reaches a vector twin directly instead of through the provider. */
    static final class NamesAVectorTwin {
        static ParticleOps particles() {
            return VectorParticleOps.INSTANCE;
        }
    }

    /** An API-package class that builds a parallel pass. */
    static final class NamesAParallelPass {
        static AutoCloseable runner(ForkJoinPool pool) {
            return new ParallelKernelRunner(pool);
        }
    }

    /** A scalar twin that takes its answer from the vector twin. */
    static final class ShortcutScalarSumOps implements SumOps {
        @Override
        public KernelMode mode() {
            return KernelMode.SCALAR;
        }

        @Override
        public float sum(MemorySegment column, int count) {
            return VectorSumOps.INSTANCE.sum(column, count);
        }
    }

    /** An ops interface with no twins. */
    interface OrphanOps {
        KernelMode mode();
    }

    /** What the architecture test imports: this module's main classes and core's, none of the tests. */
    @Test
    void theArchitectureTestSeesCoreAndThisModuleButNoTests() {
        JavaClasses imported = new ClassFileImporter().withImportOption(new ImportOption.DoNotIncludeTests())
                .importPackages(KernelsArchitectureTest.class.getAnnotation(AnalyzeClasses.class).packages());
        for (Class<?> expected : List.of(World.class, KernelRunner.class, VectorParticleOps.class,
                ParallelKernelRunner.class)) {
            assertTrue(imported.contain(expected), expected + " imported");
        }
        assertFalse(imported.contain(KernelsArchitectureRulesTest.class), "tests are not imported");
    }

    @Test
    void onlyTheVectorPackageUsesTheVectorApi() {
        assertHoldsThenFails(KernelsArchitectureTest.ONLY_THE_VECTOR_PACKAGE_USES_THE_VECTOR_API,
                "UsesTheVectorApi", UsesTheVectorApi.class, VectorParticleOps.class, ParticleOps.class);
    }

    @Test
    void theApiNamesNeitherTheVectorNorTheParallelPackage() {
        // one class of each layer beside the fixture: an empty layer fails the rule by itself
        assertHoldsThenFails(KernelsArchitectureTest.THE_API_NAMES_NEITHER_VECTOR_NOR_PARALLEL,
                "NamesAVectorTwin", NamesAVectorTwin.class, ParticleOps.class, VectorParticleOps.class,
                ParallelKernelRunner.class);
        assertHoldsThenFails(KernelsArchitectureTest.THE_API_NAMES_NEITHER_VECTOR_NOR_PARALLEL,
                "NamesAParallelPass", NamesAParallelPass.class, ParticleOps.class, VectorParticleOps.class,
                ParallelKernelRunner.class);
    }

    @Test
    void noTwoPackagesFormACycle() {
        assertHoldsThenFails(KernelsArchitectureTest.NO_PACKAGE_CYCLES, "Cycle detected", NamesAVectorTwin.class,
                VectorParticleOps.class, ParticleOps.class, KernelMode.class);
    }

    @Test
    void scalarTwinsNeverTouchTheVectorPackage() {
        assertHoldsThenFails(KernelsArchitectureTest.SCALAR_TWINS_NEVER_TOUCH_VECTORS, "ShortcutScalarSumOps",
                ShortcutScalarSumOps.class, ScalarSumOps.class, SumOps.class, VectorSumOps.class);
    }

    @Test
    void everyOpsInterfaceHasBothTwins() {
        assertHoldsThenFails(KernelsArchitectureTest.EVERY_OPS_INTERFACE_HAS_ITS_TWO_TWINS, "has no twin",
                OrphanOps.class, SumOps.class, ScalarSumOps.class, VectorSumOps.class);
    }

    /**
     * {@code rule} holds on {@code classes} without the first (the fixture) and fails with it, with a message that
     * contains {@code expected}.
     */
    private static void assertHoldsThenFails(ArchRule rule, String expected, Class<?> fixture, Class<?>... others) {
        rule.check(new ClassFileImporter().importClasses(others));
        Class<?>[] all = new Class<?>[others.length + 1];
        all[0] = fixture;
        System.arraycopy(others, 0, all, 1, others.length);
        JavaClasses withFixture = new ClassFileImporter().importClasses(all);
        AssertionError error = assertThrows(AssertionError.class, () -> rule.check(withFixture));
        assertTrue(error.getMessage().contains(expected), error.getMessage());
    }
}
