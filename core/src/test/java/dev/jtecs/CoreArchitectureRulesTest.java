package dev.jtecs;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.lang.ArchRule;
import dev.jtecs.builtin.systems.BuiltinSystems;
import dev.jtecs.mutation.internal.CommitDrain;
import dev.jtecs.mutation.internal.DrainHooks;
import dev.jtecs.relation.internal.Relations;
import dev.jtecs.schedule.Scheduler;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.internal.NativeMemory;
import dev.jtecs.storage.internal.Table;
import dev.jtecs.world.World;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each rule of {@link CoreArchitectureTest} holds on real classes and fails once a class that breaks it joins
 * them, so the rules can fail. The breaking classes are test fixtures in the packages they break
 * ({@code *Fixture}), which the architecture test itself does not import.
 */
class CoreArchitectureRulesTest {
    @Test
    void theArchitectureTestSeesEveryMainClassAndNoTest() throws ClassNotFoundException {
        JavaClasses imported = new ClassFileImporter().withImportOption(new ImportOption.DoNotIncludeTests())
                .importPackages(CoreArchitectureTest.class.getAnnotation(AnalyzeClasses.class).packages());
        for (Class<?> expected : List.of(World.class, Table.class, CommitDrain.class, Relations.class)) {
            assertTrue(imported.contain(expected), expected + " imported");
        }
        assertFalse(imported.contain(CoreArchitectureRulesTest.class), "tests are not imported");
        assertFalse(imported.contain(Class.forName("dev.jtecs.storage.ReachesUpFixture")), "nor fixtures");
    }

    @Test
    void aLowerLayerNamingAHigherOneBreaksTheLayers() throws ClassNotFoundException {
        assertHoldsThenFails(CoreArchitectureTest.LAYERS, "ReachesUpFixture",
                Class.forName("dev.jtecs.storage.ReachesUpFixture"), Archetype.class, Table.class, World.class);
    }

    @Test
    void aWorldClassReadingASegmentBreaksTheFence() throws ClassNotFoundException {
        assertHoldsThenFails(CoreArchitectureTest.SEGMENTS_STAY_IN_STORAGE, "TouchesSegmentsFixture",
                Class.forName("dev.jtecs.world.TouchesSegmentsFixture"), World.class, NativeMemory.class,
                Table.class);
    }

    @Test
    void aCoreClassNamingTheVectorApiBreaksTheFence() throws ClassNotFoundException {
        assertHoldsThenFails(CoreArchitectureTest.NO_VECTOR_API_IN_CORE, "UsesVectorsFixture",
                Class.forName("dev.jtecs.world.UsesVectorsFixture"), World.class, Table.class);
    }

    @Test
    void twoPackagesNamingEachOtherAreANewCycle() throws ClassNotFoundException {
        assertHoldsThenFails(CoreArchitectureTest.NO_NEW_PACKAGE_CYCLES, "Cycle detected",
                Class.forName("dev.jtecs.mutation.internal.CycleFixture"), Relations.class, DrainHooks.class,
                CommitDrain.class);
    }

    @Test
    void aWorldClassNamingTheBuiltinSystemsBreaksTheLayers() throws ClassNotFoundException {
        assertHoldsThenFails(CoreArchitectureTest.LAYERS, "InstallsBuiltinsFixture",
                Class.forName("dev.jtecs.world.InstallsBuiltinsFixture"), World.class,
                Class.forName("dev.jtecs.world.BuiltinSystemsLink"), BuiltinSystems.class);
    }

    @Test
    void aWorldClassNamingTheBuiltinSystemsIsACycle() throws ClassNotFoundException {
        assertHoldsThenFails(CoreArchitectureTest.NO_NEW_PACKAGE_CYCLES, "Cycle detected",
                Class.forName("dev.jtecs.world.InstallsBuiltinsFixture"), World.class,
                Class.forName("dev.jtecs.world.BuiltinSystemsLink"), BuiltinSystems.class);
    }

    /** The cycles the rule lists stay allowed; the builtin systems naming the world is no cycle at all. */
    @Test
    void theDocumentedCyclesStayAllowed() {
        CoreArchitectureTest.NO_NEW_PACKAGE_CYCLES.check(new ClassFileImporter().importClasses(Archetype.class,
                Table.class, World.class, Scheduler.class, BuiltinSystems.class));
    }

    /** {@code rule} holds on {@code others} and fails once {@code fixture} joins them, naming {@code expected}. */
    private static void assertHoldsThenFails(ArchRule rule, String expected, Class<?> fixture, Class<?>... others) {
        rule.check(new ClassFileImporter().importClasses(others));
        Class<?>[] all = new Class<?>[others.length + 1];
        all[0] = fixture;
        System.arraycopy(others, 0, all, 1, others.length);
        AssertionError failure = assertThrows(AssertionError.class,
                () -> rule.check(new ClassFileImporter().importClasses(all)));
        assertTrue(failure.getMessage().contains(expected), failure.getMessage());
    }
}
