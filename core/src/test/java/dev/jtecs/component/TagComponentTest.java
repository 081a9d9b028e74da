package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TagComponentTest {
    static final TagComponent ENEMY = Components.tag("test.tag.Enemy");
    static final ScalarComponent.OfDouble HP = Components.scalar("test.tag.Hp", 50.0);
    static final TagComponent BOSS = Components.tag("test.tag.Boss", o -> o.requires(ENEMY, HP.of(500.0)));

    @Test
    void tagsStoreNothing() {
        assertEquals(StorageKind.TAG, ENEMY.storage());
        assertEquals(ComponentLayout.NONE, ENEMY.layout());
        assertEquals(Boolean.TRUE, ENEMY.newDefault());
        assertEquals(Boolean.class, ENEMY.valueType());
    }

    @Test
    void requirementsAreKeptInOrder() {
        assertEquals(2, BOSS.requires().size());
        assertEquals(ENEMY, BOSS.requires().get(0));
        assertEquals(HP.of(500.0), BOSS.requires().get(1));
        assertTrue(ENEMY.requires().isEmpty());
        assertEquals(List.of(), ENEMY.requires());
    }
}
