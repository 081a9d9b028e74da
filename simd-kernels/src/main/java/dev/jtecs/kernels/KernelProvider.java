package dev.jtecs.kernels;

import java.util.Locale;

/**
 * Picks, once per JVM, whether kernels run their vector implementation or their scalar twin, and says why.
 *
 * <p>Vector when {@code jdk.incubator.vector} is readable from this module and the C2 compiler is on (without
 * C2 every vector is a heap object and the vector kernels run tens of times slower than the scalar ones);
 * otherwise scalar, with the reason logged once at {@code WARNING}. {@code -Djtecs.kernels=scalar} forces the
 * scalar twins (tests, comparisons); {@code auto} or no value lets the checks decide. The choice is made in the
 * class initializer and never changes: {@link #particles()}, {@link #lifetimes()}, {@link #particleSteps()}, {@link #transforms()},
 * {@link #lifetimeLerps()}, {@link #fills()}, {@link #bounds()} and {@link #sums()} always return the same
 * instances.
 *
 * <p>The scalar twins are the ops interfaces' {@code SCALAR} constants. The vector twins live in
 * {@code dev.jtecs.kernels.vector}, which this package never names in code: {@link #vectorTwin} finds each one by
 * the naming convention ({@code ParticleOps} → {@code dev.jtecs.kernels.vector.VectorParticleOps.INSTANCE}), and
 * only once vector is chosen. So no class of this package can load vector code by accident in a JVM where
 * {@code jdk.incubator.vector} is missing, and the vector package can implement this one's interfaces without a
 * package cycle (the module's architecture test holds both).
 */
public final class KernelProvider {
    /** The system property that forces the scalar twins: {@code -Djtecs.kernels=scalar}. */
    public static final String PROPERTY = "jtecs.kernels";
    /** The package of the vector twins. */
    static final String VECTOR_PACKAGE = "dev.jtecs.kernels.vector";

    private static final System.Logger LOG = System.getLogger(KernelProvider.class.getName());
    private static final Choice CHOICE = decide(System.getProperty(PROPERTY), vectorModuleReadable(),
            System.getProperty("java.vm.info", ""));
    private static final ParticleOps PARTICLES = choose(ParticleOps.class, ParticleOps.SCALAR);
    private static final LifetimeOps LIFETIMES = choose(LifetimeOps.class, LifetimeOps.SCALAR);
    private static final ParticleStepOps PARTICLE_STEPS = choose(ParticleStepOps.class, ParticleStepOps.SCALAR);
    private static final TransformOps TRANSFORMS = choose(TransformOps.class, TransformOps.SCALAR);
    private static final LifetimeLerpOps LIFETIME_LERPS = choose(LifetimeLerpOps.class, LifetimeLerpOps.SCALAR);
    private static final FillOps FILLS = choose(FillOps.class, FillOps.SCALAR);
    private static final BoundsOps BOUNDS = choose(BoundsOps.class, BoundsOps.SCALAR);
    private static final SumOps SUMS = choose(SumOps.class, SumOps.SCALAR);

    static {
        if (CHOICE.mode() == KernelMode.SCALAR || CHOICE.reason().contains("ignored unknown")) {
            LOG.log(System.Logger.Level.WARNING, "jtecs kernels run " + CHOICE.mode() + ": " + CHOICE.reason());
        } else {
            LOG.log(System.Logger.Level.DEBUG, "jtecs kernels run vector: " + CHOICE.reason());
        }
    }

    private KernelProvider() {}

    /** The implementation this JVM runs. */
    public static KernelMode mode() {
        return CHOICE.mode();
    }

    /** Why {@link #mode()} was chosen, in words (the line that was logged). */
    public static String reason() {
        return CHOICE.reason();
    }

    /** The particle kernels of {@link #mode()}: one instance for the life of the JVM. */
    public static ParticleOps particles() {
        return PARTICLES;
    }

    /** The lifetime countdown of {@link #mode()}: one instance for the life of the JVM. */
    public static LifetimeOps lifetimes() {
        return LIFETIMES;
    }

