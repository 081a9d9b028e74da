package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RelationshipsTest {
    @Test
    void registersOnceByNameWithTheSameOptions() {
        Relationship first = Relationships.register("test.rels.Guards");
        assertSame(first, Relationships.register("test.rels.Guards"));
        assertSame(first, Components.findByName("test.rels.Guards"));
        assertEquals("test.rels.Guards", first.name());
        assertThrows(IllegalStateException.class, () -> Relationships.register("test.rels.Guards", o -> o.exclusive()),
                "the same name with different cardinality");
        Relationship transientOne = Relationships.register("test.rels.Sees", o -> o.transient_(true));
        assertTrue(transientOne.isTransient());
        assertThrows(IllegalArgumentException.class, () -> Relationships.register(" "));
        assertThrows(NullPointerException.class, () -> Relationships.register((String) null));
    }
}
