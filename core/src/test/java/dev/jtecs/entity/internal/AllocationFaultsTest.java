package dev.jtecs.entity.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AllocationFaultsTest {
    @AfterEach
    void disarm() {
        AllocationFaults.disarm();
    }

    @Test
    void theTestRunsSwitchTheChecksOn() {
        assertTrue(AllocationFaults.ENABLED, "surefire's argLine sets -Djtecs.allocationFaults=true");
    }

    @Test
    void theKthAllocationOfAKindThrowsOnceAndTheOtherKindIsUntouched() {
        long injected = AllocationFaults.injected(AllocationFaults.Kind.NATIVE);
        AllocationFaults.failAt(AllocationFaults.Kind.NATIVE, 3);
        AllocationFaults.beforeNative(64);
        AllocationFaults.beforeHeapGrowth(10); // another kind: not counted against the native fault
        AllocationFaults.beforeNative(64);
        assertTrue(AllocationFaults.armed(AllocationFaults.Kind.NATIVE));
        OutOfMemoryError thrown = assertThrows(OutOfMemoryError.class, () -> AllocationFaults.beforeNative(128));
        assertEquals("injected native allocation #3 (128 bytes)", thrown.getMessage());
        assertFalse(AllocationFaults.armed(AllocationFaults.Kind.NATIVE), "once");
        AllocationFaults.beforeNative(64);
        assertEquals(4, AllocationFaults.seen(AllocationFaults.Kind.NATIVE));
        assertEquals(injected + 1, AllocationFaults.injected(AllocationFaults.Kind.NATIVE));
    }

    @Test
    void armingIsPerThread() throws InterruptedException {
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        AtomicReference<Throwable> other = new AtomicReference<>();
        Thread thread = new Thread(() -> {
            try {
                AllocationFaults.beforeHeapGrowth(8);
            } catch (Throwable t) {
                other.set(t);
            }
        });
        thread.start();
        thread.join();
        assertEquals(null, other.get(), "another thread's allocation is not the armed one");
        assertThrows(OutOfMemoryError.class, () -> AllocationFaults.beforeHeapGrowth(8));
    }

    /** Only the failures this class throws count as injected: a real exhaustion, or another error, does not. */
    @Test
    void anInjectedFailureIsToldFromARealOne() {
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        OutOfMemoryError injected = assertThrows(OutOfMemoryError.class, () -> AllocationFaults.beforeHeapGrowth(8));
        assertTrue(AllocationFaults.isInjected(injected));
        assertFalse(AllocationFaults.isInjected(new OutOfMemoryError("Java heap space")));
        assertFalse(AllocationFaults.isInjected(new OutOfMemoryError()), "no message");
        assertFalse(AllocationFaults.isInjected(new IllegalStateException(injected.getMessage())), "not an OOM");
    }

    @Test
    void aFaultMustBeAtLeastTheFirstAllocation() {
        assertThrows(IllegalArgumentException.class, () -> AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 0));
        assertFalse(AllocationFaults.armed(AllocationFaults.Kind.HEAP));
    }
}
