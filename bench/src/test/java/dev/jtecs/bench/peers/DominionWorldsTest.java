package dev.jtecs.bench.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dominion.ecs.api.Dominion;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DominionWorldsTest {
    @Test
    void theChosenBitsTellEveryComponentClassApart() {
        List<Class<?>> classes = DominionWorlds.componentClasses();
        assertTrue(classes.size() > 20, "the peer components and the 26 tags: " + classes);
        int bits = DominionWorlds.safeBits(classes);
        assertTrue(bits >= 20 && bits <= 24, "bits=" + bits);
        Set<Integer> capped = new HashSet<>();
        for (Class<?> type : classes) {
            capped.add(System.identityHashCode(type) >> (32 - bits));
        }
        assertEquals(classes.size(), capped.size());
    }

    @Test
    void classesThatShareAnIndexAtEverySizeAreRefused() {
        assertThrows(IllegalStateException.class, () -> DominionWorlds.safeBits(List.of(String.class, String.class)));
    }

    @Test
    void aWorldTakesEntitiesOfTwoComponentClasses() {
        Dominion dominion = DominionWorlds.create();
        try {
            var entity = dominion.createEntity(new PeerComponents.DominionPosition(1, 2),
                    new PeerComponents.DominionVelocity(3, 4));
            assertEquals(1, entity.get(PeerComponents.DominionPosition.class).x);
        } finally {
            dominion.close();
        }
    }
}
