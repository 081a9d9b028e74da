package dev.jtecs.mutation.internal;

/**
 * The scopes of one world and the publication they gate: how deep the caller is in structural scopes, and when
 * the staged work is handed to the drain.
 *
 * <p>Four kinds of scope are counted. Explicit ones ({@code defer}) and the holds of running dispatches can be
 * left open by an exception, as can cursors (a step-by-step iteration nobody closed). The scopes of running
 * calls cannot: a structural call, a batch call, a visit ({@code forEach}, {@code forEachArchetype},
 * {@code forEachDirtyArchetype}) and the drain while it runs callbacks each close theirs in a {@code finally}.
 * {@code depth} counts every open scope, {@code deferred} the explicit ones and the holds, {@code held} only the
 * holds, {@code running} the scopes of running calls; the open cursors are what remains. A hold is a running
 * system's dispatch: work its systems stage waits for the phase barrier, but a {@code commit()} inside the system
 * publishes at once, because the hold is not a scope the system opened.
 *
 * <pre>
 *   depth = deferred + running + cursors,   deferred ≥ held ≥ 0
 *   enter/exit (running call)  depth, running       exit to 0 with work staged ─► publish
 *   cursor open/close          depth                close to 0 with work staged ─► publish
 *   defer/commit (explicit)    depth, deferred      commit down to the hold     ─► publish
 *   hold/release (dispatch)    depth, deferred, held  release(publish) to 0     ─► publish
 *   unwind                     closes explicit scopes and cursors down to the hold; publishes at once unless a
 *                              call is running, else when the outermost running call returns successfully
 * </pre>
 *
 * <p>Invariants: {@code unwind} never closes the scope of a running call, so rows stay where a visit found them
 * until it returns; a cursor closed after an {@code unwind()} that already closed its scope changes nothing (each
 * unwind starts a new epoch, and a cursor remembers the one it opened in); the drain never runs reentrantly (a
 * publication requested while it runs joins it); nothing publishes once the world is closed.
 */
public final class Scopes {
    private final CommitDrain drain;
    private int depth;
    private int deferred;
    private int held;
    private int running;
    private int epoch;
    /** An {@code unwind()} ran inside a running call: the outermost one publishes when it returns successfully. */
    private boolean unwindPending;
    private boolean closed;

    public Scopes(CommitDrain drain) {
        this.drain = drain;
    }

    /** How many scopes are open (0: structural calls publish at once). */
    public int depth() {
        return depth;
    }

    /**
     * Whether the only open scope is that of one running structural call made with no scope open: nothing of the
     * caller's (no explicit scope, cursor or dispatch) is open around it, and no other call or drain runs.
     */
    public boolean isOutermostCall() {
        return depth == 1 && running == 1 && held == 0;
    }

    /** Whether a running dispatch holds the world (a system body or run condition is on the stack). */
    public boolean isHeld() {
        return held > 0;
    }

    /** Whether every open scope is explicit or a hold: no iteration, structural call or drain callback is open. */
    public boolean onlyDeferred() {
        return depth == deferred;
    }

    /**
     * Whether the world is running code that called back into the caller: a call, a visit or the drain is on the
     * stack, or a dispatch holds the world. (Open cursors and explicit scopes do not count: they may be leaked.)
     */
    public boolean inCall() {
        return running > 0 || held > 0;
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

    /**
     * Closes every explicit scope down to the dispatch's hold and every open cursor, and publishes unless the
     * drain runs. Inside a running call (a visit, a structural call, a drain callback) the call keeps its scope:
     * the publication happens when the outermost running call returns successfully.
     */
    public void unwind() {
        deferred = held;
        depth = held + running;
        epoch++; // cursors opened before this point are closed now: their late close must change nothing
        if (running > 0) {
            unwindPending = true;
        } else if (!drain.isDraining()) {
            publish();
        }
    }

    /** Opens the scope of a running call (a structural call, a visit, a batch), closed by {@link #exit}. */
    public void enter() {
        depth++;
        running++;
    }

    /**
     * Closes the scope of a running call. When it was the outermost scope and the call succeeded, publishes; after
     * a failure the staged work waits for the next publication or {@code unwind()}. When an {@code unwind()} ran
     * inside it and it was the outermost running call, the unwind's publication happens now (if it succeeded and
     * nothing but the hold remains).
     */
    public void exit(boolean publishIfOutermost) {
        if (running > 0) {
            running--;
            depth--;
        }
        boolean unwound = unwindPending && running == 0;
        if (unwound) {
            unwindPending = false;
        }
        if (publishIfOutermost && (depth == 0 || unwound && depth == held) && !closed && !drain.isDraining()
                && drain.hasWork()) { // (the depth first: a call inside a scope decides here, cheaply)
            publish(); // (a callback that closed the world leaves nothing to publish)
        }
    }

    /** Opens a cursor's scope; returns the token {@link #closeCursor} needs. */
    public int openCursor() {
        depth++;
        return epoch;
    }

    /**
     * Closes a cursor's scope, publishing when it was the outermost; nothing happens when an {@code unwind()} has
     * closed it already.
     */
    public void closeCursor(int token) {
        if (token != epoch || depth <= deferred + running) {
            return;
        }
        depth--;
        if (depth == 0 && !closed && !drain.isDraining() && drain.hasWork()) {
            publish();
        }
    }

    /** Runs {@code body} as the scope of one call, published on exit when outermost and successful. */
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
            depth--;
        }
        if (publish && depth == 0 && !closed && !drain.isDraining() && drain.hasWork()) {
            publish();
        }
    }

    private void publish() {
        enterPublication();
        try {
            drain.publish();
        } finally {
            exitPublication();
        }
    }

    /**
     * Opens the running call of a publication (the drain is a running call while it runs callbacks): around
     * {@code CommitDrain.publish}, and around a despawn the drain publishes at once
     * ({@code CommitDrain.despawnAtOnce}), closed by {@link #exitPublication}.
     */
    public void enterPublication() {
        depth++;
        running++;
    }

    /** Closes what {@link #enterPublication} opened. */
    public void exitPublication() {
        running--;
        depth--;
        if (running == 0) {
            unwindPending = false; // an unwind() from a drain callback joined this publication
        }
    }
}
