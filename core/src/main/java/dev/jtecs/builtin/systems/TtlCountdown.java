package dev.jtecs.builtin.systems;

import dev.jtecs.entity.internal.Growth;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.query.QueryVisitor;
import dev.jtecs.schedule.SystemBody;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.DoubleColumn;
import dev.jtecs.storage.LongColumn;
import dev.jtecs.world.World;
import java.util.Arrays;
import dev.jtecs.builtin.TTL;

/**
 * The body of {@link BuiltinSystems#TTL}: takes {@code dt} (the fixed timestep) off every {@link TTL}'s
 * {@code remaining}, collects the entities whose lifetime is spent, and after the iteration stages one
 * {@code despawn} per collected id; the scheduler publishes them together at the phase's barrier.
 *
 * <p>Spent means {@code remaining <= dt * ROUNDING} after the subtraction: a lifetime that is a whole number of
 * steps up to rounding ends in that step rather than one step later. So a lifetime of {@code L} seconds lasts
 * {@code ceil(L / dt - ROUNDING)} steps (at least one), and one of zero or less ends at the next step. Paused
 * and disabled entities are left out: their lifetimes stand still.
 *
 * @implNote Per archetype, one loop over the {@code remaining} column (the kernel the SIMD module will
 *     replace) and one scan that collects spent rows' ids into a reused array; no allocation in steady state.
 */
final class TtlCountdown implements SystemBody {
    /** The fraction of a step below which a lifetime counts as spent: absorbs the rounding of repeated steps. */
    static final double ROUNDING = TTL.SPENT_SLACK;

    private static final QueryDescriptor MATCH = QueryDescriptor.builder().include(TTL.COMPONENT).logic().build();

    private World world;
    private Query query;
    private final QueryVisitor countDown = this::countDown;
    private long[] spent = new long[64];
    private int spentCount;
    private double step;

    @Override
    public void run(double dt, World w) {
        if (world == null) {
            world = w;
            query = w.newQuery(MATCH);
        } else if (world != w) {
            throw new IllegalStateException(BuiltinSystems.TTL + " serves the world it first ran in; register "
                    + "BuiltinSystems.ttl() afresh for another world");
        }
        step = dt;
        spentCount = 0;
        query.forEach(countDown);
        for (int i = 0; i < spentCount; i++) {
            w.despawn(spent[i]); // staged: the running dispatch publishes at the phase barrier
        }
    }

    private void countDown(Archetype archetype, int count) {
        DoubleColumn remaining = archetype.getMut(TTL.REMAINING);
        double dt = step;
        for (int row = 0; row < count; row++) {
            remaining.set(row, remaining.get(row) - dt);
        }
        double limit = dt * ROUNDING;
        LongColumn entities = archetype.entities();
        for (int row = 0; row < count; row++) {
            if (remaining.get(row) <= limit) {
                collect(entities.get(row));
            }
        }
    }

    private void collect(long entity) {
        if (spentCount == spent.length) {
            spent = Growth.copyOf(spent, spentCount * 2);
        }
        spent[spentCount++] = entity;
    }
}
