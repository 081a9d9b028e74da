package dev.jtecs.builtin.systems;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.ChildOf;
import dev.jtecs.builtin.Disabled;
import dev.jtecs.builtin.Paused;
import dev.jtecs.builtin.TTL;
import dev.jtecs.builtin.Transform2D;
import dev.jtecs.entity.Entity;
import dev.jtecs.event.OnDespawn;
import dev.jtecs.schedule.Phases;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.testing.Allocations;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TtlCountdownTest {
    @Test
    void countsDownByTheFixedStepAcrossUnevenFrames() {
        try (World world = World.create(WorldConfig.defaults().timestep(0.25))) {
            long id = world.spawn(TTL.COMPONENT.of(new TTL(2)));
            world.update(0.1);  // no step yet
            assertEquals(2.0, world.get(id, TTL.COMPONENT).remaining());
            world.update(0.3);  // 0.4 s banked: one step
            assertEquals(1.75, world.get(id, TTL.COMPONENT).remaining());
            world.update(0.6);  // 0.75 s: three steps
            assertEquals(1.0, world.get(id, TTL.COMPONENT).remaining());
            world.update(0);    // nothing due
            assertEquals(1.0, world.get(id, TTL.COMPONENT).remaining());
            assertEquals(2.0, world.get(id, TTL.COMPONENT).startingTime(), "the budget is left alone");
            assertEquals(0.5, world.get(id, TTL.COMPONENT).percentComplete());
        }
    }

    @Test
    void despawnsInTheStepWhereRemainingReachesExactlyZero() {
        try (World world = World.create(WorldConfig.defaults().timestep(0.25))) {
            long id = world.spawn(TTL.COMPONENT.of(new TTL(0.5)));
            List<String> seen = new ArrayList<>();
            world.addSystem(SystemConfig.named("watch").phase(Phases.FIXED_UPDATE)
                    .run((dt, w) -> seen.add(w.isAlive(id) ? "alive " + w.get(id, TTL.COMPONENT).remaining()
                            : "gone")));
            world.update(0.25);
            assertTrue(world.isAlive(id));
            world.update(0.5); // two steps: remaining hits 0.0 in the first, and the entity goes at its end
            assertEquals(List.of("alive 0.5", "alive 0.25", "gone"), seen);
            assertFalse(world.isAlive(id));
        }
    }

    /**
     * The rounding margin is inclusive: a lifetime one margin (a 1,024th of a step) over a whole step ends in that
     * step; two margins over it last one more step.
     */
    @Test
    void aLifetimeOneMarginOverAWholeStepEndsInThatStep() {
        try (World world = World.create(WorldConfig.defaults().timestep(0.25))) {
            long edge = world.spawn(TTL.COMPONENT.of(new TTL(0.25 + 0.25 * TtlCountdown.ROUNDING)));
            long over = world.spawn(TTL.COMPONENT.of(new TTL(0.25 + 0.5 * TtlCountdown.ROUNDING)));
            world.update(0.25);
            assertFalse(world.isAlive(edge), "remaining is exactly the margin after the step");
            assertTrue(world.isAlive(over));
            assertEquals(0.5 * TtlCountdown.ROUNDING, world.get(over, TTL.COMPONENT).remaining());
            world.update(0.25);
            assertFalse(world.isAlive(over));
        }
    }

    @Test
    void aWholeNumberOfInexactStepsEndsOnTime() {
        // 1/60 is no binary fraction: 60 subtractions of it from 1.0 leave a tiny residue either way.
        for (double lifetime : new double[] {0.05, 1.0, 10.0, 100.0}) {
            try (World world = World.create(WorldConfig.defaults().timestep(1 / 60.0).fixedMaxSteps(1))) {
                long id = world.spawn(TTL.COMPONENT.of(new TTL(lifetime)));
                long steps = Math.round(lifetime * 60);
                for (long step = 1; step < steps; step++) {
                    world.update(1 / 60.0);
                    assertTrue(world.isAlive(id), lifetime + " s died early, at step " + step);
                }
                world.update(1 / 60.0);
                assertFalse(world.isAlive(id), lifetime + " s outlived step " + steps);
                assertEquals(steps, world.fixedStepCount());
            }
        }
    }

    @Test
    void aSpentOrPartStepLifetimeEndsAtTheNextStep() {
        try (World world = World.create(WorldConfig.defaults().timestep(0.25))) {
            long zero = world.spawn(TTL.COMPONENT);                     // all zero
            long negative = world.spawn(TTL.COMPONENT.of(new TTL(1, -3)));
            long part = world.spawn(TTL.COMPONENT.of(new TTL(0.1)));
            long whole = world.spawn(TTL.COMPONENT.of(new TTL(0.3)));   // 1.2 steps: two
            world.update(0.25);
            assertFalse(world.isAlive(zero));
            assertFalse(world.isAlive(negative));
            assertFalse(world.isAlive(part));
            assertTrue(world.isAlive(whole));
            world.update(0.25);
            assertFalse(world.isAlive(whole));
        }
    }

    @Test
    void despawnsAreStagedAndPublishedTogetherWithTheUsualEvents() {
        try (World world = World.create(WorldConfig.defaults().timestep(0.25))) {
            long parent = world.spawn(TTL.COMPONENT.of(new TTL(0.25)));
            long child = world.spawn(ChildOf.COMPONENT.to(parent)); // no lifetime: cascades with its parent
            long sibling = world.spawn(TTL.COMPONENT.of(new TTL(0.25)));
            long keeper = world.spawn(TTL.COMPONENT.of(new TTL(5)));
            List<Long> despawned = new ArrayList<>();
            world.observe(Entity.WORLD, OnDespawn.class, event -> despawned.add(event.entity()));
            List<Boolean> aliveInPhase = new ArrayList<>();
            world.addSystem(SystemConfig.named("sameTick").phase(Phases.FIXED_POST_UPDATE)
                    .after(BuiltinSystems.TTL).run((dt, w) -> aliveInPhase.add(w.isAlive(parent))));
            world.update(0.25);
            assertEquals(List.of(true), aliveInPhase, "staged: the phase's later systems still see it");
            assertEquals(List.of(parent, sibling, child), despawned);
            assertFalse(world.isAlive(child));
            assertTrue(world.isAlive(keeper));
            assertEquals(1, world.entityCount());
        }
    }

    @Test
    void pausedAndDisabledLifetimesStandStill() {
        try (World world = World.create(WorldConfig.defaults().timestep(0.25))) {
            long paused = world.spawn(TTL.COMPONENT.of(new TTL(0.25)), Paused.COMPONENT);
            long disabled = world.spawn(TTL.COMPONENT.of(new TTL(0.25)), Disabled.COMPONENT);
            world.update(1);
            assertEquals(new TTL(0.25), world.get(paused, TTL.COMPONENT));
            assertEquals(new TTL(0.25), world.get(disabled, TTL.COMPONENT));
            world.remove(paused, Paused.COMPONENT);
            world.update(0.25);
            assertFalse(world.isAlive(paused));
        }
    }

    @Test
    void manyArchetypesAndABatchExpireTogether() {
        try (World world = World.create(WorldConfig.defaults().timestep(0.25))) {
            var batch = world.batchSpawn(1000, List.of(TTL.COMPONENT.of(new TTL(0.5))));
            long tagged = world.spawn(TTL.COMPONENT.of(new TTL(0.5)), Paused.COMPONENT);
            world.remove(tagged, Paused.COMPONENT); // one more archetype visited
            long longer = world.spawn(TTL.COMPONENT.of(new TTL(0.75)), Transform2D.COMPONENT);
            world.update(0.25);
            assertEquals(1002, world.entityCount());
            world.update(0.25);
            assertEquals(1, world.entityCount());
            assertFalse(world.isAlive(batch.get(999)));
            assertTrue(world.isAlive(longer));
        }
    }

    @Test
    void aSteadyCountdownAllocatesNothing() {
        try (World world = World.create(WorldConfig.defaults().timestep(1 / 60.0))) {
            world.batchSpawn(10_000, List.of(TTL.COMPONENT.of(new TTL(1e9))));
            world.batchSpawn(100, List.of(TTL.COMPONENT.of(new TTL(1e9)), Transform2D.COMPONENT));
            long bytes = Allocations.quietestWindow(() -> world.update(1 / 60.0), 2000, 1000, 5);
            assertTrue(bytes < 1024, "the quietest 1000 steps over 10,100 lifetimes allocated " + bytes + " bytes");
        }
    }
}
