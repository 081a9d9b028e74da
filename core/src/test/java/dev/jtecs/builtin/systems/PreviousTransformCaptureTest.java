package dev.jtecs.builtin.systems;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.Disabled;
import dev.jtecs.builtin.Paused;
import dev.jtecs.builtin.PreviousTransform2D;
import dev.jtecs.builtin.Transform2D;
import dev.jtecs.schedule.Phases;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.testing.Allocations;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PreviousTransformCaptureTest {
    /** A fixed-step mover: x += 1 each step. */
    private static void addMover(World world, long id) {
        world.addSystem(SystemConfig.named("move").phase(Phases.FIXED_UPDATE).run((dt, w) -> {
            Transform2D t = w.get(id, Transform2D.COMPONENT);
            w.set(id, Transform2D.COMPONENT.of(new Transform2D(t.x() + 1, t.y(), 0, 0, t.rotation() + 0.5f, 1, 1)));
        }));
    }

    @Test
    void holdsThePoseBeforeTheLastStepOfTheFrame() {
        try (World world = World.create(WorldConfig.defaults().timestep(0.25))) {
            long id = world.spawn(PreviousTransform2D.COMPONENT, Transform2D.COMPONENT.of(Transform2D.at(0, 5)));
            addMover(world, id);
            world.update(0.75); // three steps: x 0 -> 3, captured before each
            assertEquals(3, world.get(id, Transform2D.COMPONENT).x());
            assertEquals(new PreviousTransform2D(2, 5, 1), world.get(id, PreviousTransform2D.COMPONENT));
            world.update(0.1); // no step: nothing captured, the pair still brackets the last step
            assertEquals(new PreviousTransform2D(2, 5, 1), world.get(id, PreviousTransform2D.COMPONENT));
            world.update(0.15); // 0.25 banked: one step
            assertEquals(new PreviousTransform2D(3, 5, 1.5f), world.get(id, PreviousTransform2D.COMPONENT));
        }
    }

    @Test
    void fixedSystemsSeeTheCapturedPoseOfTheirOwnStep() {
        try (World world = World.create(WorldConfig.defaults().timestep(0.25))) {
            long id = world.spawn(PreviousTransform2D.COMPONENT, Transform2D.COMPONENT.of(Transform2D.at(0, 0)));
            addMover(world, id);
            List<String> seen = new ArrayList<>();
            world.addSystem(SystemConfig.named("look").phase(Phases.FIXED_UPDATE).after("move").run((dt, w) -> seen.add(
                    w.get(id, PreviousTransform2D.COMPONENT).x() + "->" + w.get(id, Transform2D.COMPONENT).x())));
            world.update(0.5);
            assertEquals(List.of("0.0->1.0", "1.0->2.0"), seen);
        }
    }

    @Test
    void capturesPausedEntitiesButNotDisabledOnes() {
        try (World world = World.create(WorldConfig.defaults().timestep(0.25))) {
            long paused = world.spawn(PreviousTransform2D.COMPONENT, Paused.COMPONENT,
                    Transform2D.COMPONENT.of(Transform2D.at(4, 4)));
            long disabled = world.spawn(PreviousTransform2D.COMPONENT, Disabled.COMPONENT,
                    Transform2D.COMPONENT.of(Transform2D.at(4, 4)));
            world.update(0.25);
            assertEquals(new PreviousTransform2D(4, 4, 0), world.get(paused, PreviousTransform2D.COMPONENT));
            assertEquals(new PreviousTransform2D(0, 0, 0), world.get(disabled, PreviousTransform2D.COMPONENT));
        }
    }

    @Test
    void marksPreviousDirtyOnlyWhenItChanged() {
        try (World world = World.create(WorldConfig.defaults().timestep(0.25))) {
            long id = world.spawn(PreviousTransform2D.COMPONENT, Transform2D.COMPONENT.of(Transform2D.at(1, 1)));
            List<Boolean> dirty = new ArrayList<>();
            world.addSystem(SystemConfig.named("probe").phase(Phases.LAST).run((dt, w) ->
                    dirty.add(w.archetypeOf(id).isComponentDirty(PreviousTransform2D.COMPONENT))));
            world.update(0.25); // placed (structural) and captured
            world.update(0.25); // the same pose again
            world.set(id, Transform2D.COMPONENT.of(Transform2D.at(2, 1)));
            world.update(0.25);
            assertEquals(List.of(true, false, true), dirty);
        }
    }

    @Test
    void aSteadyCaptureAllocatesNothing() {
        try (World world = World.create(WorldConfig.defaults().timestep(1 / 60.0))) {
            world.batchSpawn(10_000, List.of(PreviousTransform2D.COMPONENT, Transform2D.COMPONENT));
            long bytes = Allocations.quietestWindow(() -> world.update(1 / 60.0), 2000, 1000, 5);
            assertTrue(bytes < 1024, "the quietest 1000 steps over 10,000 poses allocated " + bytes + " bytes");
        }
    }
}
