package dev.jtecs.bench.particles;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jtecs.builtin.TTL;
import dev.jtecs.kernels.MotionKernels;
import dev.jtecs.kernels.ParticleOps;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** The rules' constants are the numbers the kernels compute with, so peers following them match jtecs. */
class ParticleRulesTest {
    @Test
    void gravityAndDampingStepsAreWhatTheKernelsApply() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment v = arena.allocate(64 * Float.BYTES, 64);
            v.setAtIndex(ValueLayout.JAVA_FLOAT, 0, 3.25f);
            ParticleOps.SCALAR.accelerate(v, 1, ParticleRules.GRAVITY, ParticleRules.DT);
            assertEquals(3.25f + ParticleRules.GRAVITY_STEP, v.getAtIndex(ValueLayout.JAVA_FLOAT, 0));
            ParticleOps.SCALAR.scale(v, 1, MotionKernels.dampingFactor(ParticleRules.RETAIN_PER_SECOND,
                    ParticleRules.DT));
            assertEquals((3.25f + ParticleRules.GRAVITY_STEP) * ParticleRules.DAMPING_FACTOR,
                    v.getAtIndex(ValueLayout.JAVA_FLOAT, 0));
        }
    }

    @Test
    void aFrameIsOneFixedStepAndTheSpentRuleIsTtls() {
        assertEquals((float) (1.0 / 60), ParticleRules.DT);
        assertEquals(ParticleRules.FIXED_STEP * TTL.SPENT_SLACK, ParticleRules.SPENT_LIMIT);
        assertEquals(100 / 60.0, ParticleRules.MEAN_LIFETIME, 1e-12);
    }
}
