package dev.jtecs.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class IntruderTest {
    @Test
    void theCallRunsOnAThreadOfItsOwnAndReturningGivesNull() throws InterruptedException {
        AtomicReference<Thread> ran = new AtomicReference<>();
        assertNull(Intruder.thrownBy(() -> ran.set(Thread.currentThread())));
        assertNotSame(Thread.currentThread(), ran.get());
        assertEquals("intruder", ran.get().getName());
    }

    @Test
    void whatTheCallThrowsComesBackAndAReflectiveCallsCauseInsteadOfItsWrapper() throws InterruptedException {
        IllegalStateException failure = new IllegalStateException("refused");
        assertSame(failure, Intruder.thrownBy(() -> {
            throw failure;
        }));
        assertSame(failure, Intruder.thrownBy(() -> {
            throw new InvocationTargetException(failure);
        }));
    }
}
