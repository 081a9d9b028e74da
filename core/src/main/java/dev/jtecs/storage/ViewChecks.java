package dev.jtecs.storage;

/**
 * The checked mode for column views: with {@code -Djtecs.checkViews=true} every access through an archetype's
 * view ({@code get}, {@code set}, {@code segment()} of the typed columns and {@link ObjectColumn}) first checks
 * that the archetype still holds the buffer the view was taken from and, for row accesses, that the row is below
 * the archetype's count; a stale view or an out-of-range row throws, naming the view's type, the column it views
 * (component and field, as {@code Position.x}: two stale {@code FloatColumn}s of one archetype read apart), its
 * archetype, the storage version the view was taken at and the current one.
 *
 * <p>Why: a view kept across a structural change, growth, compaction or a whole-archetype exchange points at a
 * buffer the world has freed and may already have handed to another archetype. Unchecked, a read through it
 * returns another archetype's data and a write corrupts it; with the checks on, the first such access fails.
 *
 * <p>The switch is read once, when this class initializes, into a {@code static final} field the JIT folds away:
 * off (the default: benchmarks and the jobs), a checked access costs nothing. The column labels are built once,
 * when the archetype is created, and a failing check builds its message: a passing one allocates nothing. The
 * test suites run with it on.
 * Turn it on while developing systems that cache views or segments, in debug builds of a game, and whenever a
 * value looks corrupted; leave it off in production frames. Detached views ({@code new FloatColumn(segment)})
 * have no archetype and are never checked; segments handed to kernels are checked when taken, not per element.
 */
public final class ViewChecks {
    /** Whether archetype views check their freshness and rows: {@code -Djtecs.checkViews=true}. */
    public static final boolean ENABLED = Boolean.getBoolean("jtecs.checkViews");

    private ViewChecks() {}

    /**
     * Checks that {@code view}, taken at {@code version}, is still {@code owner}'s buffer (no-op when detached);
     * {@code label} names the view's column in the message, or is {@code null}.
     */
    static void current(Object view, String label, Archetype owner, long version) {
        if (owner != null && owner.storageVersion() != version) {
            throw stale(view, label, owner, version);
        }
    }

    /** {@link #current}, and that {@code row} is inside {@code [0, owner.count())}. */
    static void row(Object view, String label, Archetype owner, long version, int row) {
        if (owner == null) {
            return;
        }
        if (owner.storageVersion() != version) {
            throw stale(view, label, owner, version);
        }
        if (row < 0 || row >= owner.rows()) { // (a released archetype's views are stale: it moved its version)
            throw new IndexOutOfBoundsException("row=" + row + " outside [0, count=" + owner.rows() + ") of "
                    + describe(view, label, owner) + " (storage version " + version + ")");
        }
    }

    private static IllegalStateException stale(Object view, String label, Archetype owner, long version) {
        owner.requireUsable(); // a closed world's or pruned archetype's view: say so rather than the version
        return new IllegalStateException("stale " + describe(view, label, owner) + ": taken at storage version "
                + version + ", the archetype's buffers are at version " + owner.storageVersion() + " (grown, "
                + "exchanged, compacted or cleared since); take views inside the loop that uses them, or compare "
                + "Archetype.storageVersion() before reusing one");
    }

    /** {@code FloatColumn view of Position.x in Archetype#3[...]}: built only when a check fails. */
    private static String describe(Object view, String label, Archetype owner) {
        String type = view.getClass().getSimpleName();
        return label == null ? type + " view of " + owner : type + " view of " + label + " in " + owner;
    }
}
