package dev.jtecs.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.entity.internal.AllocationFaults;
import org.junit.jupiter.api.Test;

/**
 * Every native allocation and every heap-array growth of a fixed script fails in turn (see {@link AllocationSweep});
 * the world must be consistent after each, hold each entity as before or as without the fault, and keep working.
 */
class AllocationSweepTest {
    @Test
    void everyAllocationOfTheScriptCanFailWithoutCorruptingTheWorld() {
        AllocationSweep.Result result = AllocationSweep.run();
        System.out.printf("allocation sweep: %d steps x kinds, %d faults injected (every k each step reaches), "
                + "%d invariant checks, 0 violations%n", result.steps(), result.faults(), result.checks());
        assertEquals(2L * AllocationSweep.steps(), result.steps());
        assertTrue(result.faults() > 100, "the script reaches allocations: " + result.faults());
    }

    @Test
    void eachStepAllocatesNativeBuffersOrGrowsHeapArrays() {
        long total = 0;
        for (int step = 0; step < AllocationSweep.steps(); step++) {
            total += AllocationSweep.allocations(step, AllocationFaults.Kind.NATIVE)
                    + AllocationSweep.allocations(step, AllocationFaults.Kind.HEAP);
        }
        assertTrue(total > 0);
        assertTrue(AllocationSweep.allocations(0, AllocationFaults.Kind.NATIVE) > 0, "spawning allocates columns");
    }

    @Test
    void aFaultPastTheLastAllocationIsReportedNotIgnored() {
        long reached = AllocationSweep.allocations(9, AllocationFaults.Kind.NATIVE);
        assertThrows(ModelMismatch.class, () -> AllocationSweep.failAt(9, AllocationFaults.Kind.NATIVE, reached + 1));
    }
}
