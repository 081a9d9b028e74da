package dev.jtecs.bench.transforms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.bench.frame.KernelChoice;
import dev.jtecs.bench.frame.WarmFrameAllocation;
import dev.jtecs.builtin.systems.BuiltinSystems;
import dev.jtecs.builtin.RelativeTransform2D;
import dev.jtecs.builtin.Transform2D;
import dev.jtecs.random.RandomStreams;
import dev.jtecs.random.Xoshiro128;
import dev.jtecs.schedule.SystemInfo;
import dev.jtecs.world.World;
import java.util.List;
import org.junit.jupiter.api.Test;

class TransformsSimulationTest {
    /**
     * The plain-array reference: parents by index, roots moved by the same velocity draws, every other node's
     * world transform composed from its parent's with {@link Transform2D#compose}, in index order (parents first).
     */
    @Test
    void composesTheSameWorldTransformsAsAPlainArrayReference() {
        int n = 413; // ten complete trees and a truncated one
        int seed = 17;
        try (TransformsSimulation simulation = new TransformsSimulation(n, seed, KernelChoice.VECTOR)) {
            World world = simulation.world();
            ForestShape forest = simulation.forest();
            Transform2D[] expected = new Transform2D[n];
            RelativeTransform2D[] offset = new RelativeTransform2D[n];
            for (int i = 0; i < n; i++) {
                expected[i] = world.get(simulation.id(i), Transform2D.COMPONENT);
                offset[i] = world.get(simulation.id(i), RelativeTransform2D.COMPONENT);
            }
            Xoshiro128 motion = new RandomStreams(seed).stream(TransformsSimulation.MOTION_STREAM);
            int[] roots = forest.roots();
            float[] vx = new float[roots.length];
            float[] vy = new float[roots.length];
            float dt = (float) TransformsSimulation.FIXED_STEP;
            for (int frame = 1; frame <= 6; frame++) {
                simulation.frame();
                TransformsSimulation.drawVelocities(motion, vx, vy, roots.length);
                for (int k = 0; k < roots.length; k++) {
                    Transform2D t = expected[roots[k]];
                    expected[roots[k]] = new Transform2D(t.x() + vx[k] * dt, t.y() + vy[k] * dt, t.z(), t.layer(),
                            t.rotation(), t.scaleX(), t.scaleY());
                }
                for (int i = 0; i < n; i++) {
                    if (forest.parent(i) >= 0) {
                        expected[i] = expected[forest.parent(i)].compose(offset[i]);
                    }
                }
                for (int i = 0; i < n; i++) {
                    assertEquals(expected[i], world.get(simulation.id(i), Transform2D.COMPONENT),
                            "node " + i + " after frame " + frame);
                }
            }
        }
    }

    @Test
    void theSameSeedGivesTheSameChecksumWhicheverKernelsRun() {
        try (TransformsSimulation vector = new TransformsSimulation(800, 4, KernelChoice.VECTOR);
                TransformsSimulation scalar = new TransformsSimulation(800, 4, KernelChoice.SCALAR);
                TransformsSimulation other = new TransformsSimulation(800, 5, KernelChoice.VECTOR)) {
            long before = vector.checksum();
            for (int frame = 0; frame < 20; frame++) {
                vector.frame();
                scalar.frame();
                other.frame();
            }
            assertNotEquals(before, vector.checksum(), "frames move things");
            assertEquals(vector.checksum(), scalar.checksum());
            assertNotEquals(vector.checksum(), other.checksum());
            assertEquals(800, vector.liveCount());
            assertEquals(0, vector.spawned());
            assertEquals(0, vector.expired());
        }
    }

    @Test
    void extractsTheTransformsOfEveryMovedArchetypeEachFrame() {
        try (TransformsSimulation simulation = new TransformsSimulation(400, 1, KernelChoice.VECTOR)) {
            simulation.frame();
            int archetypes = 2; // the roots', and the one all children share (ChildOf is sparse)
            assertEquals(archetypes, simulation.extractor().lastArchetypes());
            assertEquals(archetypes * 7, simulation.extractor().lastColumns());
            assertEquals(400L * 7 * 4, simulation.extractor().lastBytes());
            simulation.frame();
            assertEquals(400L * 7 * 4, simulation.extractor().lastBytes(), "every root moved again");
        }
    }

    @Test
    void composesThroughOneSwappableSystem() {
        assertEquals(BuiltinSystems.RELATIVE_TRANSFORMS, TransformsSimulation.composition(KernelChoice.SCALAR).name());
        try (TransformsSimulation simulation = new TransformsSimulation(40, 1, KernelChoice.SCALAR)) {
            List<String> names = simulation.world().listSystems().stream().map(SystemInfo::name).toList();
            assertEquals(1, names.stream().filter(BuiltinSystems.RELATIVE_TRANSFORMS::equals).count(), names.toString());
            assertTrue(names.contains(TransformsSimulation.MOVE_ROOTS) && names.contains(TransformsSimulation.EXTRACT));
        }
    }

    @Test
    void rejectsSizesOutsideItsRange() {
        for (int bad : new int[] {0, -40, TransformsSimulation.MAX_ENTITIES + 1}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new TransformsSimulation(bad, 1, KernelChoice.SCALAR));
            assertEquals("entities=" + bad + " outside 1.." + TransformsSimulation.MAX_ENTITIES, e.getMessage());
        }
    }

    /**
     * A warm frame allocates nothing: moving the roots, composing the hierarchy and extracting what changed reuse
     * their scratch and visitors. The roots' velocity visitor was a lambda reading the simulation's fields, made
     * anew each frame (16 bytes a frame, what the job's summary showed), until it became a field. The figure is
     * the quietest of several windows (a JIT deoptimization can allocate now and then), averaged over its frames.
     */
    @Test
    void aWarmFrameAllocatesNothing() {
        try (TransformsSimulation simulation = new TransformsSimulation(4_000, 5, KernelChoice.VECTOR)) {
            double best = WarmFrameAllocation.quietest(simulation::frame, false);
            assertEquals(0.0, best, "a warm frame allocated " + best + " bytes on average");
        }
    }
}
