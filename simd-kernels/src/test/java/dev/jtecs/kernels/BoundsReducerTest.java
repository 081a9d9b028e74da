package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.Transform2D;
import dev.jtecs.builtin.Transform3D;
import dev.jtecs.component.Components;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.kernels.vector.VectorBoundsOps;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Bounds over a query: every matched archetype counts, unmatched and empty ones do not, nothing is marked dirty
 * (no dirty bit, no write count), and both implementations give the same boxes.
 */
class BoundsReducerTest {
    static final BoundsOps[] BOTH = {VectorBoundsOps.INSTANCE, BoundsOps.SCALAR};

    record Spot(float x, float y, float z) {}

    static final NativeComponent<Spot> SPOT = Components.registerNative(Spot.class, o -> o.name("kernels.test.Spot"));

    private World world;
    private Query placed;

    @BeforeEach
    void world() {
        world = World.create();
        for (int i = 0; i < 100; i++) { // 100 rows in one archetype: whole vectors and a tail
            world.spawn(Transform2D.COMPONENT.of(Transform2D.at(i, -i)));
        }
        world.spawn(Transform2D.COMPONENT.of(Transform2D.at(-500, 3)), TwinScene.MARK); // a second archetype
        world.spawn(Transform2D.COMPONENT.of(Transform2D.at(Float.NaN, 1e6f)), TwinScene.BARE); // NaN x: skipped
        long gone = world.spawn(Transform2D.COMPONENT.of(Transform2D.at(1e9f, 1e9f)), TwinScene.MARK,
                TwinScene.BARE);
        world.despawn(gone); // an empty archetype whose stale row must not count
        world.spawn(SPOT.of(new Spot(9e9f, 9e9f, 9e9f))); // not matched
        placed = world.newQuery(QueryDescriptor.builder().include(Transform2D.COMPONENT).build());
        world.clearDirty();
    }

    @AfterEach
    void close() {
        world.close();
    }

    @Test
    void coversEveryMatchedRowSkippingNaN() {
        for (BoundsOps ops : BOTH) {
            Bounds2D bounds = new BoundsReducer(ops).bounds2d(placed, Transform2D.X, Transform2D.Y);
            assertEquals(new Bounds2D(-500, -99, 99, 1e6f), bounds, ops.mode().toString());
            assertTrue(bounds.contains(0, 0));
        }
    }

    @Test
    void marksNothing() {
        List<Long> writesBefore = writeCounts();
        for (BoundsOps ops : BOTH) {
            new BoundsReducer(ops).bounds2d(placed, Transform2D.X, Transform2D.Y);
        }
        assertEquals(List.of(), world.dirtyArchetypes(), "no archetype turned dirty");
        assertEquals(writesBefore, writeCounts(), "no write count moved");
    }

    private List<Long> writeCounts() {
        List<Long> counts = new ArrayList<>();
        world.forEachArchetype(a -> counts.add(a.has(Transform2D.COMPONENT) ? a.writeCount(Transform2D.COMPONENT)
                : -1));
        return counts;
    }

    @Test
    void anEmptyQueryIsEmpty() {
        Query none = world.newQuery(QueryDescriptor.builder().include(Transform2D.COMPONENT, Transform3D.COMPONENT)
                .build());
        for (BoundsOps ops : BOTH) {
            BoundsReducer reducer = new BoundsReducer(ops);
            assertEquals(Bounds2D.EMPTY, reducer.bounds2d(none, Transform2D.X, Transform2D.Y));
            assertEquals(Bounds3D.EMPTY, reducer.bounds3d(none, Transform2D.X, Transform2D.Y, Transform2D.Z));
        }
    }

    @Test
    void boundsInThreeDimensions() {
        world.spawn(SPOT.of(new Spot(1, 2, 3)));
        world.spawn(SPOT.of(new Spot(-4, 5, -0.0f)));
        Query spots = world.newQuery(QueryDescriptor.builder().include(SPOT).build());
        for (BoundsOps ops : BOTH) {
            Bounds3D bounds = new BoundsReducer(ops).bounds3d(spots, SPOT.floatField("x"), SPOT.floatField("y"),
                    SPOT.floatField("z"));
            assertEquals(new Bounds3D(-4, 2, -0.0f, 9e9f, 9e9f, 9e9f), bounds, ops.mode().toString());
        }
    }

    @Test
    void refusesFieldsTheQueryDoesNotInclude() {
        BoundsReducer reducer = new BoundsReducer();
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> reducer.bounds2d(placed, Transform2D.X, SPOT.floatField("y")));
        assertTrue(refused.getMessage().contains("kernels.test.Spot"), refused.getMessage());
        assertTrue(refused.getMessage().contains("y"), refused.getMessage());
        assertEquals(new Bounds2D(-500, -99, 99, 1e6f), reducer.bounds2d(placed, Transform2D.X, Transform2D.Y),
                "still usable");
    }

    @Test
    void refusesToNestInsideItsOwnReductionAndRecovers() {
        BoundsReducer[] self = new BoundsReducer[1];
        boolean[] reenter = {true};
        BoundsOps reentrant = new BoundsOps() {
            @Override
            public KernelMode mode() {
                return KernelMode.SCALAR;
            }

            @Override
            public void minMax(java.lang.foreign.MemorySegment column, int count, float[] range) {
                if (reenter[0]) {
                    self[0].bounds2d(placed, Transform2D.X, Transform2D.Y);
                }
                BoundsOps.SCALAR.minMax(column, count, range);
            }
        };
        self[0] = new BoundsReducer(reentrant);
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> self[0].bounds2d(placed, Transform2D.X, Transform2D.Y));
        assertTrue(refused.getMessage().contains("already reducing"), refused.getMessage());
        reenter[0] = false;
        assertEquals(new Bounds2D(-500, -99, 99, 1e6f), self[0].bounds2d(placed, Transform2D.X, Transform2D.Y),
                "usable again after the failed reduction");
    }
}
