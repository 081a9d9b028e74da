package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.entity.Entity;
import org.junit.jupiter.api.Test;

class RelationshipTest {
    static final Relationship LIKES = Relationships.register("test.relationship.Likes");
    static final Relationship OWNED_BY = Relationships.register("test.relationship.OwnedBy", o -> o.exclusive());

    @Test
    void isAMarkerWithoutStorageOrDefault() {
        assertEquals(StorageKind.TAG, LIKES.storage());
        assertEquals(ComponentLayout.NONE, LIKES.layout());
        assertEquals(RelationshipValue.class, LIKES.valueType());
        assertThrows(UnsupportedOperationException.class, LIKES::newDefault);
        assertTrue(LIKES.id() > 0 && LIKES.id() <= Components.MAX_COMPONENT_ID);
    }

    @Test
    void buildsEdgesAndKnowsItsCardinality() {
        RelationshipValue edge = LIKES.to(Entity.pack(3, 1));
        assertSame(LIKES, edge.relationship());
        assertSame(LIKES, edge.component());
        assertEquals(Entity.pack(3, 1), edge.target());
        assertFalse(LIKES.isExclusive());
        assertTrue(OWNED_BY.isExclusive());
        assertThrows(IllegalArgumentException.class, () -> LIKES.to(0));
        assertThrows(IllegalArgumentException.class, () -> LIKES.to(-1));
    }
}
