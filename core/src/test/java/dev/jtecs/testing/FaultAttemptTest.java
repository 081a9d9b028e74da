package dev.jtecs.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jtecs.entity.internal.AllocationFaults;
import dev.jtecs.entity.internal.Growth;
import org.junit.jupiter.api.Test;

class FaultAttemptTest {
    /** Two heap growths, the first of which fails with the operation, the second of which is let go. */
    private static void twoGrowthsTheSecondLetGo() {
        Growth.copyOf(new int[1], 2);
        try {
            Growth.copyOf(new int[1], 4);
        } catch (OutOfMemoryError letGo) {
            // as Table.rebuildViews does
        }
    }

    @Test
    void saysWhetherTheFaultFailedTheOperationWasLetGoOrWasNeverReached() {
        assertEquals(FaultAttempt.Outcome.FAILED,
                FaultAttempt.run(AllocationFaults.Kind.HEAP, 1, FaultAttemptTest::twoGrowthsTheSecondLetGo));
        assertEquals(FaultAttempt.Outcome.LET_GO,
                FaultAttempt.run(AllocationFaults.Kind.HEAP, 2, FaultAttemptTest::twoGrowthsTheSecondLetGo));
        assertEquals(FaultAttempt.Outcome.UNSPENT,
                FaultAttempt.run(AllocationFaults.Kind.HEAP, 3, FaultAttemptTest::twoGrowthsTheSecondLetGo));
        assertFalse(AllocationFaults.armed(AllocationFaults.Kind.HEAP), "every attempt disarms");
    }

    @Test
    void aRealExhaustionIsNotTakenForTheInjectedOne() {
        OutOfMemoryError real = new OutOfMemoryError("real");
        assertSame(real, assertThrows(OutOfMemoryError.class, () -> FaultAttempt.run(AllocationFaults.Kind.HEAP, 5,
                () -> {
                    throw real;
                })));
        assertFalse(AllocationFaults.armed(AllocationFaults.Kind.HEAP));
    }
}
