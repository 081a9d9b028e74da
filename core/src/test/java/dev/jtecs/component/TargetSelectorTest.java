package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.jtecs.entity.Entity;
import org.junit.jupiter.api.Test;

class TargetSelectorTest {
    static final Relationship AIMS = Relationships.register("test.selector.Aims");
    static final Relationship HITS = Relationships.register("test.selector.Hits");

    @Test
    void namesOneTargetOfOneRelationshipAndNeverAnId() {
        TargetSelector<RelationshipValue> selector = AIMS.targeting(Entity.pack(6, 2));
        assertSame(AIMS, selector.relationship());
        assertEquals(Entity.pack(6, 2), selector.target());
        assertEquals(TargetSelector.NO_ID, selector.id());
        assertEquals(StorageKind.TAG, selector.storage());
        assertEquals(ComponentLayout.NONE, selector.layout());
        assertEquals(AIMS.to(Entity.pack(6, 2)), selector.newDefault(), "the edge itself");
        assertEquals(selector, AIMS.targeting(Entity.pack(6, 2)));
        assertEquals(selector.hashCode(), AIMS.targeting(Entity.pack(6, 2)).hashCode());
        assertNotEquals(selector, AIMS.targeting(Entity.pack(6, 3)));
        assertNotEquals(selector, HITS.targeting(Entity.pack(6, 2)));
    }

    /** A selector is a value, equal by relationship and target, that users may key a hash map with: they spread. */
    @Test
    void selectorsOfOneRelationshipHaveDistinctHashCodes() {
        java.util.Set<Integer> hashes = new java.util.HashSet<>();
        for (int slot = 1; slot <= 1_000; slot++) {
            hashes.add(AIMS.targeting(Entity.pack(slot, 1)).hashCode());
        }
        assertEquals(1_000, hashes.size());
        assertNotEquals(AIMS.targeting(Entity.pack(6, 2)).hashCode(), HITS.targeting(Entity.pack(6, 2)).hashCode());
    }
}
