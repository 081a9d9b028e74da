package dev.jtecs.bench.particles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.bench.frame.KernelChoice;
import dev.jtecs.bench.frame.WarmFrameAllocation;
import dev.jtecs.builtin.systems.BuiltinSystems;
import dev.jtecs.builtin.TTL;
import dev.jtecs.component.FieldHandle;
import dev.jtecs.schedule.SystemInfo;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ParticleSimulationTest {
    /** Every particle's state by entity id. */
    private static Map<Long, double[]> byId(World world) {
        Map<Long, double[]> out = new HashMap<>();
        world.forEachArchetype(archetype -> {
            if (!archetype.has(Particles.POSITION)) {
                return;
            }
            for (int row = 0; row < archetype.count(); row++) {
                out.put(archetype.entity(row), new double[] {archetype.get(Particles.X).get(row),
                    archetype.get(Particles.Y).get(row), archetype.get(Particles.VX).get(row),
                    archetype.get(Particles.VY).get(row), archetype.get(TTL.STARTING_TIME).get(row),
                    archetype.get(TTL.REMAINING).get(row)});
            }
        });
        return out;
    }

    @Test
    void savedAfterTheSameFramesTheSnapshotIsByteIdenticalForEveryKernelThreadCountAndPasses(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        byte[] reference = null;
        for (ParticleSimulation.Passes passes : ParticleSimulation.Passes.values()) {
          for (KernelChoice kernels : List.of(KernelChoice.SCALAR, KernelChoice.VECTOR)) {
            for (int threads : new int[] {1, 2, 3}) {
                java.nio.file.Path file = dir.resolve(passes + "-" + kernels + "-" + threads + ".snapshot");
                try (ParticleSimulation simulation = new ParticleSimulation(12_000, 9, kernels, threads, null,
                        passes)) {
                    for (int frame = 0; frame < 25; frame++) {
                        simulation.frame();
                    }
                    simulation.save(file, null);
                }
                byte[] bytes = java.nio.file.Files.readAllBytes(file);
                if (reference == null) {
                    reference = bytes;
                } else {
                    org.junit.jupiter.api.Assertions.assertArrayEquals(reference, bytes, passes + " " + kernels
                            + " on " + threads + " threads");
                }
            }
          }
        }
    }

    @Test
    void aRunStartedFromASavedWorldContinuesItExactly(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        java.nio.file.Path file = dir.resolve("particles.snapshot");
        long uninterrupted;
        try (ParticleSimulation simulation = new ParticleSimulation(10_000, 4, KernelChoice.VECTOR)) {
            for (int frame = 0; frame < 60; frame++) {
                if (frame == 30) {
                    simulation.save(file, null);
                }
                simulation.frame();
            }
            uninterrupted = simulation.checksum();
        }
        try (ParticleSimulation resumed = new ParticleSimulation(10_000, 4, KernelChoice.SCALAR, 2, file)) {
            assertEquals(10_000, resumed.liveCount());
            for (int frame = 30; frame < 60; frame++) {
                resumed.frame();
            }
            assertEquals(uninterrupted, resumed.checksum(), "the same particles, ids, lifetimes and random draws");
        }
    }

    @Test
    void keepsThePopulationAndTurnsOverAboutOnePercentPerFrame() {
        int n = 20_000;
        try (ParticleSimulation simulation = new ParticleSimulation(n, 5, KernelChoice.VECTOR)) {
            long[] perFrame = new long[300];
            for (int frame = 0; frame < perFrame.length; frame++) {
                long before = simulation.expired();
                simulation.frame();
                perFrame[frame] = simulation.expired() - before;
                assertEquals(n, simulation.liveCount(), "after frame " + frame);
                assertEquals(simulation.expired(), simulation.spawned());
            }
            double mean = java.util.Arrays.stream(perFrame).average().orElse(0) / n;
            assertTrue(mean > 0.008 && mean < 0.012, "mean turnover " + mean);
            long firstTen = java.util.Arrays.stream(perFrame, 0, 10).sum();
            assertTrue(firstTen > 10 * n * 0.006, "turnover starts at once (steady-state lifetimes): " + firstTen);
            assertEquals(perFrame.length, simulation.world().fixedStepCount(), "one fixed step per frame");
        }
    }

    @Test
    void oneFrameAppliesTheRulesToEveryParticleThatLives() {
        try (ParticleSimulation simulation = new ParticleSimulation(5000, 11, KernelChoice.SCALAR)) {
            for (int warm = 0; warm < 3; warm++) {
                simulation.frame();
            }
            Map<Long, double[]> before = byId(simulation.world());
            simulation.frame();
            Map<Long, double[]> after = byId(simulation.world());
            int survivors = 0;
            for (Map.Entry<Long, double[]> e : after.entrySet()) {
                double[] b = before.get(e.getKey());
                if (b == null) {
                    continue; // respawned this frame (its id may be a recycled slot's next generation)
                }
                survivors++;
                float vx = (float) b[2] * ParticleRules.DAMPING_FACTOR;
                float vy = ((float) b[3] + ParticleRules.GRAVITY_STEP) * ParticleRules.DAMPING_FACTOR;
                double[] a = e.getValue();
                assertEquals(vx, (float) a[2]);
                assertEquals(vy, (float) a[3]);
                assertEquals((float) b[0] + vx * ParticleRules.DT, (float) a[0]);
                assertEquals((float) b[1] + vy * ParticleRules.DT, (float) a[1]);
                assertEquals(b[4], a[4]);
                assertEquals(b[5] - ParticleRules.FIXED_STEP, a[5]);
                assertTrue(a[5] > ParticleRules.SPENT_LIMIT, "a spent particle would have been despawned");
            }
            assertTrue(survivors > 4900 && survivors < 5000, "survivors " + survivors);
        }
    }

    @Test
    void respawnsEachFramesBurstFromOnePoint() {
        try (ParticleSimulation simulation = new ParticleSimulation(5000, 3, KernelChoice.VECTOR)) {
            simulation.frame();
            Map<Long, double[]> before = byId(simulation.world());
            simulation.frame();
            long born = byId(simulation.world()).entrySet().stream()
                    .filter(e -> !before.containsKey(e.getKey()))
                    .map(e -> e.getValue()[0] + "," + e.getValue()[1]).distinct().count();
            assertEquals(1, born, "the newborn have not moved yet: all at the burst point");
            assertEquals(5000, simulation.liveCount());
        }
    }

    @Test
    void theThreadCountDoesNotChangeTheState() {
        // 70,000 rows: more than four 16,384-row chunks, so three workers really split the columns
        try (ParticleSimulation one = new ParticleSimulation(70_000, 7, KernelChoice.VECTOR, 1);
                ParticleSimulation three = new ParticleSimulation(70_000, 7, KernelChoice.VECTOR, 3)) {
            for (int frame = 0; frame < 40; frame++) {
                one.frame();
                three.frame();
                assertEquals(one.expired(), three.expired(), "frame " + frame);
            }
            assertEquals(one.checksum(), three.checksum());
            assertEquals(one.snapshot(), three.snapshot());
        }
    }

    @Test
    void theSameSeedGivesTheSameStateAndTheKernelChoiceDoesNotChangeIt() {
        try (ParticleSimulation vector = new ParticleSimulation(3000, 42, KernelChoice.VECTOR);
                ParticleSimulation again = new ParticleSimulation(3000, 42, KernelChoice.VECTOR);
                ParticleSimulation scalar = new ParticleSimulation(3000, 42, KernelChoice.SCALAR);
                ParticleSimulation other = new ParticleSimulation(3000, 43, KernelChoice.VECTOR)) {
            for (int frame = 0; frame < 150; frame++) {
                vector.frame();
                again.frame();
                scalar.frame();
                other.frame();
            }
            assertEquals(vector.checksum(), again.checksum());
            assertEquals(vector.checksum(), scalar.checksum(), "vector kernels are bit-for-bit twins");
            assertEquals(vector.snapshot(), scalar.snapshot());
            assertNotEquals(vector.checksum(), other.checksum());
            assertEquals(vector.expired(), scalar.expired());
        }
    }

    @Test
    void runsItsSystemsInTheWorldsSchedulerInPlaceOfTheBuiltinCountdown() {
        try (ParticleSimulation simulation = new ParticleSimulation(100, 1, KernelChoice.SCALAR, 1, null,
                ParticleSimulation.Passes.SEPARATE)) {
            List<String> names = simulation.world().listSystems().stream().map(SystemInfo::name).toList();
            assertFalse(names.contains(BuiltinSystems.TTL), names.toString());
            List<String> ours = names.stream().filter(name -> name.startsWith("particles.")).toList();
            assertEquals(List.of(ParticleSimulation.GRAVITY, ParticleSimulation.DAMPING, ParticleSimulation.INTEGRATE,
                    ParticleSimulation.LIFETIMES, ParticleSimulation.RESPAWN, ParticleSimulation.EXTRACT), ours);
        }
        try (ParticleSimulation simulation = new ParticleSimulation(100, 1, KernelChoice.SCALAR)) {
            assertEquals(ParticleSimulation.Passes.FUSED, simulation.passes(), "fused by default");
            List<String> names = simulation.world().listSystems().stream().map(SystemInfo::name).toList();
            assertFalse(names.contains(BuiltinSystems.TTL), names.toString());
            List<String> ours = names.stream().filter(name -> name.startsWith("particles.")).toList();
            assertEquals(List.of(ParticleSimulation.STEP, ParticleSimulation.LIFETIMES, ParticleSimulation.RESPAWN,
                    ParticleSimulation.EXTRACT), ours);
        }
    }

    /** The fused frame leaves the state, the dirty marks and the extraction of the separate one, frame by frame. */
    @Test
    void fusedAndSeparateFramesGiveTheSameStateMarksAndExtraction() {
        for (KernelChoice kernels : List.of(KernelChoice.SCALAR, KernelChoice.VECTOR)) {
            try (ParticleSimulation separate = new ParticleSimulation(5000, 3, kernels, 1, null,
                    ParticleSimulation.Passes.SEPARATE);
                    ParticleSimulation fused = new ParticleSimulation(5000, 3, kernels, 1, null,
                            ParticleSimulation.Passes.FUSED)) {
                for (int frame = 0; frame < 120; frame++) {
                    separate.frame();
                    fused.frame();
                    String at = kernels + " frame " + frame;
                    assertEquals(separate.checksum(), fused.checksum(), at);
                    assertEquals(separate.expired(), fused.expired(), at);
                    assertEquals(separate.extractor().lastBytes(), fused.extractor().lastBytes(), at);
                    assertEquals(separate.extractor().lastColumns(), fused.extractor().lastColumns(), at);
                    assertEquals(separate.extractor().lastArchetypes(), fused.extractor().lastArchetypes(), at);
                }
                assertEquals(separate.snapshot(), fused.snapshot());
                fused.world().forEachArchetype(archetype -> assertMirrored(fused, archetype));
                assertTrue(fused.expired() > 5000, "a generation expired: " + fused.expired());
            }
        }
    }

    @Test
    void extractsPositionAndLifetimeOfEveryParticleEachFrameAndMirrorsThem() {
        try (ParticleSimulation simulation = new ParticleSimulation(4000, 9, KernelChoice.VECTOR)) {
            for (int frame = 0; frame < 5; frame++) {
                simulation.frame();
                assertEquals(4, simulation.extractor().lastColumns());
                assertEquals(4000L * 24, simulation.extractor().lastBytes());
            }
            simulation.world().forEachArchetype(archetype -> assertMirrored(simulation, archetype));
            assertTrue(simulation.nativeBytes() > simulation.world().nativeBytesReserved());
        }
    }

    private static void assertMirrored(ParticleSimulation simulation, Archetype archetype) {
        if (!archetype.has(Particles.POSITION) || archetype.count() == 0) {
            return;
        }
        for (FieldHandle field : ParticleSimulation.EXTRACTED) {
            int count = archetype.count();
            long bytes = (long) count * field.component().layout().fieldKinds().get(field.field()).byteSize();
            MemorySegment column = switch (field) {
                case dev.jtecs.component.FloatField f -> archetype.get(f).segment();
                case dev.jtecs.component.DoubleField f -> archetype.get(f).segment();
                default -> throw new AssertionError(field);
            };
            assertEquals(-1, simulation.extractor().region(archetype, field, count).mismatch(column.asSlice(0, bytes)),
                    field.toString());
        }
    }

    /**
     * A warm frame allocates nothing, whatever the turnover: at 100,000 particles about 1,000 die and are respawned
     * each frame, so any per-entity garbage (an id array, a list of dirty archetypes per frame) would cost
     * kilobytes, and any per-frame object (a batch descriptor) shows as a few bytes a frame on average. The
     * figure is the quietest of several windows (JIT deoptimizations can allocate now and then), averaged over
     * the window's frames.
     */
    @Test
    void aWarmFrameAllocatesNothing() {
        try (ParticleSimulation simulation = new ParticleSimulation(100_000, 9, KernelChoice.VECTOR)) {
            long[] expiredBefore = {0};
            double best = WarmFrameAllocation.quietest(simulation::frame, false,
                    () -> expiredBefore[0] = simulation.expired(),
                    frames -> assertTrue(simulation.expired() - expiredBefore[0] > 500L * frames, "turnover ran"));
            // the burst's BatchOp (~120 B) was the last per-frame object: the transaction now recycles it; a slice
            // per zeroed column and a list view per publication took a frame to ~390 B before that
            assertEquals(0.0, best, "a warm frame allocated " + best + " bytes on average");
        }
    }

    /**
     * On two threads a warm frame allocates nothing on any thread: the parallel step's chunks and the
     * extraction's copies (at 100,000 particles each extracted column is at least 400 KB, so the copies run as
     * pieces on the workers) reuse their tasks and scratch. Counted over every thread of the JVM, the quietest of
     * several windows.
     */
    @Test
    void aWarmTwoThreadFrameAllocatesNothingOnAnyThread() {
        try (ParticleSimulation simulation = new ParticleSimulation(100_000, 9, KernelChoice.VECTOR, 2)) {
            double best = WarmFrameAllocation.quietest(simulation::frame, true);
            assertTrue(simulation.extractor().lastBytes() >= 400_000L * 2, "the copies were large enough to split");
            assertEquals(0.0, best, "a warm two-thread frame allocated " + best + " bytes on average");
        }
    }

    @Test
    void rejectsPopulationsOutsideItsRange() {
        for (int bad : new int[] {0, -1, ParticleSimulation.MAX_ENTITIES + 1}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new ParticleSimulation(bad, 1, KernelChoice.SCALAR));
            assertEquals("entities=" + bad + " outside 1.." + ParticleSimulation.MAX_ENTITIES, e.getMessage());
        }
    }
}
