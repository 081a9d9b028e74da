package dev.jtecs.component;

/**
 * Options of a relationship registration: exclusivity, sparse storage, reverse index, cascade delete, transience,
 * requirements.
 */
public final class RelationshipOptions {
    private final ComponentOptions<Object> options = new ComponentOptions<>();
    private boolean exclusive;
    private boolean reverseIndex;
    private boolean cascadeDelete;
    private boolean sparse;
    private java.util.function.LongFunction<? extends Record> payloadDefaults;

    RelationshipOptions() {
    }

    /**
     * Pins the persisted name of a payload relationship registered from its record class (by default the class's
     * canonical name). A target-only relationship takes its name at {@code register(name, ...)}.
     */
    public RelationshipOptions name(String name) {
        options.name(name);
        return this;
    }

    /**
     * The lookup through which jtecs reaches a payload relationship's record in a named module, so that its package
     * need not be open to {@code dev.jtecs.core}; see {@link ComponentOptions#lookup}. A target-only relationship
     * has no record and refuses one.
     */
    public RelationshipOptions lookup(java.lang.invoke.MethodHandles.Lookup lookup) {
        options.lookup(lookup);
        return this;
    }

    /** Keeps at most one edge per entity: setting an edge replaces the previous one. */
    public RelationshipOptions exclusive() {
        exclusive = true;
        return this;
    }

    /**
     * Stores edges per entity in the world's edge store instead of one pair component per target in the
     * archetype signature: an entity with edges carries only the relationship marker, so changing its targets
     * moves no row and creates no archetype. Sparse relationships have no {@code targeting} selectors, and their
     * edges keep a dead target's id until removed (unless they cascade).
     */
    public RelationshipOptions sparse() {
        sparse = true;
        return this;
    }

    /** Enables lookups from a target to its sources: {@code relationshipSources}, {@code targets}, {@code traverse}. */
    public RelationshipOptions reverseIndex() {
        reverseIndex = true;
        return this;
    }

    /**
     * Despawning a target despawns its sources too, recursively, in the same commit. Requires
     * {@link #exclusive()} and {@link #reverseIndex()} (checked at registration).
     */
    public RelationshipOptions cascadeDelete() {
        cascadeDelete = true;
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

    /** A custom snapshot encoder of a payload relationship's edge records; see {@link ComponentOptions#save}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public RelationshipOptions save(java.util.function.Function<? super Record, ?> encoder) {
        ((ComponentOptions) options).save(encoder);
        return this;
    }

    /** The decoder of {@link #save}'s trees into edge records; see {@link ComponentOptions#load}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public RelationshipOptions load(java.util.function.Function<Object, ? extends Record> decoder) {
        ((ComponentOptions) options).load(decoder);
        return this;
    }

    /** A world-aware decoder of edge records; see {@link ComponentOptions#deserialize}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public <W> RelationshipOptions deserialize(Class<W> worldType,
            java.util.function.BiFunction<? super W, Object, ? extends Record> decoder) {
        ((ComponentOptions) options).deserialize(worldType, (java.util.function.BiFunction) decoder);
        return this;
    }

    /**
     * The factory of a payload relationship's default payload: given the target, it returns the edge record that
     * {@code to(target)} carries, with that same target (called anew for each {@code to}, so mutable payload
     * parts are not shared between edges unless the factory shares them). Without one, a bare edge's other
     * fields are zero, {@code false} or {@code null}. A target-only relationship has no payload and refuses it.
     */
    public RelationshipOptions defaults(java.util.function.LongFunction<? extends Record> factory) {
        payloadDefaults = java.util.Objects.requireNonNull(factory, "factory");
        return this;
    }

    java.util.function.LongFunction<? extends Record> payloadDefaults() {
        return payloadDefaults;
    }

    boolean isExclusive() {
        return exclusive;
    }

    boolean hasReverseIndex() {
        return reverseIndex;
    }

    boolean isCascadeDelete() {
        return cascadeDelete;
    }

    boolean isSparse() {
        return sparse;
    }

    ComponentOptions<Object> componentOptions() {
        return options;
    }
}
