package dev.jtecs.storage;

import dev.jtecs.component.BaseRelationship;

/**
 * The wildcard column of a relationship in one archetype: row by row, the entity's first edge of the
 * relationship (lowest target first), from {@link Archetype#get(BaseRelationship)} or
 * {@link Archetype#getMut(BaseRelationship)}.
 *
 * <p>It copies nothing. Each read asks the archetype for the edge as {@link Archetype#getFirstRelationship}
 * does, so a payload stored by reference is the very object that targeted access ({@code
 * archetype.get(REL.targeting(t))}, {@code world.get(id, selector)}), iteration ({@code forEachRelationship}) and
 * {@code world.get(id, REL)} reach: a change to it made through any of them is seen through all the others. A
 * payload stored natively is read as a fresh record, as every native read is. A target-only relationship
 * answers its {@link dev.jtecs.component.RelationshipValue}.
 *
 * <p>Like every column view it belongs to the archetype's current rows: take a new one after the next
 * structural publication, compaction, clear or snapshot load. Edges change only through {@code World.set} and
 * {@code World.remove}, which keep the signature and the reverse index; the view has no setter.
 *
 * @param <V> the edge value: the record of a payload relationship, {@code RelationshipValue} otherwise
 */
public final class RelationshipColumn<V> {
    private final Archetype archetype;
    private final BaseRelationship<V> relationship;

    RelationshipColumn(Archetype archetype, BaseRelationship<V> relationship) {
        this.archetype = archetype;
        this.relationship = relationship;
    }

    /** The relationship this column reads. */
    public BaseRelationship<V> relationship() {
        return relationship;
    }

    /** The number of rows: the archetype's entity count. */
    public int size() {
        return archetype.count();
    }

    /**
     * The first edge of the entity at {@code row}, or {@code null} when it holds none (only possible for a sparse
     * relationship whose edges were all removed by a publication still running).
     *
     * @throws IndexOutOfBoundsException when the row is outside {@code [0, size())}
     */
    public V get(int row) {
        return archetype.getFirstRelationship(relationship, row);
    }

    @Override
    public String toString() {
        return "RelationshipColumn[" + relationship.name() + " of " + archetype + "]";
    }
}
