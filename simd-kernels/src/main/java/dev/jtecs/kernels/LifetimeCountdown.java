package dev.jtecs.kernels;

import dev.jtecs.builtin.TTL;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryVisitor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.LongColumn;
import dev.jtecs.world.World;
import java.util.Arrays;
import java.util.Objects;

/**
 * Counts {@link TTL} lifetimes down with the SIMD kernel and collects the spent entities, for one despawn pass:
 * the kernel form of the builtin TTL system, with the same rule ({@code remaining <= dt * TTL.SPENT_SLACK} after
 * the subtraction).
 *
 * <pre>
 *   countDown(query, dt): for each archetype with rows
 *       remaining segment ──► LifetimeOps.countdown ──► expired rows [r0 &lt; r1 &lt; ...] ──► entities()[r] ──► ids
 *       markComponentDirty(TTL)                          (every row was written)
 *   despawnExpired(world): defer; world.despawn(ids, 0, alive); commit         (one check, one publication)
 * </pre>
 *
 * <p>Not a {@link ColumnKernel}: the step is a {@code double} (the fixed timestep, as the builtin system takes
 * it; a {@code float} step would end lifetimes at other steps), and the spent rows become entity ids, which a
 * column kernel does not see. The dirty rule is the runner's {@link WritePolicy#ALWAYS}: {@code TTL} is marked on
 * every archetype with rows, nowhere else. Holds scratch arrays, so one instance per thread; after warm-up
 * (scratch grown to the largest archetype and the largest expiry) a pass allocates nothing.
 */
public final class LifetimeCountdown {
    private final LifetimeOps ops;
    private final QueryVisitor visitor = this::visit;
    private int[] rows = new int[64];
    private long[] expired = new long[64];
    private int expiredCount;
    private double dt;

    /** A countdown running {@code ops} ({@link LifetimeOps#SCALAR} or the provider's). */
    public LifetimeCountdown(LifetimeOps ops) {
        this.ops = Objects.requireNonNull(ops, "ops");
    }

    /** A countdown running {@link KernelProvider#lifetimes()}. */
    public LifetimeCountdown() {
        this(KernelProvider.lifetimes());
    }

    /**
     * Takes {@code dt} off every lifetime the query matches and collects the entities whose lifetime is spent
     * (replacing the previous pass's list), in archetype order, then row order.
     *
     * @return how many entities expired
     * @throws IllegalArgumentException when the query does not include {@link TTL}, or {@code dt} is not finite
     */
    public int countDown(Query query, double dt) {
        if (!query.descriptor().include().contains(TTL.COMPONENT)) {
            throw new IllegalArgumentException("query " + query.descriptor() + " does not include TTL");
        }
        if (!Double.isFinite(dt)) {
            throw new IllegalArgumentException("dt=" + dt + " is not finite");
        }
        this.dt = dt;
        expiredCount = 0;
        query.forEach(visitor);
        return expiredCount;
    }

    /** How many entities the last {@link #countDown} collected. */
    public int expiredCount() {
        return expiredCount;
    }

    /** The {@code index}-th entity the last {@link #countDown} collected. */
    public long expired(int index) {
        Objects.checkIndex(index, expiredCount);
        return expired[index];
    }

    /**
     * Despawns the collected entities that are still alive, in one scope: they publish together when it closes
     * (or with the enclosing scope, if one is open). Clears the list.
     *
     * @return how many despawns it staged
     */
    public int despawnExpired(World world) {
        Objects.requireNonNull(world, "world");
        try {
            return despawnAlive(world, expired, expiredCount);
        } finally {
            expiredCount = 0;
        }
    }

    /**
     * Despawns the entities of {@code ids[0, count)} that are still alive (another system may have despawned some
     * since the pass) with one {@link World#despawn(long[], int, int)} in one {@code defer()}/{@code commit()}
     * scope; compacts the live ones to the front of {@code ids}. What {@link #despawnExpired} and the parallel
     * countdown's do with the ids they collected.
     *
     * @return how many were alive and passed on
     */
    public static int despawnAlive(World world, long[] ids, int count) {
        int alive = 0;
        for (int i = 0; i < count; i++) {
            if (world.isAlive(ids[i])) {
                ids[alive++] = ids[i];
            }
        }
        world.defer();
        try {
            world.despawn(ids, 0, alive);
        } finally {
            world.commit();
        }
        return alive;
    }

    private void visit(Archetype archetype, int count) {
        if (count == 0) {
            return;
        }
        if (rows.length < count) {
            rows = new int[Math.max(count, rows.length * 2)];
        }
        int n = ops.countdown(archetype.get(TTL.REMAINING).segment(), count, dt, dt * TTL.SPENT_SLACK, rows);
        archetype.markComponentDirty(TTL.COMPONENT);
        if (expiredCount + n > expired.length) {
            expired = Arrays.copyOf(expired, Math.max(expiredCount + n, expired.length * 2));
        }
        LongColumn entities = archetype.entities();
        for (int i = 0; i < n; i++) {
            expired[expiredCount++] = entities.get(rows[i]);
        }
    }
}
