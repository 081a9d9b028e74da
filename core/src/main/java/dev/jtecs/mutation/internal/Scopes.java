package dev.jtecs.mutation.internal;

/**
 * The scopes of one world and the publication they gate: how deep the caller is in structural scopes, and when
 * the staged work is handed to the drain.
 *
 * <p>Three depths are kept. {@code depth} counts every open scope: explicit ones ({@code defer}), implicit ones (a
 * structural call, an iteration, a batch call, the drain while it runs callbacks) and the holds of running
 * dispatches. {@code deferred} counts the explicit ones and the holds; {@code held} only the holds. A hold is a
 * running system's dispatch: work its systems stage waits for the phase barrier, but a {@code commit()} inside
 * the system publishes at once, because the hold is not a scope the system opened.
 *
 * <pre>
 *   depth   ≥ deferred ≥ held ≥ 0
 *   enter/exit (implicit)      depth ±1          exit to 0 with work staged ─► publish
 *   defer/commit (explicit)    depth, deferred   commit down to the hold     ─► publish
 *   hold/release (dispatch)    all three         release(publish) to 0      ─► publish
 *   unwind                     down to the hold, then publish
 * </pre>
 *
 * <p>Invariants: no depth ever drops below the hold (an iterator closed after an {@code unwind()} clamps); the
 * drain never runs reentrantly (a publication requested while it runs joins it); nothing publishes once the
 * world is closed.
 */
public final class Scopes {
    private final CommitDrain drain;
    private int depth;
    private int deferred;
    private int held;
    private boolean closed;

    public Scopes(CommitDrain drain) {
        this.drain = drain;
    }

    /** How many scopes are open (0: structural calls publish at once). */
    public int depth() {
        return depth;
    }

    /** Whether a running dispatch holds the world (a system body or run condition is on the stack). */
    public boolean isHeld() {
        return held > 0;
    }

    /** Whether every open scope is explicit or a hold: no iteration, structural call or drain callback is open. */
    public boolean onlyDeferred() {
        return depth == deferred;
    }

    /** The world was closed: nothing publishes any more. */
    public void close() {
        closed = true;
    }

    /** Opens an explicit scope ({@code defer()}). */
    public void defer() {
        depth++;
        deferred++;
    }

    /**
     * Closes the innermost explicit scope, if one is open above the hold, and publishes when nothing but the
     * dispatch's hold remains and the drain is not running.
     */
    public void commit() {
        if (deferred > held) {
            deferred--;
            depth--;
        }
        if (depth == held && !drain.isDraining()) {
            publish();
        }
    }

    /** Closes every scope down to the dispatch's hold and publishes unless the drain runs. */
    public void unwind() {
        depth = held;
        deferred = held;
        if (!drain.isDraining()) {
            publish();
        }
    }

    /** Opens an implicit scope (a structural call, an iteration, a batch). */
    public void enter() {
        depth++;
    }

    /**
     * Closes an implicit scope, clamping at the hold. When it was the outermost and the call succeeded, publishes;
     * after a failure the staged work waits for the next publication or {@code unwind()}.
     */
    public void exit(boolean publishIfOutermost) {
        if (depth > held) {
            depth--;
        }
        if (depth == 0 && publishIfOutermost && !closed && !drain.isDraining() && drain.hasWork()) {
            publish(); // (a callback that closed the world leaves nothing to publish)
        }
    }

    /** Runs {@code body} as one implicit scope, published on exit when outermost and successful. */
    public void run(Runnable body) {
        enter();
        boolean ok = false;
        try {
            body.run();
            ok = true;
        } finally {
            exit(ok);
        }
    }

    /** A barrier (between two systems): publishes unless a scope other than the hold is open or the drain runs. */
    public void barrier() {
        if (!closed && depth == held && !drain.isDraining() && drain.hasWork()) {
            publish();
        }
    }

    /** A dispatch starts holding: structural work of its systems waits for barriers. */
    public void hold() {
        held++;
        deferred++;
        depth++;
    }

    /** A dispatch ends: its hold goes, and the outermost one publishes when asked to. */
    public void release(boolean publish) {
        if (held > 0) {
            held--;
            deferred--;
        }
        exit(publish);
    }

    private void publish() {
        depth++; // the drain is a scope while it runs callbacks
        try {
            drain.publish();
        } finally {
            if (depth > held) {
                depth--; // clamped: an unwind() from a callback may already have reset the depth
            }
        }
    }
}
