package dev.jtecs.bench.transforms;

import dev.jtecs.bench.frame.DirtyExtractor;
import dev.jtecs.bench.frame.FrameKernels;
import dev.jtecs.bench.frame.FrameWorkload;
import dev.jtecs.bench.frame.KernelChoice;
import dev.jtecs.bench.frame.StateChecksum;
import dev.jtecs.builtin.systems.BuiltinSystems;
import dev.jtecs.builtin.ChildOf;
import dev.jtecs.builtin.RelativeTransform2D;
import dev.jtecs.builtin.Transform2D;
import dev.jtecs.component.Components;
import dev.jtecs.component.FieldHandle;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.kernels.ColumnKernel;
import dev.jtecs.kernels.HierarchyComposer;
import dev.jtecs.kernels.MotionKernels;
import dev.jtecs.kernels.vector.VectorParticleOps;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.query.QueryVisitor;
import dev.jtecs.random.Xoshiro128;
import dev.jtecs.schedule.Phases;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code transforms} workload on jtecs: N entities in {@code ChildOf} forests of complete trees,
 * {@value #LEVELS} levels deep with {@value #FAN_OUT} children per inner node ({@value #TREE_SIZE} entities per
 * tree; when N is not a multiple, the last tree holds the first nodes of one, breadth first). Roots hold a
 * {@link Transform2D} and a {@link RootMotion}; every other entity a {@link RelativeTransform2D} (and the
 * {@code Transform2D} it requires). A frame is one {@code world.update(FIXED_STEP)}:
 *
 * <pre>
 *   UPDATE       transforms.MoveRoots   fresh random velocities (bulk copies) ──► integrate2d kernel on the roots
 *   POST_UPDATE  composition(kernels)   world transforms composed parent first (HierarchyComposer kernels)
 *   RENDER       transforms.Extract     DirtyExtractor: dirty Transform2D columns ──► output buffer
 * </pre>
 *
 * <p>Nodes are numbered breadth first within each tree, trees one after another, so a parent always comes
 * before its children and one parent's children are consecutive; the roots are spawned in node order by one
 * {@code batchSpawn}, each parent's children by one {@code batchSpawn} (into one archetype for all children:
 * {@code ChildOf} is sparse, so siblings sit side by side, parents before children), all in one scope. Scene values come from {@code world.randomStream(SCENE_STREAM)},
 * root motion from {@code world.randomStream(MOTION_STREAM)}, after {@code world.seedRandom(seed)}.
 *
 * <p>Invariants: deterministic (the same N, seed and kernels give the same state after every frame; the kernel
 * choice does not change it, the integrate kernels being bit-for-bit twins); nothing is spawned or despawned
 * after construction.
 */
public final class TransformsSimulation implements FrameWorkload {
    /** Children per inner node. */
    public static final int FAN_OUT = 3;
    /** Levels per tree, the root's included. */
    public static final int LEVELS = 4;
    /** Entities per complete tree: 1 + 3 + 9 + 27. */
    public static final int TREE_SIZE = 40;
    /** The most entities a simulation takes. */
    public static final int MAX_ENTITIES = 1 << 24;
    /** Seconds per fixed step and per frame. */
    public static final double FIXED_STEP = 1.0 / 60.0;
    /** Root speeds lie in {@code [-ROOT_SPEED, ROOT_SPEED)} on each axis, drawn afresh every frame. */
    public static final float ROOT_SPEED = 30f;
    public static final String SCENE_STREAM = "bench.transforms.scene";
    public static final String MOTION_STREAM = "bench.transforms.motion";
    public static final String MOVE_ROOTS = "transforms.MoveRoots";
    public static final String EXTRACT = "transforms.Extract";

    /** A root's velocity this frame, units per second. */
    public record RootMotion(float vx, float vy) {}

    public static final NativeComponent<RootMotion> ROOT_MOTION =
            Components.registerNative(RootMotion.class, o -> o.name("bench.transforms.RootMotion"));
    public static final FloatField VX = ROOT_MOTION.floatField("vx");
    public static final FloatField VY = ROOT_MOTION.floatField("vy");

    /** What the extraction step copies: the world transform a renderer draws with. */
    public static final List<FieldHandle> EXTRACTED = List.of(Transform2D.X, Transform2D.Y, Transform2D.Z,
            Transform2D.LAYER, Transform2D.ROTATION, Transform2D.SCALE_X, Transform2D.SCALE_Y);
    /** Every column of the scene, in the order the checksum reads them. */
    public static final List<FieldHandle> STATE;

    static {
        List<FieldHandle> state = new ArrayList<>(EXTRACTED);
        state.addAll(List.of(RelativeTransform2D.X, RelativeTransform2D.Y, RelativeTransform2D.Z,
                RelativeTransform2D.ROTATION, RelativeTransform2D.SCALE_X, RelativeTransform2D.SCALE_Y,
                RelativeTransform2D.ORIGIN_X, RelativeTransform2D.ORIGIN_Y, VX, VY));
        STATE = List.copyOf(state);
    }

    private final ForestShape forest;
    private final World world;
    private final DirtyExtractor extractor;
    private final Query roots;
    private final FrameKernels kernelPasses;
    private final ColumnKernel integrate;
    private final Xoshiro128 motion;
    private final long[] ids;
    private float[] scratchVx = new float[0];
    private float[] scratchVy = new float[0];

    /**
     * Builds the forest (published on return) and registers the systems.
     *
     * @throws IllegalArgumentException unless {@code 1 <= entities <= MAX_ENTITIES}
     * @throws IllegalStateException for {@link KernelChoice#VECTOR} on a JVM without vector kernels
     */
    public TransformsSimulation(int entities, int seed, KernelChoice kernels) {
        this(entities, seed, kernels, 1);
    }

