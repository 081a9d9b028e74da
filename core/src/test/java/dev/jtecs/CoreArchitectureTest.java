package dev.jtecs;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

/**
 * The house rules of the core, checked on its class files ({@link CoreArchitectureRulesTest} shows each rule
 * failing on a class that breaks it). The layers, lowest first; each may use only layers below it:
 *
 * <pre>
 *   entity, random                 ids and the index; deterministic generators
 *   component                      declarations, layouts, codecs
 *   builtin                        the builtin components (no behaviour)
 *   storage                        archetypes, columns, tables, native memory   (java.lang.foreign lives here)
 *   event                          observers and lifecycle events
 *   query                          descriptors, matching, iteration
 *   mutation                       scopes, staging, the drain, bulk paths
 *   relation                       reverse index, traversal, settlement, sparse markers
 *   snapshot                       save and load                                (and may touch segments)
 *   world                          world, schedule, state: the facade and its scheduler
 *   builtin systems                builtin.systems: the systems every world carries
 * </pre>
 *
 * <p>The world layer is three packages that reference each other by design: a system body receives the
 * {@code World}, and the {@code World} hands out the scheduler's types. The builtin systems are ordinary systems
 * above it: they name the world, and the world installs them by a class name it looks up, never naming their
 * package. Nothing below a layer names it.
 */
@AnalyzeClasses(packages = "dev.jtecs", importOptions = ImportOption.DoNotIncludeTests.class)
public class CoreArchitectureTest {
    static final String ENTITY = "Entity";
    static final String RANDOM = "Random";
    static final String COMPONENT = "Component";
    static final String BUILTIN = "Builtin components";
    static final String STORAGE = "Storage";
    static final String EVENT = "Event";
    static final String QUERY = "Query";
    static final String MUTATION = "Mutation";
    static final String RELATION = "Relation";
    static final String SNAPSHOT = "Snapshot";
    static final String WORLD = "World";
    static final String BUILTIN_SYSTEMS = "Builtin systems";

    @ArchTest
    public static final ArchRule LAYERS = layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .withOptionalLayers(true) // the snapshot layer may be empty
            .layer(ENTITY).definedBy("dev.jtecs.entity..")
            .layer(RANDOM).definedBy("dev.jtecs.random..")
            .layer(COMPONENT).definedBy("dev.jtecs.component..")
            .layer(BUILTIN).definedBy("dev.jtecs.builtin")
            .layer(STORAGE).definedBy("dev.jtecs.storage..")
            .layer(EVENT).definedBy("dev.jtecs.event..")
            .layer(QUERY).definedBy("dev.jtecs.query..")
            .layer(MUTATION).definedBy("dev.jtecs.mutation..")
            .layer(RELATION).definedBy("dev.jtecs.relation..")
            .layer(SNAPSHOT).definedBy("dev.jtecs.snapshot..")
            .layer(WORLD).definedBy("dev.jtecs.world..", "dev.jtecs.schedule..", "dev.jtecs.state..")
            .layer(BUILTIN_SYSTEMS).definedBy("dev.jtecs.builtin.systems..")
            .whereLayer(ENTITY).mayNotAccessAnyLayer()
            .whereLayer(RANDOM).mayNotAccessAnyLayer()
            .whereLayer(COMPONENT).mayOnlyAccessLayers(ENTITY)
            .whereLayer(BUILTIN).mayOnlyAccessLayers(ENTITY, COMPONENT)
            .whereLayer(STORAGE).mayOnlyAccessLayers(ENTITY, COMPONENT, BUILTIN)
            .whereLayer(EVENT).mayOnlyAccessLayers(ENTITY, COMPONENT, BUILTIN, STORAGE)
            .whereLayer(QUERY).mayOnlyAccessLayers(ENTITY, COMPONENT, BUILTIN, STORAGE, EVENT)
            .whereLayer(MUTATION).mayOnlyAccessLayers(ENTITY, COMPONENT, BUILTIN, STORAGE, EVENT, QUERY)
            .whereLayer(RELATION).mayOnlyAccessLayers(ENTITY, COMPONENT, BUILTIN, STORAGE, EVENT, QUERY, MUTATION)
            .whereLayer(SNAPSHOT).mayOnlyAccessLayers(ENTITY, RANDOM, COMPONENT, BUILTIN, STORAGE, EVENT, QUERY,
                    MUTATION, RELATION)
            .whereLayer(WORLD).mayOnlyAccessLayers(ENTITY, RANDOM, COMPONENT, BUILTIN, STORAGE, EVENT, QUERY,
                    MUTATION, RELATION, SNAPSHOT)
            .ensureAllClassesAreContainedInArchitectureIgnoring(resideInAPackage("java.."))
            .because("each package builds on the ones below it and nothing reaches up: a change to the facade "
                    + "cannot break storage, and the drain cannot call the world");

    @ArchTest
    public static final ArchRule SEGMENTS_STAY_IN_STORAGE = noClasses()
            .that().resideOutsideOfPackages("dev.jtecs.storage..", "dev.jtecs.snapshot..")
            .should().accessClassesThat().resideInAPackage("java.lang.foreign..")
            .because("storage owns every off-heap buffer: code elsewhere passes segments along but never reads, "
                    + "writes, slices or allocates them, so a buffer's lifetime is decided in one place "
                    + "(snapshots copy whole columns and map files, and may)");

    @ArchTest
    public static final ArchRule NO_VECTOR_API_IN_CORE = noClasses()
            .should().dependOnClassesThat().resideInAPackage("jdk.incubator.vector..")
            .because("the core must load where the incubator module is absent; kernels live in simd-kernels");

    /**
     * No cycle between packages, except the documented ones: an API package and its {@code .internal} package
     * (the public type wraps or hands out the internal one), and the world layer's facade naming the scheduler
     * whose systems receive it.
     */
    @ArchTest
    public static final ArchRule NO_NEW_PACKAGE_CYCLES = slices().assignedFrom(new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String name = javaClass.getPackageName();
            return name.startsWith("dev.jtecs.") ? SliceIdentifier.of(name) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "the packages of the core";
        }
    }).should().beFreeOfCycles()
            .ignoreDependency(resideInAPackage("dev.jtecs.storage"), resideInAPackage("dev.jtecs.storage.internal"))
            .ignoreDependency(resideInAPackage("dev.jtecs.component"),
                    resideInAPackage("dev.jtecs.component.internal"))
            .ignoreDependency(resideInAPackage("dev.jtecs.world"), resideInAPackage("dev.jtecs.schedule"));
}
