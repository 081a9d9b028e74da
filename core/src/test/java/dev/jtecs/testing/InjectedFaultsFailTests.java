package dev.jtecs.testing;

import dev.jtecs.entity.internal.AllocationFaults;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import org.junit.jupiter.api.extension.DynamicTestInvocationContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.opentest4j.AssertionFailedError;

/**
 * Makes an allocation failure that {@link AllocationFaults} injected, and that a test did not catch, fail that
 * test like any other assertion. Registered for every core test by auto-detection
 * ({@code META-INF/services/org.junit.jupiter.api.extension.Extension}, enabled in {@code junit-platform.properties}).
 *
 * <p>Why. JUnit treats an {@link OutOfMemoryError} as unrecoverable and rethrows it past the test, so an injected
 * one that escapes (a room reservation that fell short, then a growth under an armed fault) ended the whole test
 * JVM instead of failing one test: Surefire reported "an error in the forked process", named no test, and ran
 * none of the tests left in that fork. A real exhaustion is still rethrown as it is. The thread's faults are
 * disarmed when one escapes, so the tests after it start unarmed.
 */
public final class InjectedFaultsFailTests implements InvocationInterceptor {
    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> context,
            ExtensionContext extension) throws Throwable {
        reported(invocation);
    }

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation,
            ReflectiveInvocationContext<Method> context, ExtensionContext extension) throws Throwable {
        reported(invocation);
    }

    @Override
    public <T> T interceptTestFactoryMethod(Invocation<T> invocation, ReflectiveInvocationContext<Method> context,
            ExtensionContext extension) throws Throwable {
        return reported(invocation);
    }

    @Override
    public void interceptDynamicTest(Invocation<Void> invocation, DynamicTestInvocationContext context,
            ExtensionContext extension) throws Throwable {
        reported(invocation);
    }

    @Override
    public <T> T interceptTestClassConstructor(Invocation<T> invocation,
            ReflectiveInvocationContext<Constructor<T>> context, ExtensionContext extension) throws Throwable {
        return reported(invocation);
    }

    @Override
    public void interceptBeforeAllMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> context,
            ExtensionContext extension) throws Throwable {
        reported(invocation);
    }

    @Override
    public void interceptBeforeEachMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> context,
            ExtensionContext extension) throws Throwable {
        reported(invocation);
    }

    @Override
    public void interceptAfterEachMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> context,
            ExtensionContext extension) throws Throwable {
        reported(invocation);
    }

    @Override
    public void interceptAfterAllMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> context,
            ExtensionContext extension) throws Throwable {
        reported(invocation);
    }

    /** Proceeds with {@code invocation}, turning an injected allocation failure that escapes it into a failure. */
    static <T> T reported(Invocation<T> invocation) throws Throwable {
        try {
            return invocation.proceed();
        } catch (OutOfMemoryError e) {
            if (!AllocationFaults.isInjected(e)) {
                throw e;
            }
            AllocationFaults.disarm();
            throw new AssertionFailedError("an injected allocation failure escaped the test (" + e.getMessage()
                    + "): an allocation happened where none was expected, or a failure was not handled", e);
        }
    }
}
