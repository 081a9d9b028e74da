package dev.jtecs.builtin.systems;

import dev.jtecs.schedule.Phases;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.world.World;
import java.util.List;

/**
 * The systems every new world carries, registered through its scheduler right after the scheduler is created
 * ({@link #install}), before any system of yours, so each one leads its phase unless a system of yours asks to
 * run {@code before} it:
 *
 * <pre>
 *   frame:  FIRST, PRE_UPDATE,
 *           per fixed step: FIXED_PRE_UPDATE   jtecs.SnapshotTransforms   Transform2D -> PreviousTransform2D
 *                           FIXED_UPDATE
 *                           FIXED_POST_UPDATE  jtecs.TTL                  remaining -= step; despawn when spent
 *           UPDATE,
 *           POST_UPDATE                        jtecs.RelativeTransform2D  parent o offset -> Transform2D
 *           LAST, PRE_RENDER, RENDER, POST_RENDER
 * </pre>
 *
 * They are ordinary systems: {@code world.setSystemEnabled(name, false)} pauses one, {@code removeSystem(name)}
 * drops it, and the factories below give a fresh one to register again, in another phase if you like
 * ({@code world.addSystem(BuiltinSystems.ttl().phase(Phases.FIXED_UPDATE))}). Each body keeps per-world state
 * (a query, scratch arrays) and serves the first world it runs in; running it in a second world throws.
 */
public final class BuiltinSystems {
    /**
     * Copies {@link dev.jtecs.builtin.Transform2D} into {@link dev.jtecs.builtin.PreviousTransform2D} at the start
     * of every fixed step.
     */
    public static final String SNAPSHOT_TRANSFORMS = "jtecs.SnapshotTransforms";
    /** Counts {@link dev.jtecs.builtin.TTL} lifetimes down by the fixed step; despawns the spent ones. */
    public static final String TTL = "jtecs.TTL";
    /**
     * Composes {@link dev.jtecs.builtin.RelativeTransform2D} with the {@link dev.jtecs.builtin.ChildOf} parent's
     * transform, parents first.
     */
    public static final String RELATIVE_TRANSFORMS = "jtecs.RelativeTransform2D";

    /** The names, in the order {@link #install} registers them. */
    public static final List<String> NAMES = List.of(SNAPSHOT_TRANSFORMS, TTL, RELATIVE_TRANSFORMS);

    private BuiltinSystems() {}

    /** {@link #SNAPSHOT_TRANSFORMS} in {@code FIXED_PRE_UPDATE}, with a fresh body. */
    public static SystemConfig snapshotTransforms() {
        return SystemConfig.named(SNAPSHOT_TRANSFORMS).phase(Phases.FIXED_PRE_UPDATE)
                .run(new PreviousTransformCapture());
    }

    /** {@link #TTL} in {@code FIXED_POST_UPDATE}, with a fresh body. */
    public static SystemConfig ttl() {
        return SystemConfig.named(TTL).phase(Phases.FIXED_POST_UPDATE).run(new TtlCountdown());
    }

    /** {@link #RELATIVE_TRANSFORMS} in {@code POST_UPDATE}, with a fresh body. */
    public static SystemConfig relativeTransforms() {
        return SystemConfig.named(RELATIVE_TRANSFORMS).phase(Phases.POST_UPDATE)
                .run(new RelativeTransformComposer());
    }

    /**
     * Registers the three systems in {@code world}, in {@link #NAMES} order. Worlds call this when they are
     * created; call it yourself only for systems you removed (a name still registered makes it throw).
     *
     * @throws IllegalArgumentException when one of the names is taken or the world's pipeline lacks a phase;
     *     the systems registered before the failing one stay
     */
    public static void install(World world) {
        world.addSystem(snapshotTransforms());
        world.addSystem(ttl());
        world.addSystem(relativeTransforms());
    }

    /**
     * Removes whichever of the three systems are still registered in {@code world}, for a world that should
     * run only your systems. Returns how many it removed.
     */
    public static int remove(World world) {
        int removed = 0;
        for (String name : NAMES) {
            if (world.removeSystem(name)) {
                removed++;
            }
        }
        return removed;
    }
}