    /** The fused particle step ({@link ParticleStep}) of {@link #mode()}: one instance for the life of the JVM. */
    public static ParticleStepOps particleSteps() {
        return PARTICLE_STEPS;
    }

    /** The transform kernels of {@link #mode()}: one instance for the life of the JVM. */
    public static TransformOps transforms() {
        return TRANSFORMS;
    }

    /** The lifetime interpolation ({@link OverLifetime}) of {@link #mode()}: one instance for the life of the JVM. */
    public static LifetimeLerpOps lifetimeLerps() {
        return LIFETIME_LERPS;
    }

    /** The fill kernels ({@link BatchFill}) of {@link #mode()}: one instance for the life of the JVM. */
    public static FillOps fills() {
        return FILLS;
    }

    /** The bounds reduction of {@link #mode()}: one instance for the life of the JVM. */
    public static BoundsOps bounds() {
        return BOUNDS;
    }

    /** The column sum of {@link #mode()}: one instance for the life of the JVM. */
    public static SumOps sums() {
        return SUMS;
    }

    /** {@code scalar} or, when the choice is vector, the vector twin of {@code ops}. */
    private static <T> T choose(Class<T> ops, T scalar) {
        return CHOICE.mode() == KernelMode.VECTOR ? vectorTwin(ops) : scalar; // loaded only here, once readable
    }

    /**
     * The vector twin of the ops interface {@code ops}: the {@code INSTANCE} of
     * {@code dev.jtecs.kernels.vector.Vector<ops' simple name>}, loaded and initialized by name.
     *
     * @throws IllegalStateException when there is no such class or field, or it holds no {@code ops}
     */
    static <T> T vectorTwin(Class<T> ops) {
        String name = VECTOR_PACKAGE + ".Vector" + ops.getSimpleName();
        try {
            Class<?> twin = Class.forName(name, true, KernelProvider.class.getClassLoader());
            return ops.cast(twin.getField("INSTANCE").get(null));
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalStateException("the vector twin of " + ops.getName() + " should be " + name
                    + ".INSTANCE", e);
        }
    }

    /** One decision and its reason. */
    record Choice(KernelMode mode, String reason) {}

    /**
     * The decision as a function of its inputs, so every branch can be tested in one JVM.
     *
     * @param property the value of {@code jtecs.kernels} ({@code null} when unset)
     * @param vectorReadable whether {@code jdk.incubator.vector} is in the boot layer and readable from here
     * @param vmInfo {@code java.vm.info}: HotSpot says {@code interpreted mode} under {@code -Xint} and
     *     {@code emulated-client} when C2 is off ({@code -XX:TieredStopAtLevel=1..3}, client emulation)
     */
    static Choice decide(String property, boolean vectorReadable, String vmInfo) {
        String requested = property == null ? "auto" : property.trim().toLowerCase(Locale.ROOT);
        if (requested.equals("scalar")) {
            return new Choice(KernelMode.SCALAR, "forced by -D" + PROPERTY + "=scalar");
        }
        String unknown = requested.equals("auto") || requested.isEmpty() ? ""
                : " (ignored unknown -D" + PROPERTY + "=" + property + "; use scalar or auto)";
        if (!vectorReadable) {
            return new Choice(KernelMode.SCALAR, "module jdk.incubator.vector is not readable (add "
                    + "--add-modules jdk.incubator.vector)" + unknown);
        }
        if (vmInfo.contains("interpreted mode")) {
            return new Choice(KernelMode.SCALAR, "the JIT is off (-Xint): vector code would run interpreted"
                    + unknown);
        }
        if (vmInfo.contains("emulated-client")) {
            return new Choice(KernelMode.SCALAR, "the C2 compiler is off (java.vm.info=" + vmInfo + "): vector code "
                    + "would not be intrinsified" + unknown);
        }
        return new Choice(KernelMode.VECTOR, "jdk.incubator.vector is readable and C2 is on" + unknown);
    }

    static boolean vectorModuleReadable() {
        return ModuleLayer.boot().findModule("jdk.incubator.vector")
                .map(KernelProvider.class.getModule()::canRead)
                .orElse(false);
    }
}
