package dev.jtecs.relation.internal;

/**
 * When a walk cache ({@link ChildIndex}, {@link PreorderIndex}) has earned a build: walks that found it stale read the
 * store and {@linkplain #note note} how many entities they reached; the tally restarts whenever the relationship's
 * counter moves, and once the walks since the last change reached half the slots in use, building costs no more than
 * they did, so the next walk builds. A world whose edges change between every pair of short walks never pays a build
 * per walk; one whose hierarchy holds still builds once.
 */
final class BuildTally {
    private long version = -1; // the counter the tally counts from
    private long work;
    private boolean earned;

    /**
     * Adds {@code entities} reached by a walk on the store at {@code version} of the counter (restarting when the
     * counter moved); returns whether the walks since the last change reached at least half of {@code slotsInUse}.
     */
    boolean note(long version, int entities, int slotsInUse) {
        if (version != this.version) {
            this.version = version;
            work = 0;
        }
        work += entities;
        earned = work * 2 >= slotsInUse;
        return earned;
    }

    /** Whether the walks since the last change earned a build, the counter being at {@code version} now. */
    boolean earnedAt(long version) {
        return earned && version == this.version;
    }

    /** A build started: the walks' tally is spent. */
    void spend() {
        earned = false;
    }
}
