package dev.jtecs.query;

/** What a query is for; decides which state tags it leaves out by default. */
public enum QueryKind {
    /** Leaves out {@code Disabled} entities unless included explicitly. */
    PLAIN,
    /** Game logic: also leaves out {@code Paused} entities unless included explicitly. */
    LOGIC,
    /** Drawing: like {@link #PLAIN}; paused entities are still drawn. */
    RENDER
}
