package dev.jtecs.relation.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The tally earns a build once walks since the counter's last move reached half the slots; a move restarts it. */
class BuildTallyTest {
    @Test
    void halfTheSlotsSinceTheLastChangeEarnABuildUntilTheCounterMovesOrABuildSpendsIt() {
        BuildTally tally = new BuildTally();
        assertFalse(tally.earnedAt(-1), "nothing noted");
        assertFalse(tally.note(5, 30, 100));
        assertFalse(tally.earnedAt(5));
        assertFalse(tally.note(6, 30, 100), "the counter moved: 30 since, not 60");
        assertTrue(tally.note(6, 20, 100), "50 of 100: half");
        assertTrue(tally.earnedAt(6));
        assertFalse(tally.earnedAt(7), "earned before the counter moved: not any more");
        tally.spend();
        assertFalse(tally.earnedAt(6), "a build spent it");
        assertTrue(tally.note(6, 1, 100), "the walks since the change still count");
        assertTrue(tally.note(8, 50, 99), "50 of 99");
        assertFalse(tally.note(9, 49, 99), "49 of 99");
    }
}
