package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.ELITE;
import static dev.jtecs.stress.ModelComponents.HEALTH;
import static dev.jtecs.stress.ModelComponents.LABEL;
import static dev.jtecs.stress.ModelComponents.LEVEL;
import static dev.jtecs.stress.ModelComponents.MARKED;
import static dev.jtecs.stress.ModelComponents.MOVER;
import static dev.jtecs.stress.ModelComponents.POSITION;
import static dev.jtecs.stress.ModelComponents.VELOCITY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.stress.ModelComponents.Label;
import dev.jtecs.stress.ModelComponents.Position;
import dev.jtecs.stress.ModelComponents.Velocity;
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
        model.set(1, POSITION.of(new Position(1, 2)));
        assertNull(model.get(1, POSITION));
        model.set(1, HEALTH.of(9.0)); // structure staged: value waits too
        assertEquals(7.0, model.get(1, HEALTH));
        model.commit();
        assertEquals(9.0, model.get(1, HEALTH));
        assertEquals(new Position(1, 2), model.get(1, POSITION));
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

    // ---------------------------------------------------------------- requirements

    @Test
    void requirementsExpandBreadthFirstAndExplicitInputsWin() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1, ELITE);
        model.spawn(2, MOVER, LEVEL.of(2));
        model.commit();
        assertEquals(9, model.get(1, LEVEL), "Elite's own Level 9 is met before Mover's Level 5");
        assertEquals(150.0, model.get(1, HEALTH));
        assertEquals(new Velocity(1f, -1f), model.get(1, VELOCITY), "a required definition gives its default");
        assertEquals(new Label(null, null), model.get(1, LABEL));
        assertEquals(2, model.get(2, LEVEL));
    }

    @Test
    void aRemovalStagedBeforeAnAdditionIsUndoneByItsRequirements() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1, LEVEL.of(3));
        model.commit();
        model.remove(1, LEVEL);
        model.set(1, MOVER);
        model.commit();
        assertEquals(5, model.get(1, LEVEL));
        model.set(1, HEALTH.of(1.0));
        model.remove(1, LEVEL);
        model.commit();
        assertFalse(model.has(1, LEVEL), "a removal after the addition sticks");
    }
}
