package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.systems.BuiltinSystems;
import dev.jtecs.builtin.Paused;
import dev.jtecs.builtin.TTL;
import dev.jtecs.component.Components;
import dev.jtecs.component.TagComponent;
import dev.jtecs.kernels.vector.VectorLifetimeOps;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The kernel countdown ends the same lifetimes in the same steps as the builtin TTL system, marks TTL exactly
 * where it ran, and despawns the spent entities in one pass; both implementations.
 */
class LifetimeCountdownTest {
    static final TagComponent EMBER = Components.tag("kernels.test.Ember");
    static final LifetimeOps[] BOTH = {VectorLifetimeOps.INSTANCE, LifetimeOps.SCALAR};
    static final double STEP = 1.0 / 60;

    private static Query lifetimes(World world) {
        return world.newQuery(QueryDescriptor.builder().include(TTL.COMPONENT).logic().build());
    }

    /** Lifetimes from 0 to about 40 steps, some whole multiples of the step, in two archetypes. */
    private static List<Long> spawn(World world) {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            double seconds = i % 3 == 0 ? (i % 40) * STEP : i * 0.00237;
            ids.add(i % 2 == 0 ? world.spawn(TTL.COMPONENT.of(new TTL(seconds)))
                    : world.spawn(TTL.COMPONENT.of(new TTL(seconds)), EMBER));
        }
        return ids;
    }

    @Test
    void endsTheSameLifetimesInTheSameStepsAsTheBuiltinSystem() {
        for (LifetimeOps ops : BOTH) {
            try (World kernel = World.create(); World builtin = World.create()) {
                BuiltinSystems.remove(kernel);
                List<Long> a = spawn(kernel);
                List<Long> b = spawn(builtin);
                LifetimeCountdown countdown = new LifetimeCountdown(ops);
                Query query = lifetimes(kernel);
                for (int step = 0; step < 45; step++) {
                    countdown.countDown(query, STEP);
                    countdown.despawnExpired(kernel);
                    builtin.runPhase(dev.jtecs.schedule.Phases.FIXED_POST_UPDATE, STEP);
                    for (int i = 0; i < a.size(); i++) {
                        assertEquals(builtin.isAlive(b.get(i)), kernel.isAlive(a.get(i)),
                                ops.mode() + " step=" + step + " entity " + i);
                    }
                }
            }
        }
    }

    @Test
    void marksTtlOnTheArchetypesWithRowsAndListsSpentEntities() {
        for (LifetimeOps ops : BOTH) {
            try (World world = World.create()) {
                long soon = world.spawn(TTL.COMPONENT.of(new TTL(0.5)));
                long later = world.spawn(TTL.COMPONENT.of(new TTL(2.0)), EMBER);
                long frozen = world.spawn(TTL.COMPONENT.of(new TTL(0.1)), Paused.COMPONENT);
                long gone = world.spawn(TTL.COMPONENT.of(new TTL(1)), EMBER, Paused.COMPONENT);
                Archetype empty = world.archetypeOf(gone);
                world.despawn(gone);
                world.forEachArchetype(Archetype::clearDirtyComponents);
                LifetimeCountdown countdown = new LifetimeCountdown(ops);
                assertEquals(0, countdown.countDown(lifetimes(world), 0.25));
                assertTrue(world.archetypeOf(soon).isComponentDirty(TTL.COMPONENT), ops.mode().toString());
                assertTrue(world.archetypeOf(later).isComponentDirty(TTL.COMPONENT), ops.mode().toString());
                assertFalse(world.archetypeOf(frozen).isComponentDirty(TTL.COMPONENT), "paused: not matched");
                assertFalse(empty.isComponentDirty(TTL.COMPONENT), "empty archetype");
                assertEquals(1, countdown.countDown(lifetimes(world), 0.25));
                assertEquals(soon, countdown.expired(0));
                assertEquals(1, countdown.despawnExpired(world));
                assertFalse(world.isAlive(soon));
                assertTrue(world.isAlive(later));
                assertTrue(world.isAlive(frozen));
                assertEquals(0, countdown.expiredCount());
                assertEquals(1.5, world.get(later, TTL.COMPONENT).remaining());
            }
        }
    }

    @Test
    void despawnsTheStillAliveInOneCallHeldByAnEnclosingScope() {
        try (World world = World.create()) {
            List<Long> soon = new ArrayList<>();
            List<Long> order = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                long id = world.spawn(TTL.COMPONENT.of(new TTL(i % 2 == 0 ? 0.001 : 5)));
                if (i % 2 == 0) {
                    soon.add(id);
                }
            }
            world.observe(0, dev.jtecs.event.OnDespawn.class, event -> order.add(event.entity()));
            LifetimeCountdown countdown = new LifetimeCountdown(LifetimeOps.SCALAR);
            assertEquals(500, countdown.countDown(lifetimes(world), STEP));
            world.despawn(soon.get(7)); // another system got there first
            order.clear();
            world.defer();
            assertEquals(499, countdown.despawnExpired(world));
            assertTrue(world.isAlive(soon.get(0)), "held back by the enclosing scope");
            world.commit();
            List<Long> expected = new ArrayList<>(soon);
            expected.remove(7);
            assertEquals(expected, order, "despawned in the pass's order");
            assertTrue(soon.stream().noneMatch(world::isAlive));
            assertEquals(500, world.entityCount());
            assertEquals(0, countdown.despawnExpired(world), "the list was cleared");
        }
    }

    @Test
    void refusesAQueryWithoutTtlAndAnInfiniteStep() {
        try (World world = World.create()) {
            LifetimeCountdown countdown = new LifetimeCountdown();
            Query embers = world.newQuery(QueryDescriptor.builder().include(EMBER).build());
            assertThrows(IllegalArgumentException.class, () -> countdown.countDown(embers, STEP));
            assertThrows(IllegalArgumentException.class,
                    () -> countdown.countDown(lifetimes(world), Double.POSITIVE_INFINITY));
        }
    }
}
