package dev.jtecs.kernels;

import static dev.jtecs.kernels.KernelRunnerTest.DX;
import static dev.jtecs.kernels.KernelRunnerTest.DY;
import static dev.jtecs.kernels.KernelRunnerTest.POSITION;
import static dev.jtecs.kernels.KernelRunnerTest.VELOCITY;
import static dev.jtecs.kernels.KernelRunnerTest.X;
import static dev.jtecs.kernels.KernelRunnerTest.Y;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.util.List;
import org.junit.jupiter.api.Test;

class KernelColumnsTest {
    @Test
    void segmentsComeWritesFirstThenReads() {
        KernelColumns columns = KernelColumns.of(List.of(X, Y), List.of(DX, DY), WritePolicy.ALWAYS);
        assertEquals(4, columns.size());
        assertEquals(List.of(X, Y, DX, DY), List.of(columns.column(0), columns.column(1), columns.column(2),
                columns.column(3)));
    }

    @Test
    void writtenComponentsAreDistinctInFirstAppearanceOrder() {
        KernelColumns columns = KernelColumns.of(List.of(DY, X, Y, DX), List.of(), WritePolicy.WHEN_CHANGED);
        assertEquals(2, columns.writtenComponentCount());
        assertEquals(VELOCITY, columns.writtenComponent(0));
        assertEquals(POSITION, columns.writtenComponent(1));
    }

    @Test
    void requiresEveryColumnInTheQueryAndFindsEachColumnsSegmentInAnArchetype() {
        KernelColumns columns = KernelColumns.of(List.of(X), List.of(DX), WritePolicy.ALWAYS);
        try (World world = World.create()) {
            Archetype walker = world.archetypeOf(world.spawn(POSITION, VELOCITY));
            Archetype statue = world.archetypeOf(world.spawn(POSITION));
            columns.requireIncluded(world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build()), "k");
            Query positions = world.newQuery(QueryDescriptor.builder().include(POSITION).build());
            IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                    () -> columns.requireIncluded(positions, "k"));
            assertTrue(missing.getMessage().contains("the kernel k touches"), missing.getMessage());
            assertEquals(walker.get(X).segment().address(), columns.segment(walker, 0).address());
            assertEquals(walker.get(DX).segment().address(), columns.segment(walker, 1).address());
            assertEquals(statue.get(X).segment().address(), columns.segment(statue, 0).address());
            assertThrows(IllegalArgumentException.class, () -> columns.segment(statue, 1));
        }
    }

    @Test
    void rejectsNoWritesAndRepeatedColumns() {
        assertThrows(IllegalArgumentException.class, () -> KernelColumns.of(List.of(), List.of(X), WritePolicy.ALWAYS));
        assertThrows(IllegalArgumentException.class,
                () -> KernelColumns.of(List.of(X), List.of(X), WritePolicy.ALWAYS));
        assertThrows(IllegalArgumentException.class,
                () -> KernelColumns.of(List.of(X, X), List.of(), WritePolicy.ALWAYS));
    }

    @Test
    void motionKernelsRejectBadParameters() {
        assertThrows(IllegalArgumentException.class, () -> MotionKernels.wrap(X, 1f, 1f));
        assertThrows(IllegalArgumentException.class, () -> MotionKernels.clamp(X, Float.NaN, 1f));
        assertThrows(IllegalArgumentException.class, () -> MotionKernels.wrap(X, -Float.MAX_VALUE, Float.MAX_VALUE));
        assertThrows(IllegalArgumentException.class, () -> MotionKernels.damping(DX, DY, 1.5f));
        assertThrows(IllegalArgumentException.class, () -> MotionKernels.gravity(DY, Float.POSITIVE_INFINITY));
    }

    @Test
    void dampingIsFrameRateIndependent() {
        float oneStep = MotionKernels.dampingFactor(0.5f, 1f);
        float fourSteps = (float) Math.pow(MotionKernels.dampingFactor(0.5f, 0.25f), 4);
        assertEquals(0.5f, oneStep);
        assertEquals(oneStep, fourSteps, 1e-6f);
    }
}
