package dev.jtecs.kernels;

import dev.jtecs.builtin.systems.BuiltinSystems;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.world.World;
import java.util.Objects;

/**
 * Puts kernel bodies under the builtin systems: {@link BuiltinSystems#TTL} runs {@link LifetimeSystem} and
 * {@link BuiltinSystems#RELATIVE_TRANSFORMS} runs {@link HierarchyComposer}, under the same names, in the same
 * phases and places, with the same results bit for bit. Core cannot depend on this module, so a world starts with
 * the builtin bodies and {@link #install} swaps them in place ({@link World#replaceSystemBody}): systems
 * registered since keep their order relative to them, and so do run conditions, ordering constraints and
 * enabled state.
 *
 * <pre>
 *   World.create()           jtecs.TTL ─ TtlCountdown          jtecs.RelativeTransform2D ─ RelativeTransformComposer
 *   KernelSystems.install(w) jtecs.TTL ─ LifetimeSystem        jtecs.RelativeTransform2D ─ HierarchyComposer
 * </pre>
 *
 * <p>{@code jtecs.SnapshotTransforms} keeps its builtin body: it is already one bulk comparison and one bulk copy
 * per column.
 */
public final class KernelSystems {
    private KernelSystems() {}

    /**
     * Swaps the bodies of {@code jtecs.TTL} and {@code jtecs.RelativeTransform2D} in {@code world} for kernel
     * bodies running {@code lifetimes} and {@code transforms}. A system the world no longer has (removed by
     * you) stays absent; register a kernel one with {@link #ttl()} or {@link #relativeTransforms()}.
     *
     * @return how many of the two systems got a kernel body
     * @throws UnsupportedOperationException when the world's custom pipeline cannot swap bodies (nothing changed)
     */
    public static int install(World world, LifetimeOps lifetimes, TransformOps transforms) {
        Objects.requireNonNull(world, "world");
        Objects.requireNonNull(lifetimes, "lifetimes");
        Objects.requireNonNull(transforms, "transforms");
        int replaced = 0;
        if (world.replaceSystemBody(BuiltinSystems.TTL, new LifetimeSystem(lifetimes))) {
            replaced++;
        }
        if (world.replaceSystemBody(BuiltinSystems.RELATIVE_TRANSFORMS, new HierarchyComposer(transforms))) {
            replaced++;
        }
        return replaced;
    }

    /** {@link #install(World, LifetimeOps, TransformOps)} with the provider's kernels. */
    public static int install(World world) {
        return install(world, KernelProvider.lifetimes(), KernelProvider.transforms());
    }

    /** {@link BuiltinSystems#ttl()} (name, phase) with a fresh {@link LifetimeSystem} body. */
    public static SystemConfig ttl() {
        return BuiltinSystems.ttl().run(new LifetimeSystem());
    }

    /** {@link BuiltinSystems#relativeTransforms()} (name, phase) with a fresh {@link HierarchyComposer} body. */
    public static SystemConfig relativeTransforms() {
        return BuiltinSystems.relativeTransforms().run(new HierarchyComposer());
    }
}
