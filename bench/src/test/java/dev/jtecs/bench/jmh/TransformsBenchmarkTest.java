package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.jtecs.builtin.Transform2D;
import org.junit.jupiter.api.Test;

/**
 * The jtecs (builtin and kernel composition) and plain-array variants of {@code transforms} compute the same world
 * transforms, bit for bit, frame after frame; and the frames do move things.
 */
class TransformsBenchmarkTest {
    private static final int N = 400; // 10 trees of 40

    @Test
    void everyVariantComposesTheSameTransformsFrameAfterFrame() {
        TransformsBenchmark bench = new TransformsBenchmark();
        bench.entities = N;
        bench.setUp(EngineUnderTest.ALL);
        try {
            assertEquals(N, bench.world.entityCount());
            Transform2D leafBefore = bench.world.get(bench.ids[N - 1], Transform2D.COMPONENT);
            for (int frame = 1; frame <= 5; frame++) {
                bench.jtecsFrame();
                bench.jtecsKernelFrame();
                bench.plainFrame();
                for (int i = 0; i < N; i++) {
                    Transform2D expected = new Transform2D(bench.x[i], bench.y[i], bench.z[i], bench.layer[i],
                            bench.rotation[i], bench.scaleX[i], bench.scaleY[i]);
                    assertEquals(expected, bench.world.get(bench.ids[i], Transform2D.COMPONENT),
                            "node " + i + " (depth " + bench.forest.depth[i] + ") after frame " + frame);
                    assertEquals(expected, bench.kernelWorld.get(bench.kernelIds[i], Transform2D.COMPONENT),
                            "kernel world: node " + i + " (depth " + bench.forest.depth[i] + ") after frame " + frame);
                }
            }
            assertNotEquals(leafBefore, bench.world.get(bench.ids[N - 1], Transform2D.COMPONENT), "leaves move");
        } finally {
            bench.tearDown();
        }
    }
}
