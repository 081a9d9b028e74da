package dev.jtecs.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.entity.Entity;
import org.junit.jupiter.api.Test;

class BadInputFixtureTest {
    @Test
    void buildsTheSameWorldEveryTime() {
        for (boolean staged : new boolean[] {false, true}) {
            try (BadInputFixture first = new BadInputFixture(staged);
                    BadInputFixture second = new BadInputFixture(staged)) {
                assertEquals(first.dump(), second.dump());
                assertEquals(first.a, second.a);
                assertEquals(first.dead, second.dead);
            }
        }
    }

    @Test
    void itsBadIdsAreWhatTheyClaim() {
        try (BadInputFixture f = new BadInputFixture(true)) {
            assertFalse(f.world.isAlive(f.dead));
            assertFalse(f.world.isAlive(f.stale));
            assertEquals(Entity.slot(f.stale), Entity.slot(f.y), "the stale id's slot holds a newer entity");
            assertTrue(f.world.isAlive(f.y));
            assertTrue(f.foreign.isAlive(f.foreignId));
            assertFalse(f.world.isAlive(f.foreignId));
            assertFalse(f.world.isAlive(f.reserved), "a staged spawn is not visible yet");
            assertTrue(f.world.hasPendingChanges());
            assertEquals(f.world.requireKey(BadInputFixture.KEY_B), f.b);
            assertEquals(f.tracked.count(), f.trackedMembers.size(), "the callbacks saw every member");
        }
    }

    @Test
    void theStagedVariantDiffersOnlyOnceItsWorkIsPublished() {
        try (BadInputFixture quiet = new BadInputFixture(false); BadInputFixture staged = new BadInputFixture(true)) {
            String before = staged.dump();
            assertNotEquals(quiet.dump(), before, "depth and pending work show");
            staged.world.unwind();
            assertNotEquals(before, staged.dump());
            assertTrue(staged.world.isAlive(staged.reserved));
        }
    }
}
