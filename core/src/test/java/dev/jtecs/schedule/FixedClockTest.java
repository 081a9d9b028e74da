package dev.jtecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Step counts and overload accounting, with dyadic values so the arithmetic is exact. */
class FixedClockTest {
    /** Runs one frame: adds dt, takes the steps due and settles; returns the steps taken. */
    private static int frame(FixedClock clock, double dt) {
        clock.add(dt);
        int taken = 0;
        while (clock.takeStep(taken)) {
            clock.completed();
            taken++;
        }
        clock.settle();
        return taken;
    }

    @Test
    void wholeStepsComeOutAndTheRemainderStays() {
        FixedClock clock = new FixedClock(0.25, 8, FixedOverload.DROP);
        assertEquals(2, frame(clock, 0.625));
        assertEquals(0.125, clock.accumulator());
        assertEquals(0, frame(clock, 0.0625));
        assertEquals(1, frame(clock, 0.0625), "0.125 + 0.0625 + 0.0625 = one whole step");
        assertEquals(0.0, clock.accumulator());
        assertEquals(3, clock.stepCount());
        assertEquals(0, frame(clock, 0));
    }

    @Test
    void dropAbandonsWholeStepsBeyondTheLimitAndKeepsTheFraction() {
        FixedClock clock = new FixedClock(0.25, 3, FixedOverload.DROP);
        assertEquals(3, frame(clock, 2.0625)); // 8 steps due, 3 run, 5 dropped, 0.0625 kept
        FixedTiming timing = clock.timing();
        assertEquals(0.0625, timing.accumulator());
        assertEquals(5, timing.stepsDropped());
        assertEquals(1.25, timing.timeDropped());
        assertEquals(3, timing.stepCount());
        assertEquals(0, frame(clock, 0), "nothing left to catch up");
        assertEquals(3, frame(clock, 1.0), "4 due: 3 run, 1 dropped");
        assertEquals(6, clock.timing().stepsDropped());
        assertEquals(1.5, clock.timing().timeDropped());
    }

    /** Exactly one whole step left over at the limit is dropped too, the fraction (none) kept. */
    @Test
    void dropAbandonsAWholeStepLeftExactlyAtTheLimit() {
        FixedClock clock = new FixedClock(0.25, 1, FixedOverload.DROP);
        assertEquals(1, frame(clock, 0.5)); // 2 due: 1 run, 1 dropped
        assertEquals(0.0, clock.accumulator());
        assertEquals(1, clock.timing().stepsDropped());
        assertEquals(0.25, clock.timing().timeDropped());
        assertEquals(0, frame(clock, 0), "nothing left to catch up");
    }

    @Test
    void accumulateCatchesUpOverLaterFrames() {
        FixedClock clock = new FixedClock(0.25, 3, FixedOverload.ACCUMULATE);
        assertEquals(3, frame(clock, 2.0625));
        assertEquals(1.3125, clock.accumulator());
        assertEquals(3, frame(clock, 0));
        assertEquals(0.5625, clock.accumulator());
        assertEquals(2, frame(clock, 0));
        assertEquals(0.0625, clock.accumulator());
        assertEquals(0, frame(clock, 0));
        FixedTiming timing = clock.timing();
        assertEquals(8, timing.stepCount());
        assertEquals(0, timing.stepsDropped());
        assertEquals(0.0, timing.timeDropped());
    }

    @Test
    void timingReportsTheSettings() {
        FixedTiming timing = new FixedClock(0.5, 4, FixedOverload.ACCUMULATE).timing();
        assertEquals(new FixedTiming(0.5, 0, 4, FixedOverload.ACCUMULATE, 0, 0, 0), timing);
    }

    @Test
    void badSettingsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new FixedClock(0, 1, FixedOverload.DROP));
        assertThrows(IllegalArgumentException.class, () -> new FixedClock(Double.NaN, 1, FixedOverload.DROP));
        assertThrows(IllegalArgumentException.class, () -> new FixedClock(1, 0, FixedOverload.DROP));
        assertThrows(NullPointerException.class, () -> new FixedClock(1, 1, null));
    }
}
