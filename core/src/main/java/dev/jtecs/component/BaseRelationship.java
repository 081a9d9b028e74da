package dev.jtecs.component;

import dev.jtecs.entity.Entity;

/**
 * What both kinds of relationship share: a target-only {@link Relationship} and a payload-carrying
 * {@link RelationshipDefinition}. As a component it is the relationship's marker, present in an entity's
 * archetype while the entity holds at least one edge of it; {@code has(id, REL)} asks for any edge, queries that
 * include it match entities with any edge. Its options (exclusivity, storage, reverse index, cascade) are fixed at
 * registration. Edges are added with {@link RelationshipValue} inputs.
 *
 * @param <V> what reads of an edge return: {@link RelationshipValue} for a target-only relationship, the payload
 *     record for a payload relationship
 */
public abstract sealed class BaseRelationship<V> extends BaseComponent<V> permits Relationship, RelationshipDefinition {
    private final boolean exclusive;
    private final boolean reverseIndex;
    private final boolean cascadeDelete;
    private final boolean sparse;

    @SuppressWarnings("unchecked")
    BaseRelationship(int id, String name, Class<V> valueType, RelationshipOptions options) {
        super(id, valueType, (ComponentOptions<V>) (ComponentOptions<?>) options.componentOptions(), name);
        this.exclusive = options.isExclusive();
        this.reverseIndex = options.hasReverseIndex();
        this.cascadeDelete = options.isCascadeDelete();
        this.sparse = options.isSparse();
        if (cascadeDelete && !(exclusive && reverseIndex)) {
            throw new IllegalArgumentException("relationship " + name + ": cascadeDelete requires exclusive() and "
                    + "reverseIndex()");
        }
    }

    /** Whether an entity holds at most one edge of this relationship (setting another replaces it). */
    public final boolean isExclusive() {
        return exclusive;
    }

    /** Whether lookups from a target to its sources are enabled ({@code relationshipSources}, traversal). */
    public final boolean hasReverseIndex() {
        return reverseIndex;
    }

    /** Whether despawning a target despawns its sources, recursively, in the same commit. */
    public final boolean isCascadeDelete() {
        return cascadeDelete;
    }

    /** Whether edges live in the world's per-entity edge store rather than in archetype signatures. */
    public final boolean isSparse() {
        return sparse;
    }

    /**
     * How one target's edges are stored in a dense pair's columns: {@link StorageKind#TAG} for a target-only
     * relationship, the payload's storage otherwise.
     */
    public StorageKind edgeStorage() {
        return StorageKind.TAG;
    }

    /** The column layout of one target's edges in a dense pair: none for a target-only relationship. */
    public ComponentLayout edgeLayout() {
        return ComponentLayout.NONE;
    }

    /** The record type an edge carries, or {@code null} for a target-only relationship. */
    public abstract Class<? extends Record> payloadType();

    /**
     * What reads report for an edge to {@code target} carrying {@code payload} ({@code null} for target-only).
     * Not for user code: worlds call it.
     */
    public abstract V edgeValue(long target, Object payload);

    /**
     * A query term (and archetype test) matching entities that hold the edge to {@code target}. Selectors for
     * the same relationship and target are equal.
     *
     * @throws IllegalArgumentException for a sparse relationship (its targets are not in the signature) or a
     *     malformed target
     */
    public final TargetSelector<V> targeting(long target) {
        if (sparse) {
            throw new IllegalArgumentException("relationship " + name() + " is sparse: its targets are not part of "
                    + "archetypes, so it has no targeting selector (use relationshipSources or forEachRelationship)");
        }
        checkTarget(target);
        return new TargetSelector<>(this, target);
    }

    @Override
    public final StorageKind storage() {
        return StorageKind.TAG;
    }

    @Override
    public final ComponentLayout layout() {
        return ComponentLayout.NONE;
    }

    /**
     * A relationship has no default value.
     *
     * @throws UnsupportedOperationException always: an edge needs a target
     */
    @Override
    public final V newDefault() {
        throw new UnsupportedOperationException("relationship " + name() + " has no default; pass "
                + name() + ".to(target)");
    }

    static void checkTarget(long target) {
        if (!Entity.isWellFormed(target)) {
            throw new IllegalArgumentException("relationship target " + target + " is not an entity id");
        }
    }
}
