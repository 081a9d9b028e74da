package dev.jtecs.kernels;

import java.util.Locale;

/**
 * Picks, once per JVM, whether kernels run their vector implementation or their scalar twin, and says why.
 *
 * <p>Vector when {@code jdk.incubator.vector} is readable from this module and the C2 compiler is on (without
 * C2 every vector is a heap object and the vector kernels run tens of times slower than the scalar ones);
 * otherwise scalar, with the reason logged once at {@code WARNING}. {@code -Djtecs.kernels=scalar} forces the
 * scalar twins (tests, comparisons); {@code auto} or no value lets the checks decide. The choice is made in the
 * class initializer and never changes: {@link #particles()}, {@link #lifetimes()}, {@link #transforms()},
 * {@link #lifetimeLerps()}, {@link #fills()} and {@link #bounds()} always return the same instances.
 */
public final class KernelProvider {
    /** The system property that forces the scalar twins: {@code -Djtecs.kernels=scalar}. */
    public static final String PROPERTY = "jtecs.kernels";

    private static final System.Logger LOG = System.getLogger(KernelProvider.class.getName());
    private static final Choice CHOICE = decide(System.getProperty(PROPERTY), vectorModuleReadable(),
            System.getProperty("java.vm.info", ""));
    private static final ParticleOps PARTICLES = CHOICE.mode() == KernelMode.VECTOR
            ? new VectorParticleOps() // loaded only here, once the module is known to be readable
            : ParticleOps.SCALAR;
    private static final LifetimeOps LIFETIMES = CHOICE.mode() == KernelMode.VECTOR
            ? new VectorLifetimeOps()
            : LifetimeOps.SCALAR;
    private static final TransformOps TRANSFORMS = CHOICE.mode() == KernelMode.VECTOR
            ? new VectorTransformOps()
            : TransformOps.SCALAR;
    private static final LifetimeLerpOps LIFETIME_LERPS = CHOICE.mode() == KernelMode.VECTOR
            ? new VectorLifetimeLerpOps()
            : LifetimeLerpOps.SCALAR;
    private static final FillOps FILLS = CHOICE.mode() == KernelMode.VECTOR
            ? new VectorFillOps()
            : FillOps.SCALAR;
    private static final BoundsOps BOUNDS = CHOICE.mode() == KernelMode.VECTOR
            ? new VectorBoundsOps()
            : BoundsOps.SCALAR;

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
