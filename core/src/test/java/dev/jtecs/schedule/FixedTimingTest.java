package dev.jtecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FixedTimingTest {
    @Test
    void alphaIsTheFractionOfTheNextStep() {
        assertEquals(0.5, new FixedTiming(0.25, 0.125, 8, FixedOverload.DROP, 3, 0, 0).alpha());
        assertEquals(0.0, new FixedTiming(0.25, 0, 8, FixedOverload.DROP, 0, 0, 0).alpha());
        assertEquals(2.5, new FixedTiming(0.25, 0.625, 1, FixedOverload.ACCUMULATE, 0, 0, 0).alpha(),
                "a backlog shows as alpha above 1");
    }
}
