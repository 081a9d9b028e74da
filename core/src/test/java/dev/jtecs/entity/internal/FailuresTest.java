package dev.jtecs.entity.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class FailuresTest {
    @Test
    void theFirstFailureCarriesTheLaterOnesOnceEach() {
        IllegalStateException first = new IllegalStateException("first");
        OutOfMemoryError second = new OutOfMemoryError("second");
        assertSame(first, Failures.fold(null, first));
        assertSame(first, Failures.fold(first, second));
        assertSame(first, Failures.fold(first, first), "a failure is not its own suppressed");
        assertArrayEquals(new Throwable[] {second}, first.getSuppressed());
    }

    @Test
    void errorsAreThrownAsTheyAreAndRuntimeExceptionsReturned() {
        OutOfMemoryError error = new OutOfMemoryError("out");
        assertSame(error, assertThrows(OutOfMemoryError.class, () -> Failures.rethrow(error)));
        IllegalStateException runtime = new IllegalStateException("x");
        assertSame(runtime, Failures.rethrow(runtime));
        assertSame(runtime, assertThrows(IllegalStateException.class, () -> Failures.throwIfAny(runtime)));
        Failures.throwIfAny(null);
    }
}
