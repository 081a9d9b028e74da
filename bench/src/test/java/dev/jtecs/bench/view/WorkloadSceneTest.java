package dev.jtecs.bench.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.bench.frame.FrameWorkload;
import dev.jtecs.bench.frame.KernelChoice;
import dev.jtecs.bench.particles.ParticleSimulation;
import dev.jtecs.bench.particles.Particles;
import dev.jtecs.bench.transforms.TransformsSimulation;
import dev.jtecs.builtin.TTL;
import dev.jtecs.builtin.Transform2D;
import dev.jtecs.component.FieldHandle;
import dev.jtecs.nativebindings.DirtyUploader;
import dev.jtecs.nativebindings.GlContext;
import dev.jtecs.world.World;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class WorkloadSceneTest {
    private static GlContext context;

    @BeforeAll
    static void openContext() {
        context = GlContext.open(GlContext.Surface.OFFSCREEN, 16, 16, "WorkloadSceneTest");
    }

    @AfterAll
    static void closeContext() {
        context.close();
    }

    /** Every archetype's drawn columns, read back from the GPU, equal the world's. */
    private static void assertGpuMirrorsWorld(WorkloadScene scene, World world) {
        DirtyUploader uploader = scene.uploader();
        List<FieldHandle> fields = uploader.fields();
        int[] checked = new int[1];
        world.forEachArchetype(archetype -> {
            long base = uploader.baseRowOf(archetype);
            if (base < 0 || archetype.count() == 0) {
                return;
            }
            try (Arena arena = Arena.ofConfined()) {
                for (int f = 0; f < fields.size(); f++) {
                    long size = DirtyUploader.elementBytes(fields.get(f));
                    MemorySegment back = arena.allocate(archetype.count() * size);
                    scene.buffers().readBack(f, base * size, back);
                    MemorySegment column = archetype.column(fields.get(f)).segment()
                            .asSlice(0, archetype.count() * size);
                    assertEquals(-1, column.mismatch(back), fields.get(f).name() + " of " + archetype);
                    checked[0]++;
                }
            }
        });
        assertTrue(checked[0] > 0);
    }

    private static World world(FrameWorkload workload) {
        return workload instanceof ParticleSimulation p ? p.world() : ((TransformsSimulation) workload).world();
    }

    private static void mirrorsAfterFrames(Function<Integer, FrameWorkload> create, int frames) {
        try (WorkloadScene scene = new WorkloadScene(create.apply(1), 640, 480, false);
                FrameWorkload plain = create.apply(1)) {
            for (int i = 0; i < frames; i++) {
                scene.frame();
                plain.frame();
                assertGpuMirrorsWorld(scene, world(scene.workload()));
            }
            assertEquals(plain.checksum(), scene.workload().checksum(), "uploading changes no state");
            World world = world(scene.workload());
            assertTrue(!world.removeSystem(ParticleSimulation.EXTRACT) && !world.removeSystem(TransformsSimulation.EXTRACT),
                    "the job's own extraction is gone");
            assertTrue(world.removeSystem(WorkloadScene.UPLOAD), "the upload is a system of the frame");
        }
    }

    @Test
    void particlesOnTheGpuEqualTheWorldEveryFrame() {
        mirrorsAfterFrames(seed -> new ParticleSimulation(3000, seed, KernelChoice.SCALAR), 6);
    }

    @Test
    void transformsOnTheGpuEqualTheWorldEveryFrame() {
        mirrorsAfterFrames(seed -> new TransformsSimulation(400, seed, KernelChoice.SCALAR), 4);
    }

    @Test
    void theParticleFrameSendsEveryDrawnColumnBecauseEveryOneIsWritten() {
        try (WorkloadScene dirty = new WorkloadScene(new ParticleSimulation(5000, 2, KernelChoice.SCALAR), 64, 64,
                false)) {
            dirty.frame();
            dirty.frame();
            // x, y (floats), remaining, startingTime (doubles): integration and the countdown write them all,
            // and ~50 despawns overflow the residue, so the dirty upload is whole
            assertEquals(5000L * (4 + 4 + 8 + 8), dirty.lastUploadBytes());
        }
    }

    @Test
    void aFullUploadSendsEverythingEvenWhenNothingChanged() {
        try (WorkloadScene full = new WorkloadScene(new TransformsSimulation(400, 3, KernelChoice.SCALAR), 64, 64,
                true)) {
            full.frame();
            assertEquals(400L * (4 + 4 + 4), full.lastUploadBytes()); // x, y, layer
        }
    }

    @Test
    void stylesDrawEachWorkloadsOwnColumns() {
        try (ParticleSimulation particles = new ParticleSimulation(10, 1, KernelChoice.SCALAR)) {
            assertEquals(List.of(Particles.X, Particles.Y, TTL.REMAINING, TTL.STARTING_TIME),
                    WorkloadScene.style(particles, 2f).fields());
            assertEquals(1040f, WorkloadScene.style(particles, 2f).halfWidth());
            assertThrows(IllegalArgumentException.class, () -> WorkloadScene.style(particles, 0f));
        }
        try (TransformsSimulation transforms = new TransformsSimulation(40, 1, KernelChoice.SCALAR)) {
            assertEquals(List.of(Transform2D.X, Transform2D.Y, Transform2D.LAYER),
                    WorkloadScene.style(transforms, 1f).fields());
        }
    }
}
