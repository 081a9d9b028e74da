package dev.jtecs.testing;

import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.atomic.AtomicReference;

/** Runs a call on a thread of its own and hands back what it threw: for the tests of thread confinement. */
public final class Intruder {
    private Intruder() {}

    /** A call that may throw anything (a reflective invocation included). */
    public interface Call {
        void run() throws Throwable;
    }

    /**
     * Runs {@code call} on a fresh thread named "intruder" and waits for it; returns what it threw (for a reflective
     * call's {@link InvocationTargetException}, its cause), or {@code null} when it returned.
     */
    public static Throwable thrownBy(Call call) throws InterruptedException {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread thread = new Thread(() -> {
            try {
                call.run();
            } catch (Throwable t) {
                thrown.set(t instanceof InvocationTargetException e ? e.getCause() : t);
            }
        }, "intruder");
        thread.start();
        thread.join(); // orders the thread's write of thrown before the read below
        return thrown.get();
    }
}
