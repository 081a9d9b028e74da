package dev.jtecs.storage.internal;

/**
 * One world's structure counter: it advances whenever the shape of the world's storage may have changed, so
 * code that caches a plan built from that shape can check one number per use instead of re-deriving the plan.
 *
 * <p>Advances on: a table created or pruned, rows placed, removed or moved (every {@link Table} structural
 * change: appends, truncations, swap-removes, whole-table moves and exchanges) and column buffers replaced
 * (growth, rebuild, release). Between two equal readings every table keeps its rows (the same entities at the
 * same rows), its column views and segments stay valid, and every entity keeps its table and row; only values
 * may have changed.
 *
 * <p>Invariant: the value only grows, by at least one per change (a change may advance it more than once).
 */
public final class StructureClock {
    private long version;

    /** The current value: equal readings bracket a stretch with no structural change. */
    public long version() {
        return version;
    }

    /** Records a structural change. */
    void tick() {
        version++;
    }
}
