package dev.jtecs.kernels;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.Optional;
import java.util.Set;

/**
 * The fences of this module, checked on the class files of its main code and of core's (the ArchUnit engine runs
 * the {@code @ArchTest} rules; {@link KernelsArchitectureRulesTest} shows each one failing on a class that breaks it):
 *
 * <pre>
 *   dev.jtecs.kernels.vector ───► dev.jtecs.kernels ◄─── dev.jtecs.kernels.parallel
 *   (vector twins; the only       (API, scalar twins,      (parallel passes)
 *    users of jdk.incubator.vector) the provider)
 * </pre>
 *
 * <p>Arrows are the only dependencies allowed between the three packages: the API names neither of the others in
 * code (the provider finds the vector twins by name), so it compiles, loads and runs with neither, and no two
 * packages form a cycle.
 */
@AnalyzeClasses(packages = "dev.jtecs", importOptions = ImportOption.DoNotIncludeTests.class)
class KernelsArchitectureTest {
    private static final String API = "dev.jtecs.kernels";
    private static final String VECTOR = "dev.jtecs.kernels.vector";
    private static final String PARALLEL = "dev.jtecs.kernels.parallel";

    @ArchTest
    static final ArchRule ONLY_THE_VECTOR_PACKAGE_USES_THE_VECTOR_API = noClasses()
            .that().resideOutsideOfPackage(VECTOR + "..")
            .should().dependOnClassesThat().resideInAPackage("jdk.incubator.vector..")
            .because("a class that names a vector type fails to load where jdk.incubator.vector is missing, and "
                    + "KernelProvider touches kernels.vector only once it has found the module readable");

    @ArchTest
    static final ArchRule THE_API_NAMES_NEITHER_VECTOR_NOR_PARALLEL = layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .layer("API").definedBy(API)
            .layer("Vector twins").definedBy(VECTOR + "..")
            .layer("Parallel passes").definedBy(PARALLEL + "..")
            .whereLayer("Vector twins").mayNotBeAccessedByAnyLayer()
            .whereLayer("Parallel passes").mayNotBeAccessedByAnyLayer()
            .ensureAllClassesAreContainedInArchitectureIgnoring(resideOutsideOfPackage(API + ".."))
            .because("both sit on the API: a link back would be a package cycle, and from the API to the vector "
                    + "twins a way to load vector code without the provider's checks");

    @ArchTest
    static final ArchRule NO_PACKAGE_CYCLES = slices().assignedFrom(new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String name = javaClass.getPackageName();
            return name.equals(API) || name.startsWith(API + ".") ? SliceIdentifier.of(name) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "the packages of dev.jtecs.kernels, the API package itself included";
        }
    }).should().beFreeOfCycles();

    @ArchTest
    static final ArchRule SCALAR_TWINS_NEVER_TOUCH_VECTORS = noClasses()
            .that(areScalarTwins())
            .should().dependOnClassesThat().resideInAnyPackage(VECTOR + "..", "jdk.incubator.vector..")
            .because("a scalar twin is the specification and the fallback: it must run where vectors cannot");

    @ArchTest
    static final ArchRule EVERY_OPS_INTERFACE_HAS_ITS_TWO_TWINS = classes()
            .that().resideInAPackage(API).and().areInterfaces().and().haveSimpleNameEndingWith("Ops")
            .should(haveTheirTwins())
            .because("KernelProvider finds the vector twin by that name, and a twin implements its interface "
                    + "itself rather than forwarding to another class");

    /** Classes of the API package that implement one of its ops interfaces, and the classes nested in them. */
    private static DescribedPredicate<JavaClass> areScalarTwins() {
        return DescribedPredicate.describe("are scalar twins (classes of " + API + " implementing its *Ops)",
                javaClass -> {
                    for (JavaClass c = javaClass; c != null; c = c.getEnclosingClass().orElse(null)) {
                        if (c.getPackageName().equals(API) && !c.isInterface()
                                && c.getRawInterfaces().stream().anyMatch(KernelsArchitectureTest::isOpsInterface)) {
                            return true;
                        }
                    }
                    return false;
                });
    }

    private static boolean isOpsInterface(JavaClass type) {
        return type.isInterface() && type.getPackageName().equals(API) && type.getSimpleName().endsWith("Ops");
    }

    /**
     * {@code XOps} has {@code dev.jtecs.kernels.ScalarXOps} and {@code dev.jtecs.kernels.vector.VectorXOps}, final
     * classes that implement it directly; the vector one has a {@code public static final VectorXOps INSTANCE}.
     */
    private static ArchCondition<JavaClass> haveTheirTwins() {
        return new ArchCondition<>("have a final Scalar<Ops> in " + API + " and a final Vector<Ops> with its "
                + "INSTANCE in " + VECTOR + ", each implementing it directly") {
            @Override
            public void check(JavaClass ops, ConditionEvents events) {
                checkTwin(ops, API + ".Scalar" + ops.getSimpleName(), false, events);
                checkTwin(ops, VECTOR + ".Vector" + ops.getSimpleName(), true, events);
            }
        };
    }

    private static void checkTwin(JavaClass ops, String twinName, boolean needsInstance, ConditionEvents events) {
        Optional<JavaClass> twin = ops.getSubclasses().stream().filter(c -> c.getName().equals(twinName)).findFirst();
        if (twin.isEmpty()) {
            events.add(SimpleConditionEvent.violated(ops, ops.getName() + " has no twin " + twinName
                    + " implementing it directly"));
            return;
        }
        if (!twin.get().getModifiers().contains(JavaModifier.FINAL)) {
            events.add(SimpleConditionEvent.violated(ops, twinName + " is not final"));
        }
        if (needsInstance) {
            Optional<JavaField> instance = twin.get().tryGetField("INSTANCE");
            boolean ok = instance.isPresent() && instance.get().getRawType().equals(twin.get())
                    && instance.get().getModifiers().containsAll(
                            Set.of(JavaModifier.PUBLIC, JavaModifier.STATIC, JavaModifier.FINAL));
            if (!ok) {
                events.add(SimpleConditionEvent.violated(ops, twinName + " has no public static final INSTANCE of "
                        + "its own type, which KernelProvider reads"));
            }
        }
    }
}
