package dev.jtecs.bench.jmh;

import dev.jtecs.bench.frame.KernelChoice;
import dev.jtecs.bench.particles.ParticleSimulation;
import dev.jtecs.bench.particles.Particles;
import dev.jtecs.bench.view.WorkloadScene;
import dev.jtecs.builtin.TTL;
import dev.jtecs.nativebindings.GlContext;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.openjdk.jmh.annotations.AuxCounters;
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

/**
 * {@code upload}: the particles frame of {@code jtecs view} ({@link WorkloadScene}) with its drawn columns (x, y,
 * {@code TTL.remaining}, {@code TTL.startingTime}: 24 bytes a particle) sent into OpenGL buffers by
 * {@code glBufferSubData} from the column addresses, in one of three ways ({@code @Param upload}):
 *
 * <ul>
 *   <li>{@code dirty}: the {@link dev.jtecs.nativebindings.DirtyUploader} as the viewer runs it: dirty
 *       columns only, and only the residue's rows where it describes the change;
 *   <li>{@code full}: every drawn column of every archetype, every frame (a renderer without dirty tracking);
 *   <li>{@code none}: no upload system at all: the frame alone, to subtract.
 * </ul>
 *
 * One operation of {@code particlesFrame} is one frame; {@code uploadOnly} is the upload step alone, after
 * marking what the frame's kernels mark. The {@code bytes} counter is what one operation uploaded. The context is Mesa's
 * llvmpipe behind GLFW's null platform (EGL, no display needed), so an upload is a copy by the driver on the
 * CPU: this measures what the engine hands over, not a GPU's transfer. Nothing is drawn. Outside the suite: run
 * it with plain JMH ({@code org.openjdk.jmh.Main UploadBenchmark -prof gc}).
 *
 * <p>What to expect: in this frame every drawn column is written (integration moves every particle, the
 * countdown touches every lifetime) and about 1% of the rows are swap-removed, far more than the residue holds,
 * so {@code dirty} sends what {@code full} sends; the difference between them is the cost of deciding.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Thread)
public class UploadBenchmark {
    static final int SEED = 42;

    @Param({"1048576"})
    public int entities;

    @Param({"dirty", "full", "none"})
    public String upload;

    GlContext context;
    WorkloadScene scene;
    ParticleSimulation particles;
    private final Consumer<Archetype> markDrawn = this::markDrawn;
    private final Consumer<Archetype> clear = Archetype::clearDirtyComponents;

    /** The bytes the frames of one iteration uploaded (an operations counter: bytes per frame in the results). */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class Uploaded {
        public long bytes;

        @Setup(Level.Iteration)
        public void reset() {
            bytes = 0;
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        if (!upload.equals("dirty") && !upload.equals("full") && !upload.equals("none")) {
            throw new IllegalArgumentException("upload=" + upload + ": dirty, full or none");
        }
        context = GlContext.open(GlContext.Surface.OFFSCREEN, 16, 16, "UploadBenchmark");
        try {
            particles = new ParticleSimulation(entities, SEED, KernelChoice.VECTOR);
            scene = new WorkloadScene(particles, 1280, 720, upload.equals("full"));
            if (upload.equals("none")) {
                particles.world().removeSystem(WorkloadScene.UPLOAD);
            }
            scene.frame(); // the first frame sends the initial population whole: not what a warm frame does
        } catch (RuntimeException e) {
            tearDown();
            throw e;
        }
    }

    @Benchmark
    public long particlesFrame(Uploaded uploaded) {
        scene.frame();
        long bytes = scene.lastUploadBytes();
        uploaded.bytes += bytes;
        return bytes;
    }

    /**
     * The upload alone, without the simulation: the drawn components of every particle archetype are marked
     * written (what the frame's kernels mark), then {@code dirty} uploads, {@code full} uploads everything, and
     * {@code none} only marks. Isolates the upload's time and its allocation ({@code -prof gc}) from the frame's.
     */
    @Benchmark
    public long uploadOnly(Uploaded uploaded) {
        World world = particles.world();
        world.forEachArchetype(markDrawn);
        long bytes = switch (upload) {
            case "dirty" -> scene.uploader().upload(world);
            case "full" -> scene.uploader().uploadEverything(world);
            default -> 0;
        };
        if (bytes == 0) {
            world.forEachArchetype(clear); // what the uploads do: the next operation starts clean too
        }
        uploaded.bytes += bytes;
        return bytes;
    }

    private void markDrawn(Archetype archetype) {
        if (archetype.has(Particles.POSITION) && archetype.has(TTL.COMPONENT)) {
            archetype.markComponentDirty(Particles.POSITION);
            archetype.markComponentDirty(TTL.COMPONENT);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        try {
            if (scene != null) {
                scene.close();
            }
        } finally {
            if (context != null) {
                context.close();
            }
        }
    }
}
