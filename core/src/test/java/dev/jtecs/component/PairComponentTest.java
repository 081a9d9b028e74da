package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jtecs.entity.Entity;
import org.junit.jupiter.api.Test;

class PairComponentTest {
    static final Relationship HOLDS = Relationships.register("test.pair.Holds");

    @Test
    void namesItsRelationshipAndTargetAndLivesInThePairIdRange() {
        PairComponent pair = PairComponent.create(Components.FIRST_PAIR_ID + 7, HOLDS, Entity.pack(4, 2));
        assertEquals(Components.FIRST_PAIR_ID + 7, pair.id());
        assertSame(HOLDS, pair.relationship());
        assertEquals(Entity.pack(4, 2), pair.target());
        assertEquals("test.pair.Holds(" + Entity.toString(Entity.pack(4, 2)) + ")", pair.name());
        assertEquals(StorageKind.TAG, pair.storage());
        assertEquals(Boolean.TRUE, pair.newDefault());
        assertEquals(ComponentLayout.NONE, pair.layout());
        assertThrows(IllegalArgumentException.class, () -> PairComponent.create(5, HOLDS, Entity.pack(1, 0)));
        assertThrows(IllegalArgumentException.class,
                () -> PairComponent.create(Components.FIRST_PAIR_ID, HOLDS, 0));
    }
}
