package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.TagComponent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The scope depths and when they hand staged work to the drain. */
class ScopesTest {
    static final TagComponent T = Components.tag("test.scopes.T");

    private final DrainFixture fixture = new DrainFixture();
    private final Scopes scopes = new Scopes(fixture.drain);

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    private boolean published(long id) {
        return fixture.index.isAlive(id);
    }

    @Test
    void theOutermostImplicitScopePublishesOnASuccessfulExit() {
        scopes.enter();
        scopes.enter();
        long id = fixture.stageSpawn(T);
        scopes.exit(true);
        assertFalse(published(id), "an inner exit waits");
        assertEquals(1, scopes.depth());
        scopes.exit(true);
        assertTrue(published(id));
        assertEquals(0, scopes.depth());
    }

    @Test
    void aFailedExitLeavesTheWorkStagedForTheNextPublication() {
        scopes.enter();
        long id = fixture.stageSpawn(T);
        scopes.exit(false);
        assertFalse(published(id));
        assertTrue(fixture.drain.hasWork());
        scopes.unwind();
        assertTrue(published(id), "unwind publishes what the failure left");
    }

    @Test
    void commitClosesTheInnermostDeferAndPublishesWhenNoneIsLeft() {
        scopes.defer();
        scopes.defer();
        long id = fixture.stageSpawn(T);
        scopes.commit();
        assertFalse(published(id));
        scopes.commit();
        assertTrue(published(id));
        scopes.commit(); // an extra commit is harmless
        assertEquals(0, scopes.depth());
    }

    @Test
    void aDispatchHoldKeepsWorkForTheBarrierButCommitPublishesInsideIt() {
        scopes.hold();
        long first = fixture.stageSpawn(T);
        scopes.enter();
        scopes.exit(true);
        assertFalse(published(first), "an implicit scope inside a hold does not publish");
        scopes.barrier();
        assertTrue(published(first), "the barrier between two systems does");
        long second = fixture.stageSpawn(T);
        scopes.commit();
        assertTrue(published(second), "commit() inside a system is synchronous");
        assertTrue(scopes.isHeld());
        long third = fixture.stageSpawn(T);
        scopes.release(true);
        assertTrue(published(third), "the dispatch's end publishes");
        assertFalse(scopes.isHeld());
    }

    @Test
    void depthsNeverDropBelowTheHoldAndLateClosesClamp() {
        scopes.hold();
        scopes.defer();
        scopes.enter();
        scopes.unwind();
        assertEquals(1, scopes.depth(), "the hold stays");
        scopes.exit(true);
        scopes.commit();
        assertEquals(1, scopes.depth(), "closes after the unwind clamp at the hold");
        scopes.release(false);
        assertEquals(0, scopes.depth());
        scopes.exit(true);
        assertEquals(0, scopes.depth(), "and at zero");
    }

    @Test
    void onlyDeferredTellsIterationScopesFromExplicitOnes() {
        scopes.defer();
        assertTrue(scopes.onlyDeferred());
        scopes.enter();
        assertFalse(scopes.onlyDeferred());
        scopes.exit(true);
        assertTrue(scopes.onlyDeferred());
    }

    @Test
    void runPublishesAfterABodyThatReturnsAndNotAfterOneThatThrows() {
        long[] staged = new long[1];
        scopes.run(() -> staged[0] = fixture.stageSpawn(T));
        assertTrue(published(staged[0]));
        assertThrows(IllegalStateException.class, () -> scopes.run(() -> {
            staged[0] = fixture.stageSpawn(T);
            throw new IllegalStateException("body failed");
        }));
        assertFalse(published(staged[0]));
        assertEquals(0, scopes.depth());
    }

    @Test
    void nothingPublishesOnceClosed() {
        scopes.enter();
        long id = fixture.stageSpawn(T);
        scopes.close();
        scopes.exit(true);
        scopes.barrier();
        assertFalse(published(id));
    }
}
