package dev.jtecs.bench.jmh;

import dev.jtecs.builtin.ChildOf;
import dev.jtecs.builtin.RelativeTransform2D;
import dev.jtecs.builtin.Transform2D;
import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.kernels.KernelSystems;
import dev.jtecs.kernels.vector.VectorTransformOps;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.query.QueryVisitor;
import dev.jtecs.schedule.Phases;
import dev.jtecs.schedule.SystemBody;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * {@code transforms}: N entities in {@code ChildOf} forests of complete trees, {@value #LEVELS} levels deep with
 * {@value #FAN_OUT} children per inner node ({@value #TREE_SIZE} entities per tree, as in
 * {@link HierarchyTraversalBenchmark}). Every child holds a {@link RelativeTransform2D} with a random offset,
 * rotation and scale; every root holds a {@link Transform2D} and a random {@link Motion}. One operation is one
 * frame: every root moves ({@code x += vx * DT}, {@code y += vy * DT}, {@code rotation += spin * DT}), then
 * every child's world {@code Transform2D} is composed from its parent's, parents first. ns per entity = time / N.
 *
 * <ul>
 *   <li>{@code jtecsFrame}: {@code world.update(DT)} on a world with one system of ours in {@code UPDATE} that
 *       moves the roots through a query and the column views, and the builtin systems doing the rest (the
 *       composition in {@code POST_UPDATE}; the capture and TTL systems run their fixed step over empty
 *       queries). The whole frame is measured: the dispatch, its barriers, clearing dirty bits.
 *   <li>{@code jtecsKernelFrame}: the same world and frame with {@link KernelSystems#install} applied: the
 *       composition runs {@link dev.jtecs.kernels.HierarchyComposer} (a plan cached against
 *       {@code World.structureVersion()}, the {@code compose2d} kernel per archetype) instead of the builtin body.
 *       Bit for bit the same results (checked in the test).
 *   <li>{@code plainFrame}: the baseline, the same frame over plain {@code float[]}/{@code int[]} arrays with
 *       parent indices ({@link Forest}): move the roots, then for each node in index order (parents before
 *       children) compose its consecutive children, with the parent's cosine and sine taken once, exactly as
 *       {@link Transform2D#compose} defines it. Bit for bit the same results (checked in the test).
 * </ul>
 *
 * No peer engine runs here: none of them has a hierarchy or a transform composition of its own.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Thread)
public class TransformsBenchmark {
    static final int FAN_OUT = Forest.TRANSFORMS_FAN_OUT;
    static final int LEVELS = Forest.TRANSFORMS_LEVELS;
    static final int TREE_SIZE = Forest.TRANSFORMS_TREE_SIZE;
    static final float DT = 1 / 60f;
    static final long SEED = 0x7F4A7C15L;

    /** A root's velocity and spin, per second. */
    public record Motion(float vx, float vy, float spin) {}

    static final NativeComponent<Motion> MOTION =
            Components.registerNative(Motion.class, o -> o.name("bench.transforms.Motion"));
    static final FloatField VX = MOTION.floatField("vx");
    static final FloatField VY = MOTION.floatField("vy");
    static final FloatField SPIN = MOTION.floatField("spin");

    @Param({"10000", "100000"})
    public int entities;

    Forest forest;
    private int[] roots;

    // The scene, by node index: roots' start poses and motion, children's offsets.
    private Transform2D[] startPose;
    private Motion[] motion;
    private RelativeTransform2D[] offset;

    // The baseline's arrays, by node index.
    float[] x;
    float[] y;
    float[] z;
    int[] layer;
    float[] rotation;
    float[] scaleX;
    float[] scaleY;
    private float[] vx;
    private float[] vy;
    private float[] spin;
    private float[] rx;
    private float[] ry;
    private float[] rz;
    private float[] rr;
    private float[] rsx;
    private float[] rsy;

    World world;
    long[] ids;
    World kernelWorld;
    long[] kernelIds;

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        setUp(EngineUnderTest.of(params));
    }

    /** Builds the scene, the plain arrays, and the world when {@code selected} measures jtecs. */
    void setUp(String selected) {
        forest = Forest.transformsShaped(entities);
        roots = forest.roots();
        makeScene(new SplittableRandom(SEED));
        fillArrays();
        if (EngineUnderTest.needs(selected, "jtecsFrame")) {
            world = World.create(WorldConfig.defaults().maxEntities(entities + 1).timestep(DT));
            ids = spawnInto(world);
            world.addSystem(SystemConfig.named("bench.MoveRoots").phase(Phases.UPDATE).run(new MoveRoots(world)));
            world.update(0); // compiles the schedule and composes once, outside the measurement; no root moves
        }
        if (EngineUnderTest.needs(selected, "jtecsKernel")) {
            VectorTransformOps.warmUp(); // the kernels' first frames would otherwise run before C2 compiled them
            kernelWorld = World.create(WorldConfig.defaults().maxEntities(entities + 1).timestep(DT));
            KernelSystems.install(kernelWorld);
            kernelIds = spawnInto(kernelWorld);
            kernelWorld.addSystem(SystemConfig.named("bench.MoveRoots").phase(Phases.UPDATE)
                    .run(new MoveRoots(kernelWorld)));
            kernelWorld.update(0); // builds the composition plan outside the measurement
        }
    }

    private void makeScene(SplittableRandom random) {
        int n = forest.nodes();
        startPose = new Transform2D[n];
        motion = new Motion[n];
        offset = new RelativeTransform2D[n];
        for (int i = 0; i < n; i++) {
            if (forest.parent[i] < 0) {
                float scale = 0.5f + random.nextFloat();
                startPose[i] = new Transform2D(f(random, 1000), f(random, 1000), f(random, 1), random.nextInt(4),
                        f(random, 3.14f), scale, scale);
                motion[i] = new Motion(f(random, 50), f(random, 50), f(random, 2));
            } else {
                offset[i] = new RelativeTransform2D(f(random, 20), f(random, 20), f(random, 0.1f),
                        f(random, 1.5f), 0.8f + 0.4f * random.nextFloat(), 0.8f + 0.4f * random.nextFloat(), 0, 0);
            }
        }
    }

    private static float f(SplittableRandom random, float range) {
        return (float) random.nextDouble(-range, range);
    }

    private void fillArrays() {
        int n = forest.nodes();
        x = new float[n];
        y = new float[n];
        z = new float[n];
        layer = new int[n];
        rotation = new float[n];
        scaleX = new float[n];
        scaleY = new float[n];
        vx = new float[n];
        vy = new float[n];
        spin = new float[n];
        rx = new float[n];
        ry = new float[n];
        rz = new float[n];
        rr = new float[n];
        rsx = new float[n];
        rsy = new float[n];
        for (int i = 0; i < n; i++) {
            if (startPose[i] != null) {
                Transform2D t = startPose[i];
                x[i] = t.x();
                y[i] = t.y();
                z[i] = t.z();
                layer[i] = t.layer();
                rotation[i] = t.rotation();
                scaleX[i] = t.scaleX();
                scaleY[i] = t.scaleY();
                vx[i] = motion[i].vx();
                vy[i] = motion[i].vy();
                spin[i] = motion[i].spin();
            } else {
                RelativeTransform2D o = offset[i];
                rx[i] = o.x();
                ry[i] = o.y();
                rz[i] = o.z();
                rr[i] = o.rotation();
                rsx[i] = o.scaleX();
                rsy[i] = o.scaleY();
            }
        }
    }

    /**
     * Spawns the scene at scope depth 0: each root with {@code spawn}, then the children of each parent with one
     * {@code batchSpawn} whose initializer writes their offsets (all children in one archetype: {@code ChildOf} is
     * sparse). Returns the id of every node by index.
     */
    private long[] spawnInto(World w) {
        long[] out = new long[forest.nodes()];
        for (int root : roots) {
            out[root] = w.spawn(Transform2D.COMPONENT.of(startPose[root]), MOTION.of(motion[root]));
        }
        for (int p = 0; p < forest.nodes(); p++) {
            int count = forest.childCount[p];
            if (count == 0) {
                continue;
            }
            int first = forest.firstChild[p];
            long[] batch = w.batchSpawn(count, List.of(ChildOf.COMPONENT.to(out[p]), RelativeTransform2D.COMPONENT),
                    (archetype, fromRow, toRow) -> {
                        for (int row = fromRow; row < toRow; row++) {
                            archetype.set(row, RelativeTransform2D.COMPONENT.of(offset[first + row - fromRow]));
                        }
                    }).toArray();
            System.arraycopy(batch, 0, out, first, count);
        }
        return out;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (world != null) {
            world.close();
        }
        if (kernelWorld != null) {
            kernelWorld.close();
        }
    }

    @Benchmark
    public void jtecsFrame() {
        world.update(DT);
    }

    @Benchmark
    public void jtecsKernelFrame() {
        kernelWorld.update(DT);
    }

    @Benchmark
    public void plainFrame() {
        float[] x = this.x;
        float[] y = this.y;
        float[] rotation = this.rotation;
        for (int root : roots) {
            x[root] += vx[root] * DT;
            y[root] += vy[root] * DT;
            rotation[root] += spin[root] * DT;
        }
        int[] firstChild = forest.firstChild;
        int[] childCount = forest.childCount;
        for (int p = 0; p < firstChild.length; p++) {
            int count = childCount[p];
            if (count > 0) {
                composeChildren(p, firstChild[p], firstChild[p] + count);
            }
        }
    }

    /** {@link Transform2D#compose} for children {@code [from, to)} of {@code p}, over the plain arrays. */
    private void composeChildren(int p, int from, int to) {
        float px = x[p];
        float py = y[p];
        float pz = z[p];
        int pl = layer[p];
        float pr = rotation[p];
        float psx = scaleX[p];
        float psy = scaleY[p];
        float c = (float) Math.cos(pr);
        float s = (float) Math.sin(pr);
        for (int i = from; i < to; i++) {
            float lx = psx * rx[i];
            float ly = psy * ry[i];
            x[i] = px + (c * lx - s * ly);
            y[i] = py + (s * lx + c * ly);
            z[i] = pz + rz[i];
            layer[i] = pl;
            rotation[i] = pr + rr[i];
            scaleX[i] = psx * rsx[i];
            scaleY[i] = psy * rsy[i];
        }
    }

    /** The roots' motion, as a system: a query over roots with {@link Motion}, columns in bulk. */
    static final class MoveRoots implements SystemBody {
        private final Query roots;
        private final QueryVisitor move = this::move;
        private float step;

        MoveRoots(World world) {
            roots = world.newQuery(QueryDescriptor.builder().include(Transform2D.COMPONENT, MOTION)
                    .exclude(ChildOf.ANY).build());
        }

        @Override
        public void run(double dt, World world) {
            step = (float) dt;
            roots.forEach(move);
        }

        private void move(Archetype archetype, int count) {
            float dt = step;
            FloatColumn x = archetype.getMut(Transform2D.X);
            FloatColumn y = archetype.getMut(Transform2D.Y);
            FloatColumn r = archetype.getMut(Transform2D.ROTATION);
            FloatColumn vx = archetype.get(VX);
            FloatColumn vy = archetype.get(VY);
            FloatColumn spin = archetype.get(SPIN);
            for (int row = 0; row < count; row++) {
                x.set(row, x.get(row) + vx.get(row) * dt);
                y.set(row, y.get(row) + vy.get(row) * dt);
                r.set(row, r.get(row) + spin.get(row) * dt);
            }
        }
    }
}
