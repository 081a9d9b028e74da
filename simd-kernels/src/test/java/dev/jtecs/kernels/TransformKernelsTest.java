package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.Transform2D;
import dev.jtecs.builtin.Transform3D;
import dev.jtecs.component.FloatField;
import dev.jtecs.kernels.vector.VectorTransformOps;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import org.joml.Matrix4f;
import org.joml.Quaternionf;
import org.joml.Vector3f;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The transform kernels through the runner: each marks its output component (Affine2D, Model3D), and only that,
 * on exactly the archetypes it ran on, and writes each entity's matrix from its transform. Runs both as vector and as scalar.
 */
class TransformKernelsTest {
    static final TransformOps[] BOTH = {VectorTransformOps.INSTANCE, TransformOps.SCALAR};

    private World world;
    private Query placed;
    private Archetype drawn;   // Transform2D, Affine2D: 70 rows
    private Archetype bare;    // Transform2D only: not matched

    @BeforeEach
    void world() {
        world = World.create();
        for (int i = 0; i < 70; i++) {
            world.spawn(Transform2D.COMPONENT.of(new Transform2D(i, -i, 7f, 3, i * 0.1f, 2f, 0.5f)),
                    Affine2D.COMPONENT.of(Affine2D.IDENTITY));
        }
        drawn = world.archetypeOf(world.spawn(Transform2D.COMPONENT, Affine2D.COMPONENT));
        bare = world.archetypeOf(world.spawn(Transform2D.COMPONENT.of(Transform2D.at(1, 1))));
        placed = world.newQuery(QueryDescriptor.builder().include(Transform2D.COMPONENT, Affine2D.COMPONENT).build());
        world.forEachArchetype(Archetype::clearDirtyComponents);
    }

    @AfterEach
    void close() {
        world.close();
    }

    @Test
    void affine2dMarksOnlyAffine2DOnTheArchetypesItRanOn() {
        for (TransformOps ops : BOTH) {
            world.forEachArchetype(Archetype::clearDirtyComponents);
            long writesBefore = drawn.writeCount(Affine2D.COMPONENT);
            ColumnKernel kernel = TransformKernels.affine2d(ops);
            assertEquals(1, new KernelRunner().run(placed, kernel, 1f / 60f), kernel.toString());
            assertTrue(drawn.isComponentDirty(Affine2D.COMPONENT), kernel.toString());
            assertFalse(drawn.isComponentDirty(Transform2D.COMPONENT), kernel + ": Transform2D is only read");
            assertFalse(bare.isComponentDirty(Transform2D.COMPONENT), kernel + ": unmatched archetype");
            assertEquals(writesBefore + 1, drawn.writeCount(Affine2D.COMPONENT), "six columns, one component: one mark");
        }
    }

    @Test
    void affine2dWritesEachEntitysMatrix() {
        for (TransformOps ops : BOTH) {
            new KernelRunner().run(placed, TransformKernels.affine2d(ops), 0f);
            for (int row = 0; row < 70; row++) {
                float c = (float) Math.cos(row * 0.1f);
                float s = (float) Math.sin(row * 0.1f);
                float[] expected = {c * 2f, -s * 0.5f, row, s * 2f, c * 0.5f, -row};
                assertMatrix(expected, row, ops.mode().toString());
            }
        }
    }

    private void assertMatrix(float[] expected, int row, String where) {
        float[] actual = {drawn.get(Affine2D.M00).get(row), drawn.get(Affine2D.M01).get(row),
            drawn.get(Affine2D.M02).get(row), drawn.get(Affine2D.M10).get(row), drawn.get(Affine2D.M11).get(row),
            drawn.get(Affine2D.M12).get(row)};
        for (int i = 0; i < 6; i++) {
            TransformOpsTest.ulpDistance(expected[i], actual[i], where + " row=" + row + " entry=" + i);
        }
    }

    @Test
    void model3dMarksOnlyModel3DAndMatchesJoml() {
        Transform3D transform = Transform3D.of(new Vector3f(1, 2, 3),
                new Quaternionf().rotateXYZ(0.3f, -1.1f, 2f), new Vector3f(2, 0.5f, -1));
        Archetype modelled = world.archetypeOf(world.spawn(Transform3D.COMPONENT.of(transform), Model3D.COMPONENT));
        Query models = world.newQuery(QueryDescriptor.builder().include(Transform3D.COMPONENT, Model3D.COMPONENT)
                .build());
        float[] expected = new float[16];
        transform.toMatrix(new Matrix4f()).get(expected);
        for (TransformOps ops : BOTH) {
            world.forEachArchetype(Archetype::clearDirtyComponents);
            ColumnKernel kernel = TransformKernels.model3d(ops);
            assertEquals(1, new KernelRunner().run(models, kernel, 0f), kernel.toString());
            assertTrue(modelled.isComponentDirty(Model3D.COMPONENT), kernel.toString());
            assertFalse(modelled.isComponentDirty(Transform3D.COMPONENT), kernel + ": Transform3D is only read");
            assertFalse(drawn.isComponentDirty(Affine2D.COMPONENT), kernel + ": unmatched archetype");
            for (int m = 0; m < 16; m++) {
                assertEquals(expected[m], modelled.get((FloatField) kernel.columns().column(m)).get(0), kernel + " entry=" + m);
            }
        }
    }

    @Test
    void aRunAllocatesNothingOnceWarm() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().threadId();
        world.spawn(Transform3D.COMPONENT, Model3D.COMPONENT, Transform2D.COMPONENT, Affine2D.COMPONENT);
        Query both = world.newQuery(QueryDescriptor.builder().include(Transform2D.COMPONENT, Affine2D.COMPONENT,
                Transform3D.COMPONENT, Model3D.COMPONENT).build());
        for (TransformOps ops : BOTH) {
            KernelRunner runner = new KernelRunner();
            ColumnKernel affine = TransformKernels.affine2d(ops);
            ColumnKernel model = TransformKernels.model3d(ops);
            long best = Long.MAX_VALUE;
            // vector code allocates until C2 compiles it: keep the best round, for up to 20 seconds
            long deadline = System.nanoTime() + 20_000_000_000L;
            for (int round = 0; best > 0 && (round < 40 || System.nanoTime() < deadline); round++) {
                long before = threads.getThreadAllocatedBytes(thread);
                for (int i = 0; i < 2_000; i++) {
                    runner.run(placed, affine, 0f);
                    runner.run(both, model, 0f);
                }
                best = Math.min(best, threads.getThreadAllocatedBytes(thread) - before);
            }
            assertEquals(0, best, ops.mode() + ": bytes allocated by 2000 runs of each in the best round");
        }
    }

    @Test
    void defaultAffineIsIdentityAndProviderKernelRuns() {
        Archetype fresh = world.archetypeOf(world.spawn(Transform2D.COMPONENT, Affine2D.COMPONENT));
        assertEquals(drawn, fresh);
        assertEquals(1f, drawn.get(Affine2D.M00).get(70), "spawned by definition: the identity default");
        assertEquals(0f, drawn.get(Affine2D.M01).get(70));
        assertEquals(1f, drawn.get(Affine2D.M11).get(70));
        assertEquals(KernelProvider.mode(), KernelProvider.transforms().mode());
        assertEquals(1, new KernelRunner().run(placed, TransformKernels.affine2d(), 0f));
    }
}
