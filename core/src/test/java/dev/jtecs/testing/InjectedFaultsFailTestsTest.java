package dev.jtecs.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.entity.internal.AllocationFaults;
import dev.jtecs.entity.internal.Growth;
import java.util.ServiceLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.Extension;
import org.opentest4j.AssertionFailedError;

class InjectedFaultsFailTestsTest {
    @AfterEach
    void disarm() {
        AllocationFaults.disarm();
    }

    /** An injected failure that escapes becomes an assertion failure naming it, and the thread is disarmed. */
    @Test
    void anInjectedFailureThatEscapesFailsTheTest() {
        AllocationFaults.failAt(AllocationFaults.Kind.HEAP, 1);
        AllocationFaults.failAt(AllocationFaults.Kind.NATIVE, 5);
        AssertionFailedError failed = assertThrows(AssertionFailedError.class,
                () -> InjectedFaultsFailTests.reported(() -> Growth.copyOf(new int[4], 8)));
        assertTrue(AllocationFaults.isInjected(failed.getCause()), "the injected failure is its cause");
        assertEquals("an injected allocation failure escaped the test (injected heap allocation #1 (8 elements)): an "
                + "allocation happened where none was expected, or a failure was not handled", failed.getMessage());
        assertFalse(AllocationFaults.armed(AllocationFaults.Kind.NATIVE), "the other kind is disarmed too");
    }

    /** A real exhaustion, or any other failure, goes on as it is; a result comes back unchanged. */
    @Test
    void anythingElsePassesThrough() throws Throwable {
        OutOfMemoryError real = new OutOfMemoryError("Java heap space");
        assertSame(real, assertThrows(OutOfMemoryError.class, () -> InjectedFaultsFailTests.reported(() -> {
            throw real;
        })));
        IllegalStateException other = new IllegalStateException("a test's own failure");
        assertSame(other, assertThrows(IllegalStateException.class, () -> InjectedFaultsFailTests.reported(() -> {
            throw other;
        })));
        assertEquals("value", InjectedFaultsFailTests.reported(() -> "value"));
    }

    /** Auto-detection is on and finds the extension: this very test runs inside it. */
    @Test
    void everyCoreTestRunsInsideIt() {
        assertTrue(ServiceLoader.load(Extension.class).stream()
                .anyMatch(provider -> provider.type() == InjectedFaultsFailTests.class));
        boolean inside = StackWalker.getInstance().walk(frames -> frames.anyMatch(frame ->
                frame.getClassName().equals(InjectedFaultsFailTests.class.getName())
                        && frame.getMethodName().equals("reported")));
        assertTrue(inside, "the test method is invoked through it");
    }
}
