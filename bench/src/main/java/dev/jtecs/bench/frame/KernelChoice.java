package dev.jtecs.bench.frame;

import dev.jtecs.kernels.KernelMode;
import dev.jtecs.kernels.KernelProvider;
import dev.jtecs.kernels.LifetimeOps;
import dev.jtecs.kernels.ParticleOps;
import dev.jtecs.kernels.ParticleStepOps;
import dev.jtecs.kernels.TransformOps;
import java.util.Locale;

/**
 * Which kernel implementation a job runs: the Vector API kernels or their scalar twins. The scalar twins are
 * always there; the vector kernels only when {@link KernelProvider} chose them for this JVM (the module
 * {@code jdk.incubator.vector} readable, C2 on), so {@link #particles()} and {@link #lifetimes()} refuse
 * {@link #VECTOR} otherwise rather than run the twins under the wrong name.
 */
public enum KernelChoice {
    /** The scalar twins ({@link ParticleOps#SCALAR}, {@link LifetimeOps#SCALAR}). */
    SCALAR,
    /** The Vector API kernels the provider picked. */
    VECTOR;

    /** The lower-case name the command line takes: {@code scalar} or {@code vector}. */
    public String optionValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The choice named {@code scalar} or {@code vector} (any case).
     *
     * @throws IllegalArgumentException for any other text, naming it and the accepted values
     */
    public static KernelChoice parse(String text) {
        String value = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        for (KernelChoice choice : values()) {
            if (choice.optionValue().equals(value)) {
                return choice;
            }
        }
        throw new IllegalArgumentException("kernels must be scalar or vector, got '" + text + "'");
    }

    /** Whether this JVM can run the choice: scalar always, vector when the provider runs vectors. */
    public boolean isAvailable() {
        return this == SCALAR || KernelProvider.mode() == KernelMode.VECTOR;
    }

    /** The particle kernels of this choice. */
    public ParticleOps particles() {
        requireAvailable();
        return this == SCALAR ? ParticleOps.SCALAR : KernelProvider.particles();
    }

    /** The fused particle step ({@link dev.jtecs.kernels.ParticleStep}) of this choice. */
    public ParticleStepOps particleSteps() {
        requireAvailable();
        return this == SCALAR ? ParticleStepOps.SCALAR : KernelProvider.particleSteps();
    }

    /** The transform kernels (affine matrices, hierarchy composition) of this choice. */
    public TransformOps transforms() {
        requireAvailable();
        return this == SCALAR ? TransformOps.SCALAR : KernelProvider.transforms();
    }

    /** The lifetime countdown of this choice. */
    public LifetimeOps lifetimes() {
        requireAvailable();
        return this == SCALAR ? LifetimeOps.SCALAR : KernelProvider.lifetimes();
    }

    /**
     * @throws IllegalStateException for {@link #VECTOR} on a JVM that runs the scalar twins, with the provider's
     *     reason
     */
    public void requireAvailable() {
        if (!isAvailable()) {
            throw new IllegalStateException("vector kernels are not available in this JVM ("
                    + KernelProvider.reason() + "); use --kernels scalar");
        }
    }
}
