package dev.jtecs.component;

/** Options of a relationship registration: exclusivity, transience, requirements. */
public final class RelationshipOptions {
    private final ComponentOptions<RelationshipValue> options = new ComponentOptions<>();
    private boolean exclusive;

    RelationshipOptions() {
    }

    /** Keeps at most one edge per entity: setting an edge replaces the previous one. */
    public RelationshipOptions exclusive() {
        exclusive = true;
        return this;
    }

    /** Omits this relationship's edges from snapshots. */
    public RelationshipOptions transient_(boolean value) {
        options.transient_(value);
        return this;
    }

    /** Inputs an entity receives along with its first edge of this relationship (see component requirements). */
    public RelationshipOptions requires(Input... inputs) {
        options.requires(inputs);
        return this;
    }

    boolean isExclusive() {
        return exclusive;
    }

    ComponentOptions<RelationshipValue> componentOptions() {
        return options;
    }
}
