package dev.jtecs.mutation.internal;

import java.util.Objects;

/**
 * Which thread may call into a world right now, in one field that objects of other packages can test: the owner
 * while the world is open, nobody while it is released or closed. The world changes it wherever its owner or its
 * closed flag changes; a spawn queue, which the world hands out, checks it on every call. One field read and one
 * compare, where a call back into the world had to reach the world and read two fields.
 *
 * <p>The field is plain: a thread that was handed the world reads it after the hand-off that made it the owner
 * (which orders the write before the read), and any other thread reads either {@code null} or a thread that is not
 * its own, so it is refused either way. Refusal runs the world's own check, so the exception and its message are the
 * world's.
 */
public final class Confinement {
    private Thread admitted;
    private final Runnable refusal;

    /**
     * Admits {@code owner}; {@code refusal} must throw what the world throws for the calling thread (it runs only
     * when {@link #check()} refuses the thread).
     */
    public Confinement(Thread owner, Runnable refusal) {
        this.admitted = owner;
        this.refusal = Objects.requireNonNull(refusal, "refusal");
    }

    /**
     * Returns when the calling thread may call into the world; otherwise throws what the world throws.
     *
     * @throws IllegalStateException when the refusal returns instead of throwing (a defect of the world)
     */
    public void check() {
        if (Thread.currentThread() != admitted) {
            refuse(); // out of line: the hot path is the compare
        }
    }

    private void refuse() {
        refusal.run();
        throw new IllegalStateException("confinement: the refusal returned for " + Thread.currentThread());
    }

    /** From now on only {@code thread} may call in ({@code null}: no thread, the world released or closed). */
    public void admit(Thread thread) {
        admitted = thread;
    }
}
