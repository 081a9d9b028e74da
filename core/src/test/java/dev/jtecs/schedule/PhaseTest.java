package dev.jtecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PhaseTest {
    @Test
    void phasesAreEqualByName() {
        assertEquals(Phase.of("game.Physics"), new Phase("game.Physics"));
        assertEquals(Phases.UPDATE, Phase.of("Update"));
        assertNotEquals(Phase.of("a"), Phase.of("A"));
        assertEquals("game.Physics", Phase.of("game.Physics").toString());
    }

    @Test
    void blankAndNullNamesAreRefused() {
        IllegalArgumentException blank = assertThrows(IllegalArgumentException.class, () -> Phase.of(" "));
        assertEquals("a phase needs a non-blank name, got \" \"", blank.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Phase.of(""));
        assertThrows(NullPointerException.class, () -> Phase.of(null));
    }
}
