package dev.jtecs.kernels;

import dev.jtecs.builtin.systems.BuiltinSystems;
import dev.jtecs.builtin.TTL;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.schedule.SystemBody;
import dev.jtecs.world.World;
import java.util.Objects;

/**
 * The kernel form of the builtin {@link BuiltinSystems#TTL} system body: {@link LifetimeCountdown} over the same
 * query (every {@link TTL}, paused and disabled entities left out), then one staged {@code despawn} per spent
 * entity, in the order the builtin system stages them (archetype order, then row order).
 *
 * <pre>
 *   run(step, world): countDown(query, step) ──► remaining -= step, TTL marked where rows are
 *                     for each spent id: world.despawn(id)   staged: published at the phase barrier
 * </pre>
 *
 * <p>Same results as the builtin body, bit for bit: the subtraction is the same {@code double} operation
 * ({@link LifetimeOps} twins agree exactly), the spent rule is {@link TTL#SPENT_SLACK}, {@code TTL} is marked on
 * the same archetypes, and the despawns stay staged in the running dispatch (published at the phase barrier,
 * not when this body returns, so later systems of the phase still see the entities). Serves the world it first
 * runs in; another world throws. No allocation once the countdown's scratch has grown.
 */
public final class LifetimeSystem implements SystemBody {
    private static final QueryDescriptor MATCH = QueryDescriptor.builder().include(TTL.COMPONENT).logic().build();

    private final LifetimeCountdown countdown;
    private final String name;
    private World world;
    private Query query;

    /** A body running {@code ops} ({@link LifetimeOps#SCALAR} or the provider's). */
    public LifetimeSystem(LifetimeOps ops) {
        this.countdown = new LifetimeCountdown(ops);
        this.name = "LifetimeSystem/" + ops.mode();
    }

    /** A body running {@link KernelProvider#lifetimes()}. */
    public LifetimeSystem() {
        this(KernelProvider.lifetimes());
    }

    /**
     * Counts every lifetime down by {@code dt} (the fixed step) and stages a despawn for each spent entity.
     *
     * @throws IllegalStateException when run in another world than the first one
     */
    @Override
    public void run(double dt, World w) {
        Objects.requireNonNull(w, "world");
        if (world == null) {
            world = w;
            query = w.newQuery(MATCH);
        } else if (world != w) {
            throw new IllegalStateException(name + " serves the world it first ran in; make another for a second "
                    + "world");
        }
        int spent = countdown.countDown(query, dt);
        for (int i = 0; i < spent; i++) {
            w.despawn(countdown.expired(i)); // staged: the running dispatch publishes at the phase barrier
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
