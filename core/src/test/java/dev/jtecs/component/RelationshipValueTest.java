package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jtecs.entity.Entity;
import org.junit.jupiter.api.Test;

class RelationshipValueTest {
    static final Relationship NEAR = Relationships.register("test.relvalue.Near");

    @Test
    void comparesByRelationshipAndTarget() {
        assertEquals(NEAR.to(Entity.pack(2, 0)), new RelationshipValue(NEAR, Entity.pack(2, 0)));
        assertNotEquals(NEAR.to(Entity.pack(2, 0)), NEAR.to(Entity.pack(2, 1)));
        assertEquals("test.relvalue.Near(" + Entity.toString(Entity.pack(2, 0)) + ")",
                NEAR.to(Entity.pack(2, 0)).toString());
        assertThrows(NullPointerException.class, () -> new RelationshipValue(null, Entity.pack(1, 0)));
        assertThrows(IllegalArgumentException.class, () -> new RelationshipValue(NEAR, 0));
    }
}
