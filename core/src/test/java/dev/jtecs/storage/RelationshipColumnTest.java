package dev.jtecs.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jtecs.component.Relationship;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.component.Relationships;
import dev.jtecs.world.World;
import org.junit.jupiter.api.Test;

class RelationshipColumnTest {
    static final Relationship LIKES = Relationships.register("test.relationshipColumn.Likes");

    /** A wildcard column names its relationship and archetype, sizes to the rows and reads each row's first edge. */
    @Test
    void readsEachRowsFirstEdgeAndSaysWhatItViews() {
        try (World world = World.create()) {
            long low = world.spawn();
            long high = world.spawn();
            long a = world.spawn(LIKES.to(high), LIKES.to(low));
            long b = world.spawn(LIKES.to(high), LIKES.to(low));
            Archetype archetype = world.archetypeOf(a);
            RelationshipColumn<RelationshipValue> column = archetype.get(LIKES);
            assertSame(LIKES, column.relationship());
            assertEquals(2, column.size());
            assertEquals(low, column.get(world.rowOf(b)).target(), "the lowest target first");
            assertThrows(IndexOutOfBoundsException.class, () -> column.get(2));
            assertEquals("RelationshipColumn[" + LIKES.name() + " of " + archetype + "]", column.toString());
            assertNull(world.archetypeOf(low).get(LIKES), "no edge of it: no column");
        }
    }
}
