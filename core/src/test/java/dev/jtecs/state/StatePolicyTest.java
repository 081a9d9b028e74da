package dev.jtecs.state;

import static dev.jtecs.state.StateOperation.DESPAWN;
import static dev.jtecs.state.StateOperation.DISABLE;
import static dev.jtecs.state.StateOperation.ENABLE;
import static dev.jtecs.state.StateOperation.NONE;
import static dev.jtecs.state.StateOperation.PAUSE;
import static dev.jtecs.state.StateOperation.RESUME;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The policy value: its factories, its builder and its checks (effects on worlds are in StatesTest). */
class StatePolicyTest {
    @Test
    void theFactoriesNameTheirOperationsAsEnterExitBlurFocus() {
        assertEquals(new StatePolicy(NONE, NONE, NONE, NONE), StatePolicy.none());
        assertEquals(new StatePolicy(NONE, NONE, PAUSE, RESUME), StatePolicy.pauseOnBlur());
        assertEquals(new StatePolicy(NONE, NONE, DISABLE, ENABLE), StatePolicy.disableOnBlur());
        assertEquals(new StatePolicy(NONE, DESPAWN, NONE, NONE), StatePolicy.despawnOnExit());
        assertEquals(new StatePolicy(ENABLE, DISABLE, NONE, NONE), StatePolicy.disableOnExit());
    }

    @Test
    void aBuilderStartsWithNothingAndSetsEachOperation() {
        assertEquals(StatePolicy.none(), StatePolicy.builder().build());
        StatePolicy custom = StatePolicy.builder().onEnter(RESUME).onExit(DESPAWN).onBlur(DISABLE).onFocus(ENABLE)
                .build();
        assertEquals(RESUME, custom.onEnter());
        assertEquals(DESPAWN, custom.onExit());
        assertEquals(DISABLE, custom.onBlur());
        assertEquals(ENABLE, custom.onFocus());
    }

    @Test
    void toBuilderCopiesAndLeavesTheOriginalAlone() {
        StatePolicy level = StatePolicy.pauseOnBlur().toBuilder().onExit(DESPAWN).build();
        assertEquals(new StatePolicy(NONE, DESPAWN, PAUSE, RESUME), level);
        assertEquals(new StatePolicy(NONE, NONE, PAUSE, RESUME), StatePolicy.pauseOnBlur());
        StatePolicy.Builder builder = StatePolicy.builder().onBlur(PAUSE);
        StatePolicy first = builder.build();
        builder.onBlur(DISABLE);
        assertEquals(PAUSE, first.onBlur(), "built policies do not follow the builder");
        assertNotSame(first, builder.build());
    }

    @Test
    void nullOperationsAreRefused() {
        assertThrows(NullPointerException.class, () -> new StatePolicy(null, NONE, NONE, NONE));
        assertThrows(NullPointerException.class, () -> new StatePolicy(NONE, NONE, NONE, null));
        assertThrows(NullPointerException.class, () -> StatePolicy.builder().onEnter(null));
        assertThrows(NullPointerException.class, () -> StatePolicy.builder().onExit(null));
        assertThrows(NullPointerException.class, () -> StatePolicy.builder().onBlur(null));
        assertThrows(NullPointerException.class, () -> StatePolicy.builder().onFocus(null));
    }
}
