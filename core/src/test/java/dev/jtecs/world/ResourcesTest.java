package dev.jtecs.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.NoSuchElementException;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ResourcesTest {
    record Gravity(float y) {}

    interface Clock {
        double now();
    }

    record FixedClock(double now) implements Clock {}

    private final World world = World.create();

    @AfterEach
    void close() {
        world.close();
    }

    @Test
    void putGetFindContainsRemove() {
        Resources resources = world.resources();
        assertSame(resources, world.resources());
        Gravity gravity = new Gravity(-9.8f);
        assertEquals(Optional.empty(), resources.put(Gravity.class, gravity));
        assertSame(gravity, resources.get(Gravity.class));
        assertEquals(Optional.of(gravity), resources.find(Gravity.class));
        assertTrue(resources.contains(Gravity.class));
        assertEquals(1, resources.size());

        Gravity moon = new Gravity(-1.6f);
        assertEquals(Optional.of(gravity), resources.put(Gravity.class, moon), "put returns what it replaced");
        assertSame(moon, resources.get(Gravity.class));
        assertEquals(Optional.of(moon), resources.remove(Gravity.class));
        assertFalse(resources.contains(Gravity.class));
        assertEquals(Optional.empty(), resources.remove(Gravity.class));
        assertEquals(Optional.empty(), resources.find(Gravity.class));
        assertEquals(0, resources.size());
    }

    @Test
    void aMissingResourceIsAClearError() {
        world.resources().put(Gravity.class, new Gravity(1));
        NoSuchElementException missing =
                assertThrows(NoSuchElementException.class, () -> world.resources().get(Clock.class));
        assertTrue(missing.getMessage().startsWith("no resource of type " + Clock.class.getName()),
                missing.getMessage());
        assertTrue(missing.getMessage().contains(Gravity.class.getName()), "lists what is present");
    }

    @Test
    void theKeyIsTheClassGiven() {
        FixedClock clock = new FixedClock(3);
        world.resources().put(Clock.class, clock);
        assertSame(clock, world.resources().get(Clock.class));
        assertFalse(world.resources().contains(FixedClock.class));
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void aValueOfTheWrongClassIsRefusedAndNothingChanges() {
        Class raw = Gravity.class;
        Gravity kept = new Gravity(2);
        world.resources().put(Gravity.class, kept);
        assertThrows(ClassCastException.class, () -> world.resources().put(raw, "not gravity"));
        assertSame(kept, world.resources().get(Gravity.class));
        assertThrows(NullPointerException.class, () -> world.resources().put(Gravity.class, null));
        assertSame(kept, world.resources().get(Gravity.class));
    }

    @Test
    void resourcesSurviveClearingEntities() {
        world.resources().put(Gravity.class, new Gravity(3));
        world.spawn();
        world.clearEntities();
        assertEquals(new Gravity(3), world.resources().get(Gravity.class));
    }
}
