package dev.jtecs.mutation.internal;

import dev.jtecs.entity.internal.Growth;

import dev.jtecs.component.BaseRelationship;
import java.util.Arrays;

/**
 * The sparse edges that requirements added to entities placed or moved in the current wave: (entity,
 * relationship) pairs. A staged {@link SparseWriteQueue#REQUIRE} write lands only when its pair was planned here,
 * and consumes it: one required edge per relationship arrives, and a requirement the plan did not add (the entity
 * held an edge of that relationship already) is dropped.
 */
final class RequiredEdges {
    private long[] entities = new long[8];
    private BaseRelationship<?>[] relationships = new BaseRelationship<?>[8];
    private int count;

    /** A placement added {@code relationship}'s required edge to {@code entity}. */
    void plan(long entity, BaseRelationship<?> relationship) {
        if (count == entities.length) {
            // every array first, then assign: a failed growth leaves them all as they were, in step
            var grownEntities = Growth.copyOf(entities, count * 2);
            var grownRelationships = Growth.copyOf(relationships, count * 2);
            entities = grownEntities;
            relationships = grownRelationships;
        }
        entities[count] = entity;
        relationships[count++] = relationship;
    }

    /** Where the plan noted this requirement, or -1 when it did not add it. */
    int find(long entity, BaseRelationship<?> relationship) {
        for (int i = 0; i < count; i++) {
            if (entities[i] == entity && relationships[i] == relationship) {
                return i;
            }
        }
        return -1;
    }

    /** Consumes the requirement at {@code at} (from {@link #find}) once its edge landed. */
    void consume(int at) {
        entities[at] = entities[--count];
        relationships[at] = relationships[count];
        relationships[count] = null;
    }

    /** Forgets every planned edge (the wave ended, or its work was discarded). */
    void clear() {
        Arrays.fill(relationships, 0, count, null); // the slots past count are null already (see the removal)
        count = 0;
    }
}
