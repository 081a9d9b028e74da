package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.HEALTH;
import static dev.jtecs.stress.ModelComponents.MARKED;
import static dev.jtecs.stress.ModelComponents.POSITION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The reference model itself follows the mutation-model rules it encodes. */
class ReferenceWorldTest {
    @Test
    void spawnIsInvisibleUntilCommit() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1, HEALTH.of(5.0));
        assertFalse(model.isAlive(1));
        assertTrue(model.isKnownLiveOrReserved(1));
        model.commit();
        assertTrue(model.isAlive(1));
        assertEquals(5.0, model.get(1, HEALTH));
    }

    @Test
    void setOnExistingComponentWritesThroughButNewComponentWaits() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1, HEALTH.of(5.0));
        model.commit();
        model.set(1, HEALTH.of(7.0));
        assertEquals(7.0, model.get(1, HEALTH));
        model.set(1, POSITION.of(new ModelComponents.Position(1, 2)));
        assertNull(model.get(1, POSITION));
        model.set(1, HEALTH.of(9.0)); // structure staged: value waits too
        assertEquals(7.0, model.get(1, HEALTH));
        model.commit();
        assertEquals(9.0, model.get(1, HEALTH));
        assertEquals(new ModelComponents.Position(1, 2), model.get(1, POSITION));
    }

    @Test
    void despawnCancelsStagedSpawnAndIgnoresLaterWrites() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1, MARKED);
        model.despawn(1);
        model.set(1, HEALTH);
        model.commit();
        assertFalse(model.isAlive(1));
        assertEquals(0, model.aliveCount());
    }

    @Test
    void removeThenAddKeepsTheComponentWithTheNewValue() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1, HEALTH.of(1.0));
        model.commit();
        model.remove(1, HEALTH);
        model.set(1, HEALTH.of(2.0));
        model.commit();
        assertEquals(2.0, model.get(1, HEALTH));
    }
}
