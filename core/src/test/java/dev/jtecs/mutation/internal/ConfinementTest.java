package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.testing.Intruder;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ConfinementTest {
    private final AtomicInteger refusals = new AtomicInteger();
    private final Confinement confinement = new Confinement(Thread.currentThread(), () -> {
        refusals.incrementAndGet();
        throw new WrongThreadException("refused " + Thread.currentThread().getName());
    });

    @Test
    void theAdmittedThreadPassesWithoutTheRefusal() {
        confinement.check();
        assertEquals(0, refusals.get());
    }

    @Test
    void anotherThreadGetsTheRefusalsException() throws InterruptedException {
        Throwable thrown = Intruder.thrownBy(confinement::check);
        assertTrue(thrown instanceof WrongThreadException, String.valueOf(thrown));
        assertEquals(1, refusals.get());
        confinement.check(); // the owner still passes
    }

    @Test
    void admittingNobodyRefusesEveryThreadAndAdmittingAgainLetsTheThreadBackIn() {
        confinement.admit(null);
        assertThrows(WrongThreadException.class, confinement::check);
        confinement.admit(Thread.currentThread());
        confinement.check();
        assertEquals(1, refusals.get());
    }

    @Test
    void aRefusalThatReturnsStillRefuses() {
        Confinement lax = new Confinement(null, refusals::incrementAndGet);
        IllegalStateException thrown = assertThrows(IllegalStateException.class, lax::check);
        assertTrue(thrown.getMessage().contains("the refusal returned"), thrown.getMessage());
        assertEquals(1, refusals.get());
    }

    @Test
    void theRefusalIsRequired() {
        NullPointerException thrown = assertThrows(NullPointerException.class,
                () -> new Confinement(Thread.currentThread(), null));
        assertEquals("refusal", thrown.getMessage());
    }
}
