package dev.jtecs.kernels;

import dev.jtecs.builtin.TTL;
import dev.jtecs.component.FloatField;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryVisitor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.LongColumn;
import dev.jtecs.world.World;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The particle frame's kernels fused into one pass per archetype: gravity, damping, 2D integration and the
 * {@link TTL} countdown ({@link ParticleStepOps}), with the spent entities collected for one despawn, as
 * {@link LifetimeCountdown} collects them. Four separate passes stream x, y, vx, vy and the lifetimes through
 * memory up to three times each; this one reads and writes each column once.
 *
 * <pre>
 *   run(query, dt): for each archetype with rows (segments looked up once per storage version)
 *       markDirtyAt(Position, Velocity, TTL)          the components the four kernels would have marked
 *       ParticleStepOps.step(x, y, vx, vy, remaining) ──► spent rows ──► entities()[r] ──► ids
 *   despawnExpired(world): defer; world.despawn(ids, 0, alive); commit
 * </pre>
 *
 * <p>Same state, same marks: the step does each row's operations in the order the separate kernels do them
 * ({@code gravity}, then {@code damping}, then {@code integrate2d}, then the countdown), and the kernels each touch
 * only their own row, so the result is the same bit for bit as running
 * {@link MotionKernels#gravity}, {@link MotionKernels#damping}, {@link MotionKernels#integrate2d} and
 * {@link LifetimeCountdown#countDown} one after another with the same {@code dt}, and the spent list is the same,
 * in archetype order then row order. The dirty rule is theirs too: every component holding a written column is
 * marked on every archetype with rows, empty archetypes are not. The motion kernels take {@code (float) dt}, the
 * countdown the {@code double} step itself.
 *
 * <p>Not thread-safe: one instance per thread ({@code ParallelParticleStep} splits the rows across workers). Once
 * the scratch has grown to the largest archetype and the bindings to the layout, a pass allocates nothing.
 */
public final class ParticleStep {
    private final ParticleStepOps ops;
    private final KernelColumns columns;
    private final float gravity;
    private final float retainPerSecond;
    private final QueryVisitor visitor = this::visit;
    private Query checkedQuery;

    // binding k: what iteration position k saw last (reused while the archetype and its storage version hold)
    private Archetype[] archetypes = new Archetype[8];
    private long[] versions = new long[8];
    private MemorySegment[][] segments = new MemorySegment[8][];
    private int[][] written = new int[8][];

    private int[] rows = new int[64];
    private long[] expired = new long[64];
    private int expiredCount;
    private int position;
    private float dv;
    private float factor;
    private float dt;
    private double step;
    private double spentLimit;
    private boolean running;

    /**
     * The fused step over {@code x, y} (positions), {@code vx, vy} (velocities) and {@link TTL#REMAINING}, with
     * gravity {@code g} on {@code vy} and damping {@code retainPerSecond}, as
     * {@link MotionKernels#gravity(ParticleOps, FloatField, float)} and
     * {@link MotionKernels#damping(ParticleOps, FloatField, FloatField, float)} take them.
     *
     * @throws IllegalArgumentException for a non-finite {@code g} or {@code retainPerSecond} outside {@code [0, 1]}
     */
    public ParticleStep(ParticleStepOps ops, FloatField x, FloatField y, FloatField vx, FloatField vy, float g,
            float retainPerSecond) {
        this.ops = Objects.requireNonNull(ops, "ops");
        this.columns = columns(x, y, vx, vy);
        this.gravity = checkGravity(g);
        this.retainPerSecond = checkRetain(retainPerSecond);
    }

    /** The columns of the fused step, all written: x, y, vx, vy, {@link TTL#REMAINING}. */
    public static KernelColumns columns(FloatField x, FloatField y, FloatField vx, FloatField vy) {
        return KernelColumns.of(List.of(x, y, vx, vy, TTL.REMAINING), List.of(), WritePolicy.ALWAYS);
    }

    /**
     * Returns {@code g} when it is a usable gravity.
     *
     * @throws IllegalArgumentException when {@code g} is not finite
     */
    public static float checkGravity(float g) {
        if (!Float.isFinite(g)) {
            throw new IllegalArgumentException("g=" + g + " is not finite");
        }
        return g;
    }

    /**
     * Returns {@code retainPerSecond} when it is a usable damping.
     *
     * @throws IllegalArgumentException unless {@code 0 <= retainPerSecond <= 1}
     */
    public static float checkRetain(float retainPerSecond) {
        if (!(retainPerSecond >= 0f && retainPerSecond <= 1f)) {
            throw new IllegalArgumentException("retainPerSecond=" + retainPerSecond + " outside [0, 1]");
        }
        return retainPerSecond;
    }

    /** The kernels this step runs. */
    public ParticleStepOps ops() {
        return ops;
    }

    /**
     * One fused pass over every non-empty archetype of {@code query}; collects the spent entities, replacing the
     * previous pass's list.
     *
     * @return how many entities expired
     * @throws IllegalArgumentException when the query does not include every column, or {@code dt} is not finite
     * @throws IllegalStateException when called from inside a pass
     */
    public int run(Query query, double dt) {
        Objects.requireNonNull(query, "query");
        if (!Double.isFinite(dt)) {
            throw new IllegalArgumentException("dt=" + dt + " is not finite");
        }
        if (running) {
            throw new IllegalStateException("the step is already running a pass");
        }
        if (checkedQuery != query) {
            columns.requireIncluded(query, this);
            checkedQuery = query;
        }
        running = true;
        try {
            this.dt = (float) dt;
            this.dv = gravity * this.dt;
            this.factor = MotionKernels.dampingFactor(retainPerSecond, this.dt);
            this.step = dt;
            this.spentLimit = dt * TTL.SPENT_SLACK;
            expiredCount = 0;
            position = 0;
            query.forEach(visitor);
            return expiredCount;
        } finally {
            running = false;
        }
    }

    /** How many entities the last {@link #run} collected. */
    public int expiredCount() {
        return expiredCount;
    }

    /** The {@code index}-th entity the last {@link #run} collected. */
    public long expired(int index) {
        Objects.checkIndex(index, expiredCount);
        return expired[index];
    }

    /**
     * Despawns the collected entities that are still alive, in one scope (see
     * {@link LifetimeCountdown#despawnAlive}). Clears the list.
     *
     * @return how many despawns it staged
     */
    public int despawnExpired(World world) {
        Objects.requireNonNull(world, "world");
        try {
            return expiredCount == 0 ? 0 : LifetimeCountdown.despawnAlive(world, expired, expiredCount);
        } finally {
            expiredCount = 0;
        }
    }

    private void visit(Archetype archetype, int count) {
        int k = position++;
        if (count == 0) {
            return;
        }
        MemorySegment[] s = bind(k, archetype);
        for (int position : written[k]) {
            archetype.markDirtyAt(position); // before the loop, as the runner does: a throw leaves them marked
        }
        if (rows.length < count) {
            rows = new int[Math.max(count, rows.length * 2)];
        }
        int n = ops.step(s[0], s[1], s[2], s[3], s[4], count, dv, factor, dt, step, spentLimit, rows);
        if (expiredCount + n > expired.length) {
            expired = Arrays.copyOf(expired, Math.max(expiredCount + n, expired.length * 2));
        }
        LongColumn entities = archetype.entities();
        for (int i = 0; i < n; i++) {
            expired[expiredCount++] = entities.get(rows[i]);
        }
    }

    private MemorySegment[] bind(int k, Archetype archetype) {
        if (k < archetypes.length && archetypes[k] == archetype && versions[k] == archetype.storageVersion()) {
            return segments[k];
        }
        if (k >= archetypes.length) {
            int grown = Math.max(k + 1, archetypes.length * 2);
            archetypes = Arrays.copyOf(archetypes, grown);
            versions = Arrays.copyOf(versions, grown);
            segments = Arrays.copyOf(segments, grown);
            written = Arrays.copyOf(written, grown);
        }
        archetypes[k] = null; // unusable until complete: a lookup below may throw
        MemorySegment[] bound = segments[k] == null ? segments[k] = new MemorySegment[columns.size()] : segments[k];
        for (int c = 0; c < bound.length; c++) {
            bound[c] = columns.segment(archetype, c);
        }
        int[] positions = written[k] == null ? written[k] = new int[columns.writtenComponentCount()] : written[k];
        for (int c = 0; c < positions.length; c++) {
            positions[c] = archetype.positionOf(columns.writtenComponent(c));
        }
        versions[k] = archetype.storageVersion();
        archetypes[k] = archetype;
        return bound;
    }
}
