package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.dominion.ecs.api.Dominion;
import dev.jtecs.bench.peers.PeerComponents.DominionPosition;
import dev.jtecs.bench.peers.PeerComponents.DominionTag;
import org.junit.jupiter.api.Test;

/** One Dominion world per trial, emptied on request whatever its entities hold; a new one only after close. */
class DominionReuseTest {
    @Test
    void emptiesTheSameWorldOfEveryEntity() {
        try (DominionReuse reuse = new DominionReuse()) {
            Dominion dominion = reuse.empty();
            for (int i = 0; i < 50; i++) {
                dominion.createEntity(new DominionPosition(i, i));
                dominion.createEntity(new DominionPosition(i, i), DominionTag.INSTANCE);
            }
            assertEquals(100, EntityPopulations.all(dominion).size());
            assertSame(dominion, reuse.empty());
            assertEquals(0, EntityPopulations.all(dominion).size());
            dominion.createEntity(DominionTag.INSTANCE);
            assertSame(dominion, reuse.empty());
            assertEquals(0, EntityPopulations.all(dominion).size());
        }
    }

    @Test
    void aClosedReuseCreatesAnotherWorld() {
        DominionReuse reuse = new DominionReuse();
        Dominion first = reuse.empty();
        reuse.close();
        assertEquals(true, first.isClosed());
        Dominion second = reuse.empty();
        assertNotSame(first, second);
        reuse.close();
        reuse.close(); // twice is harmless
    }
}
