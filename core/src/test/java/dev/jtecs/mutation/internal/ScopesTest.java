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
        int cursor = scopes.openCursor();
        scopes.unwind();
        assertEquals(1, scopes.depth(), "the hold stays");
        scopes.closeCursor(cursor);
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

    @Test
    void unwindInsideAVisitDropsTheVisitsScope() {
        // issue 18, defect 2
        scopes.enter(); // a forEach visit
        scopes.defer(); // a scope the visitor opened and leaked
        long id = fixture.stageSpawn(T);
        scopes.unwind();
        assertEquals(1, scopes.depth(), "the visit keeps its scope; the leaked defer is closed");
        assertFalse(published(id), "nothing publishes while the visit runs: its rows must stay put");
        scopes.enter(); // a structural call made by the visitor after the unwind
        scopes.exit(true);
        assertFalse(published(id), "the visit's structural calls are staged, not published at once");
        scopes.exit(true); // the visit returns
        assertTrue(published(id), "the outermost running call publishes what the unwind asked for");
        assertEquals(0, scopes.depth());
    }

    @Test
    void unwindInsideACallbackOfAVisitKeepsBothScopesAndACursorClosedLateChangesNothing() {
        // issue 18, defect 2
        int cursor = scopes.openCursor(); // a cursor leaked before the visit
        scopes.enter(); // a visit
        scopes.enter(); // a structural call whose observer calls unwind()
        long id = fixture.stageSpawn(T);
        scopes.unwind();
        assertEquals(2, scopes.depth(), "both running calls keep their scopes; the cursor's is closed");
        scopes.exit(true); // the structural call returns: the visit still runs
        scopes.closeCursor(cursor); // the leaked cursor closes late: its scope is already gone
        assertEquals(1, scopes.depth(), "the visit's scope survives a late close");
        assertFalse(published(id));
        int inner = scopes.openCursor(); // a cursor opened after the unwind counts as usual
        assertEquals(2, scopes.depth());
        scopes.closeCursor(inner);
        scopes.exit(true);
        assertTrue(published(id));
        assertEquals(0, scopes.depth());
    }

    @Test
    void unwindInsideAVisitOfASystemPublishesWhenTheVisitReturns() {
        // issue 18, defect 2
        scopes.hold();
        scopes.enter(); // a visit inside a system body
        long id = fixture.stageSpawn(T);
        scopes.unwind();
        assertFalse(published(id));
        scopes.exit(true);
        assertTrue(published(id), "as an unwind() in the system body itself would: at once, the hold stays");
        assertTrue(scopes.isHeld());
        long failed = fixture.stageSpawn(T);
        scopes.enter();
        scopes.unwind();
        scopes.exit(false); // the visit ended by an exception: the work waits as after any failure
        assertFalse(published(failed));
        scopes.release(true);
        assertTrue(published(failed));
    }
}
