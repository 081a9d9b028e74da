package dev.jtecs.world;

/**
 * Counts describing a world at one moment, filled by {@link World#getStats(WorldStats)} into a record the caller
 * owns, so polling them every frame allocates nothing.
 */
public final class WorldStats {
    int entities;
    int archetypes;
    int components;
    int systems;
    double fixedTimeDropped;
    long fixedStepsDropped;
    long nativeBytes;
    long partitionConflictsResolved;

    /** An empty record, for {@link World#getStats(WorldStats)} to fill and the caller to keep. */
    public WorldStats() {
    }

    /** Published entities. */
    public int entities() {
        return entities;
    }

    /** Registered archetypes, empty ones included. */
    public int archetypes() {
        return archetypes;
    }

    /** Distinct components that appear in at least one archetype of the world. */
    public int components() {
        return components;
    }

    /** Registered systems. */
    public int systems() {
        return systems;
    }

    /** Simulated seconds the fixed-step loop dropped under overload, accumulated. */
    public double fixedTimeDropped() {
        return fixedTimeDropped;
    }

    /** Fixed steps dropped under overload, accumulated. */
    public long fixedStepsDropped() {
        return fixedStepsDropped;
    }

    /** Native bytes the world's columns reserve. */
    public long nativeBytes() {
        return nativeBytes;
    }

    /**
     * Same-dimension partition conflicts the world settled by keeping the higher tag value
     * ({@code PartitionConflicts.HIGHEST_WINS}), accumulated; each was also logged. Raised ones are not counted.
     */
    public long partitionConflictsResolved() {
        return partitionConflictsResolved;
    }

    @Override
    public String toString() {
        return "WorldStats[entities=" + entities + ", archetypes=" + archetypes + ", components=" + components
                + ", systems=" + systems + ", fixedTimeDropped=" + fixedTimeDropped + ", fixedStepsDropped="
                + fixedStepsDropped + ", nativeBytes=" + nativeBytes + ", partitionConflictsResolved="
                + partitionConflictsResolved + "]";
    }
}
