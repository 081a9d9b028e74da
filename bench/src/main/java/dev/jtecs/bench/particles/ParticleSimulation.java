package dev.jtecs.bench.particles;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.VELOCITY;
import static dev.jtecs.bench.particles.Particles.VX;
import static dev.jtecs.bench.particles.Particles.VY;
import static dev.jtecs.bench.particles.Particles.X;
import static dev.jtecs.bench.particles.Particles.Y;

import dev.jtecs.bench.frame.DirtyExtractor;
import dev.jtecs.bench.frame.FrameKernels;
import dev.jtecs.bench.frame.FrameWorkload;
import dev.jtecs.bench.frame.KernelChoice;
import dev.jtecs.bench.frame.StateChecksum;
import dev.jtecs.builtin.systems.BuiltinSystems;
import dev.jtecs.builtin.TTL;
import dev.jtecs.component.FieldHandle;
import dev.jtecs.component.Input;
import dev.jtecs.kernels.ColumnKernel;
import dev.jtecs.kernels.MotionKernels;
import dev.jtecs.kernels.ParticleOps;
import dev.jtecs.kernels.vector.VectorParticleOps;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.schedule.Phases;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.storage.Archetype;
import dev.jtecs.mutation.BatchCallback;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * The {@code particles} workload on jtecs: N particles (Position, Velocity, the builtin {@link TTL}), and a frame
 * that is one {@code world.update(FIXED_STEP)} running these systems (the rules are {@link ParticleRules}):
 *
 * <pre>
 *   FIXED_UPDATE       particles.Gravity    FrameKernels + MotionKernels.gravity     vy += g * dt
 *                      particles.Damping    FrameKernels + MotionKernels.damping     v *= pow(retain, dt)
 *                      particles.Integrate  FrameKernels + MotionKernels.integrate2d pos += v * dt
 *   FIXED_POST_UPDATE  particles.Lifetimes  FrameKernels countdown: TTL.remaining -= step, spent ids ──► despawn (one scope)
 *                      particles.Respawn    one batchSpawn of as many particles (ids into a kept buffer), columns
 *                                           filled by bulk copies
 *   RENDER             particles.Extract    DirtyExtractor: dirty x, y, startingTime, remaining ──► output buffer
 * </pre>
 *
 * That is the {@link Passes#SEPARATE} frame. The {@link Passes#FUSED} frame (the default) runs the first four
 * as one pass, {@link FrameKernels#particleStep} ({@code ParticleStep}, one read and one write of each column),
 * and despawns what it found spent in {@code particles.Lifetimes}:
 *
 * <pre>
 *   FIXED_UPDATE       particles.Step       gravity, damping, integrate, countdown per row; spent ids collected
 *   FIXED_POST_UPDATE  particles.Lifetimes  spent ids ──► despawn (one scope)
 *                      particles.Respawn, then RENDER particles.Extract, as above
 * </pre>
 *
 * Both give the same state bit for bit and the same dirty marks (Position, Velocity, TTL on the archetype).
 * The extraction stays a pass of its own: the despawns and the burst between the step and it move and add rows,
 * so rows written by the step are not yet the rows the consumer must see; it is bulk copies of whole columns,
 * which on more than one thread run as pieces on the kernels' workers ({@link dev.jtecs.bench.frame.ParallelCopies}).
 *
 * <p>The builtin {@code jtecs.TTL} system is removed: {@code particles.Lifetimes} is its kernel form, with the same
 * rule. Spawn values come from {@code world.randomStream(RANDOM_STREAM)} after {@code world.seedRandom(seed)},
 * through a {@link ParticleEmitter}; the initial population is one {@code batchSpawn} too.
 *
 * <p>Invariants: the population stays at N after every frame (a frame respawns exactly what it despawned);
 * deterministic: the same N, seed and kernels give the same state after every frame, and since the vector
 * kernels are bit-for-bit twins of the scalar ones, the kernel choice does not change the state either.
 *
 * @implNote A warm frame allocates nothing, whatever N: the burst's ids go into a buffer the simulation keeps,
 *     the world refills the burst's batch descriptor from the last one it published, the countdown despawns its
 *     list in one bulk call, and the extraction visits the dirty archetypes without listing them. Scratch arrays (the emitter's, the
 *     countdown's, the id buffer) grow to the largest burst and stay.
 */
public final class ParticleSimulation implements FrameWorkload {
    /** How a frame runs its kernels: one pass per kernel, or the fused step. The state does not depend on it. */
    public enum Passes {
        /** Gravity, damping, integration and the countdown as four passes, each a system of its own. */
        SEPARATE,
        /** The four fused into one pass per archetype ({@code ParticleStep}). */
        FUSED;

        /** The lower-case name the command line takes. */
        public String optionValue() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The most particles a simulation takes. */
    public static final int MAX_ENTITIES = 1 << 26;
    /** The random stream the particles are drawn from. */
    public static final String RANDOM_STREAM = "bench.particles.emitter";

    public static final String STEP = "particles.Step";
    public static final String GRAVITY = "particles.Gravity";
    public static final String DAMPING = "particles.Damping";
    public static final String INTEGRATE = "particles.Integrate";
    public static final String LIFETIMES = "particles.Lifetimes";
    public static final String RESPAWN = "particles.Respawn";
    public static final String EXTRACT = "particles.Extract";

    /** What the extraction step copies: what a renderer draws a particle with. */
    public static final List<FieldHandle> EXTRACTED = List.of(X, Y, TTL.STARTING_TIME, TTL.REMAINING);
    /** Every column of a particle, in the order the checksum reads them. */
    public static final List<FieldHandle> STATE = List.of(X, Y, VX, VY, TTL.STARTING_TIME, TTL.REMAINING);

    private static final List<Input> SIGNATURE = List.of(POSITION, VELOCITY, TTL.COMPONENT);
    private static final int INITIAL_CHUNK = 1 << 16;

    private final int entities;
    private final KernelChoice kernels;
    private final Passes passes;
    private final World world;
    private final Query particles;
    private final ParticleEmitter emitter;
    private final DirtyExtractor extractor;
    private final FrameKernels kernelPasses;
    private final BatchCallback fillInitial = this::fillInitial;
    private final BatchCallback fillBurst = this::fillBurst;
    private long[] burstIds = new long[0]; // the ids of the last burst, refilled by every batchSpawn
    private int burstCursor;
    private int expiredThisFrame;
    private long spawned;
    private long expired;

    /**
     * Builds the world, registers the systems and spawns {@code entities} particles (published on return).
     *
     * @throws IllegalArgumentException unless {@code 1 <= entities <= MAX_ENTITIES}
     * @throws IllegalStateException for {@link KernelChoice#VECTOR} on a JVM without vector kernels
     */
    public ParticleSimulation(int entities, int seed, KernelChoice kernels) {
        this(entities, seed, kernels, 1);
    }

    /**
     * Builds the world as {@link #ParticleSimulation(int, int, KernelChoice)} does, running the kernels on
     * {@code threads} threads ({@link FrameKernels}); the state does not depend on {@code threads}.
     *
     * @throws IllegalArgumentException unless {@code 1 <= entities <= MAX_ENTITIES} and
     *     {@code 1 <= threads <= FrameKernels.MAX_THREADS}
     */
    public ParticleSimulation(int entities, int seed, KernelChoice kernels, int threads) {
        this(entities, seed, kernels, threads, null);
    }

    /**
     * Builds the world as {@link #ParticleSimulation(int, int, KernelChoice, int)} does, but when {@code load} is
     * given starts from that saved world (a binary snapshot, see {@link #save}) instead of spawning: its
     * particles, ids, random stream and fixed-step remainder, so the frames that follow are those that followed
     * the save. {@code entities} sizes the world and must be at least the saved particle count.
     *
     * @throws dev.jtecs.snapshot.InvalidSnapshotException when the file is not a particles snapshot this world
     *     can hold
     */
    public ParticleSimulation(int entities, int seed, KernelChoice kernels, int threads, java.nio.file.Path load) {
        this(entities, seed, kernels, threads, load, Passes.FUSED);
    }

    /**
     * Builds the world as {@link #ParticleSimulation(int, int, KernelChoice, int, java.nio.file.Path)} does, with
     * the kernels run as {@code passes} says; the state does not depend on it.
     */
    public ParticleSimulation(int entities, int seed, KernelChoice kernels, int threads, java.nio.file.Path load,
            Passes passes) {
        if (entities < 1 || entities > MAX_ENTITIES) {
            throw new IllegalArgumentException("entities=" + entities + " outside 1.." + MAX_ENTITIES);
        }
        ParticleOps ops = kernels.particles();
        if (kernels == KernelChoice.VECTOR) {
            VectorParticleOps.warmUp(); // compile the vector loops before the first measured frame
            if (passes == Passes.FUSED) {
                dev.jtecs.kernels.vector.VectorParticleStepOps.warmUp();
            }
        }
        this.entities = entities;
        this.kernels = kernels;
        this.passes = java.util.Objects.requireNonNull(passes, "passes");
        this.kernelPasses = new FrameKernels(kernels, threads);
        this.extractor = new DirtyExtractor(EXTRACTED, kernelPasses.pool()); // its column copies on the workers too
        this.world = World.create(WorldConfig.defaults().maxEntities(entities + Math.max(1024, entities / 8))
                .timestep(ParticleRules.FIXED_STEP));
        try {
            world.seedRandom(seed);
            this.emitter = new ParticleEmitter(world.randomStream(RANDOM_STREAM));
            this.particles = world.newQuery(QueryDescriptor.builder()
                    .include(POSITION, VELOCITY, TTL.COMPONENT).name("particles").build());
            registerSystems(ops);
            if (load == null) {
                world.batchSpawn(entities, SIGNATURE, fillInitial); // depth 0: published before it returns
            } else {
                world.loadSnapshot(load); // restores the emitter's stream in place too
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private void registerSystems(ParticleOps ops) {
        world.removeSystem(BuiltinSystems.TTL); // replaced by its kernel form
        if (passes == Passes.FUSED) {
            FrameKernels.Step step = kernelPasses.particleStep(X, Y, VX, VY, ParticleRules.GRAVITY,
                    ParticleRules.RETAIN_PER_SECOND);
            world.addSystem(SystemConfig.named(STEP).phase(Phases.FIXED_UPDATE)
                    .run((dt, w) -> step.run(particles, dt)));
            world.addSystem(SystemConfig.named(LIFETIMES).phase(Phases.FIXED_POST_UPDATE).run((dt, w) -> {
                expiredThisFrame = step.despawnExpired(w);
                expired += expiredThisFrame;
            }));
        } else {
            registerSeparate(ops);
        }
        world.addSystem(SystemConfig.named(RESPAWN).phase(Phases.FIXED_POST_UPDATE).after(LIFETIMES)
                .run((dt, w) -> respawn(w)));
        world.addSystem(SystemConfig.named(EXTRACT).phase(Phases.RENDER).run((dt, w) -> extractor.extract(w)));
    }

    private void registerSeparate(ParticleOps ops) {
        ColumnKernel gravity = MotionKernels.gravity(ops, VY, ParticleRules.GRAVITY);
        ColumnKernel damping = MotionKernels.damping(ops, VX, VY, ParticleRules.RETAIN_PER_SECOND);
        ColumnKernel integrate = MotionKernels.integrate2d(ops, X, Y, VX, VY);
        world.addSystem(SystemConfig.named(GRAVITY).phase(Phases.FIXED_UPDATE)
                .run((dt, w) -> kernelPasses.run(particles, gravity, (float) dt)));
        world.addSystem(SystemConfig.named(DAMPING).phase(Phases.FIXED_UPDATE).after(GRAVITY)
                .run((dt, w) -> kernelPasses.run(particles, damping, (float) dt)));
        world.addSystem(SystemConfig.named(INTEGRATE).phase(Phases.FIXED_UPDATE).after(DAMPING)
                .run((dt, w) -> kernelPasses.run(particles, integrate, (float) dt)));
        world.addSystem(SystemConfig.named(LIFETIMES).phase(Phases.FIXED_POST_UPDATE).run((dt, w) -> {
            kernelPasses.countDown(particles, dt);
            expiredThisFrame = kernelPasses.despawnExpired(w);
            expired += expiredThisFrame;
        }));
    }

    /** Spawns as many particles as the countdown despawned, in one burst (published at the phase's barrier). */
    private void respawn(World w) {
        int count = expiredThisFrame;
        expiredThisFrame = 0;
        if (count == 0) {
            return;
        }
        emitter.burst(count);
        burstCursor = 0;
        if (burstIds.length < count) {
            burstIds = new long[Math.max(count, burstIds.length * 2)];
        }
        w.batchSpawn(count, SIGNATURE, fillBurst, burstIds, 0);
        spawned += count;
    }

    private void fillInitial(Archetype archetype, int fromRow, int toRow) {
        for (int row = fromRow; row < toRow; row += INITIAL_CHUNK) {
            int n = emitter.initial(Math.min(INITIAL_CHUNK, toRow - row));
            copyEmitted(archetype, row, 0, n);
        }
    }

    private void fillBurst(Archetype archetype, int fromRow, int toRow) {
        int n = toRow - fromRow;
        copyEmitted(archetype, fromRow, burstCursor, n);
        burstCursor += n;
    }

    /** Copies emitted particles {@code [from, from + n)} into rows {@code [row, row + n)}: one bulk copy per column. */
    private void copyEmitted(Archetype archetype, int row, int from, int n) {
        long floatOffset = (long) row * Float.BYTES;
        long doubleOffset = (long) row * Double.BYTES;
        ValueLayout.OfFloat f = ValueLayout.JAVA_FLOAT;
        ValueLayout.OfDouble d = ValueLayout.JAVA_DOUBLE;
        MemorySegment.copy(emitter.x(), from, archetype.getMut(X).segment(), f, floatOffset, n);
        MemorySegment.copy(emitter.y(), from, archetype.getMut(Y).segment(), f, floatOffset, n);
        MemorySegment.copy(emitter.vx(), from, archetype.getMut(VX).segment(), f, floatOffset, n);
        MemorySegment.copy(emitter.vy(), from, archetype.getMut(VY).segment(), f, floatOffset, n);
        MemorySegment.copy(emitter.lifetime(), from, archetype.getMut(TTL.STARTING_TIME).segment(),
                d, doubleOffset, n);
        MemorySegment.copy(emitter.lifetime(), from, archetype.getMut(TTL.REMAINING).segment(),
                d, doubleOffset, n);
    }

    @Override
    public String name() {
        return "particles";
    }

    /** Runs one frame: {@code world.update(FIXED_STEP)}, which is exactly one fixed step. */
    @Override
    public void frame() {
        world.update(ParticleRules.FIXED_STEP);
    }

    /** The particle count the simulation was built with (and keeps). */
    public int entities() {
        return entities;
    }

    public KernelChoice kernels() {
        return kernels;
    }

    /** Whether the frame runs its kernels fused or one pass each. */
    public Passes passes() {
        return passes;
    }

    @Override
    public int liveCount() {
        return world.entityCount();
    }

    @Override
    public long spawned() {
        return spawned;
    }

    @Override
    public long expired() {
        return expired;
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

    /**
     * Saves the world as a binary snapshot into {@code file} (through a reused buffer when given): what
     * {@code --load} starts from. The same frames give the same bytes, whatever the kernels and threads.
     */
    public dev.jtecs.snapshot.Snapshot save(java.nio.file.Path file, dev.jtecs.snapshot.SnapshotBuffer buffer) {
        dev.jtecs.snapshot.SnapshotOptions options = dev.jtecs.snapshot.SnapshotOptions.binary().path(file);
        return world.saveSnapshot(buffer == null ? options : options.buffer(buffer));
    }

    /** The world, for tests and tools that look inside; structural changes to it void the invariants. */
    public World world() {
        return world;
    }

    /** Every live particle's state, in canonical order. */
    public ParticleSnapshot snapshot() {
        ParticleSnapshot snapshot = new ParticleSnapshot();
        particles.forEach((archetype, count) -> {
            var x = archetype.get(X);
            var y = archetype.get(Y);
            var vx = archetype.get(VX);
            var vy = archetype.get(VY);
            var start = archetype.get(TTL.STARTING_TIME);
            var left = archetype.get(TTL.REMAINING);
            for (int row = 0; row < count; row++) {
                snapshot.add(x.get(row), y.get(row), vx.get(row), vy.get(row), start.get(row), left.get(row));
            }
        });
        return snapshot.sorted();
    }

    @Override
    public void close() {
        extractor.close();
        world.close();
        kernelPasses.close();
    }
}