    /**
     * Builds the forest as {@link #TransformsSimulation(int, int, KernelChoice)} does, moving the roots on
     * {@code threads} threads ({@link FrameKernels}); the state does not depend on {@code threads}.
     *
     * @throws IllegalArgumentException unless {@code 1 <= entities <= MAX_ENTITIES} and
     *     {@code 1 <= threads <= FrameKernels.MAX_THREADS}
     */
    public TransformsSimulation(int entities, int seed, KernelChoice kernels, int threads) {
        if (entities < 1 || entities > MAX_ENTITIES) {
            throw new IllegalArgumentException("entities=" + entities + " outside 1.." + MAX_ENTITIES);
        }
        this.integrate = MotionKernels.integrate2d(kernels.particles(), Transform2D.X, Transform2D.Y, VX, VY);
        if (kernels == KernelChoice.VECTOR) {
            VectorParticleOps.warmUp();
        }
        this.forest = ForestShape.of(entities, FAN_OUT, LEVELS);
        this.kernelPasses = new FrameKernels(kernels, threads);
        this.extractor = new DirtyExtractor(EXTRACTED);
        this.world = World.create(WorldConfig.defaults().maxEntities(entities + 1024).timestep(FIXED_STEP));
        try {
            world.seedRandom(seed);
            this.motion = world.randomStream(MOTION_STREAM);
            this.roots = world.newQuery(QueryDescriptor.builder().include(Transform2D.COMPONENT, ROOT_MOTION)
                    .exclude(ChildOf.ANY).name("transforms.roots").build());
            this.ids = new ForestSpawner(forest, world.randomStream(SCENE_STREAM)).spawn(world, ROOT_MOTION);
            world.addSystem(SystemConfig.named(MOVE_ROOTS).phase(Phases.UPDATE).run((dt, w) -> moveRoots(dt)));
            installComposition(world, kernels);
            world.addSystem(SystemConfig.named(EXTRACT).phase(Phases.RENDER).run((dt, w) -> extractor.extract(w)));
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * The system that composes world transforms: the builtin {@code jtecs.RelativeTransform2D} today. This is
     * the one place to swap in another implementation (a kernel-backed composition) with the same contract:
     * every entity with {@code RelativeTransform2D} and a {@code ChildOf} parent gets
     * {@code parent.compose(offset)}, parents first, in {@code POST_UPDATE}.
     */
    static SystemConfig composition(KernelChoice kernels) {
        return BuiltinSystems.relativeTransforms().run(new HierarchyComposer(kernels.transforms()));
    }

    /** Replaces whatever composes transforms in {@code world} by {@link #composition}. */
    private static void installComposition(World world, KernelChoice kernels) {
        world.removeSystem(BuiltinSystems.RELATIVE_TRANSFORMS);
        world.addSystem(composition(kernels));
    }

    /** Draws every root a fresh velocity (bulk copies into its columns), then integrates the roots by kernel. */
    private void moveRoots(double dt) {
        roots.forEach(drawRootVelocities);
        kernelPasses.run(roots, integrate, (float) dt);
    }

    // made once: a lambda that reads this simulation's fields is a new object at each evaluation, 16 bytes a frame
    private final QueryVisitor drawRootVelocities = this::drawRootVelocities;

    /** One archetype of roots: fresh velocities drawn in row order and copied into its columns. */
    private void drawRootVelocities(Archetype archetype, int count) {
        if (scratchVx.length < count) {
            scratchVx = new float[count];
            scratchVy = new float[count];
        }
        drawVelocities(motion, scratchVx, scratchVy, count);
        MemorySegment.copy(scratchVx, 0, archetype.getMut(VX).segment(), ValueLayout.JAVA_FLOAT, 0, count);
        MemorySegment.copy(scratchVy, 0, archetype.getMut(VY).segment(), ValueLayout.JAVA_FLOAT, 0, count);
    }

    /**
     * The roots' velocities of one frame, in row order: for each row, vx then vy, uniform in
     * {@code [-ROOT_SPEED, ROOT_SPEED)}. Public so that a reference implementation draws the same numbers.
     */
    public static void drawVelocities(Xoshiro128 random, float[] vx, float[] vy, int count) {
        for (int i = 0; i < count; i++) {
            vx[i] = (random.nextFloat() * 2 - 1) * ROOT_SPEED;
            vy[i] = (random.nextFloat() * 2 - 1) * ROOT_SPEED;
        }
    }

    @Override
    public String name() {
        return "transforms";
    }

    /** Runs one frame: {@code world.update(FIXED_STEP)}. */
    @Override
    public void frame() {
        world.update(FIXED_STEP);
    }

    /** The shape of the forest: parents by node index. */
    public ForestShape forest() {
        return forest;
    }

    /** The entity of node {@code node}. */
    public long id(int node) {
        return ids[node];
    }

    @Override
    public int liveCount() {
        return world.entityCount();
    }

    @Override
    public long spawned() {
        return 0;
    }

    @Override
    public long expired() {
        return 0;
    }

    @Override
    public DirtyExtractor extractor() {
        return extractor;
    }

    @Override
    public long nativeBytes() {
        return world.nativeBytesReserved() + extractor.bytesReserved();
    }

    @Override
    public long checksum() {
        return StateChecksum.of(world, STATE);
    }

    /** The world, for tests and tools that look inside. */
    public World world() {
        return world;
    }

    @Override
    public void close() {
        extractor.close();
        world.close();
        kernelPasses.close();
    }
}
