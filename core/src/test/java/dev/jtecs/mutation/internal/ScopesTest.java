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
    void onlyTheScopeOfOneCallWithNothingAroundItIsTheOutermostCall() {
        assertFalse(scopes.isOutermostCall(), "no call runs");
        scopes.enter();
        assertTrue(scopes.isOutermostCall());
        scopes.enter();
        assertFalse(scopes.isOutermostCall(), "a call inside a call");
        scopes.exit(false);
        assertTrue(scopes.isOutermostCall());
        scopes.exit(false);
        scopes.defer();
        scopes.enter();
        assertFalse(scopes.isOutermostCall(), "inside an explicit scope");
        scopes.exit(false);
        scopes.commit();
        int token = scopes.openCursor();
        scopes.enter();
        assertFalse(scopes.isOutermostCall(), "inside an open cursor");
        scopes.exit(false);
        scopes.closeCursor(token);
        scopes.enterPublication();
        scopes.enter();
        assertFalse(scopes.isOutermostCall(), "a call from a publication's callback");
        scopes.exit(false);
        scopes.exitPublication();
        assertEquals(0, scopes.depth());
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

    @Test
    void anUnwindInsideNestedRunningCallsPublishesWhenTheOutermostReturns() {
        scopes.enter();
        scopes.enter(); // two running calls, one inside the other
        scopes.defer();
        long id = fixture.stageSpawn(T);
        scopes.unwind();
        assertEquals(2, scopes.depth(), "the explicit scope is closed, the running calls keep theirs");
        assertFalse(scopes.onlyDeferred(), "running calls are open");
        assertTrue(scopes.inCall());
        assertFalse(published(id), "not while a call runs");
        scopes.exit(true);
        assertEquals(1, scopes.depth());
        assertFalse(published(id), "the inner call returning is not the end");
        scopes.exit(true);
        assertEquals(0, scopes.depth());
        assertTrue(published(id), "the outermost call returned: the unwind's publication happens");
    }

    @Test
    void aHoldCountsOnceInTheDepthAndItsReleasePublishesWhenOutermost() {
        scopes.hold();
        scopes.hold(); // a nested dispatch
        assertEquals(2, scopes.depth());
        long id = fixture.stageSpawn(T);
        scopes.release(true);
        assertEquals(1, scopes.depth());
        assertFalse(published(id), "the outer dispatch still holds");
        assertTrue(scopes.isHeld());
        scopes.release(true);
        assertEquals(0, scopes.depth());
        assertFalse(scopes.isHeld());
        assertTrue(published(id));
        scopes.release(true); // an extra release changes nothing
        assertEquals(0, scopes.depth());
    }

    @Test
    void aCursorClosedTwiceInsideARunningCallChangesNothingTheSecondTime() {
        scopes.enter();
        int cursor = scopes.openCursor();
        assertEquals(2, scopes.depth());
        scopes.closeCursor(cursor);
        scopes.closeCursor(cursor);
        assertEquals(1, scopes.depth(), "the running call's scope stays");
        scopes.exit(true);
        assertEquals(0, scopes.depth());
    }

    @Test
    void anUnwindInsideNestedCallsOfAHoldPublishesWhenTheOutermostCallReturnsAndOnlyThen() {
        scopes.hold();
        scopes.enter();
        scopes.enter();
        long first = fixture.stageSpawn(T);
        scopes.unwind();
        assertFalse(published(first), "running calls keep their scopes");
        scopes.exit(true);
        assertFalse(published(first), "an inner call's return is not the outermost one");
        scopes.exit(true);
        assertTrue(published(first), "the outermost call's return publishes what the unwind left");
        long second = fixture.stageSpawn(T);
        scopes.enter();
        scopes.exit(true);
        assertFalse(published(second), "the unwind is spent: a later call inside the hold waits for the barrier");
        scopes.release(true);
        assertTrue(published(second));
    }

    @Test
    void anUnwindFromADrainCallbackJoinsThatPublicationAndIsSpentWithIt() {
        scopes.hold();
        long first = fixture.stageSpawn(T);
        scopes.barrier();
        assertTrue(published(first));
        boolean[] armed = {true};
        fixture.tableOf(first).addObserver(new dev.jtecs.storage.EntityObserver() {
            @Override
            public void onEntitiesAdded(dev.jtecs.storage.Archetype archetype, int fromRow, int toRow,
                    dev.jtecs.storage.Archetype other) {
                if (armed[0]) {
                    armed[0] = false;
                    scopes.unwind(); // inside the drain: it joins the publication running now
                }
            }
        });
        long second = fixture.stageSpawn(T);
        scopes.barrier();
        assertFalse(armed[0], "the callback ran");
        assertTrue(published(second));
        long third = fixture.stageSpawn(T);
        scopes.enter();
        scopes.exit(true);
        assertFalse(published(third), "no unwind is pending after that publication: the call inside the hold waits");
        scopes.release(true);
        assertTrue(published(third));
    }

    @Test
    void theLastCursorToCloseOutsideAnyOtherScopePublishes() {
        int first = scopes.openCursor();
        int second = scopes.openCursor();
        long id = fixture.stageSpawn(T);
        scopes.closeCursor(second);
        assertEquals(1, scopes.depth());
        assertFalse(published(id), "one cursor is still open");
        scopes.closeCursor(first);
        assertEquals(0, scopes.depth());
        assertTrue(published(id), "the last one closed: the staged work publishes");
        scopes.closeCursor(first); // closed already: nothing happens
        assertEquals(0, scopes.depth());
        scopes.defer();
        int inside = scopes.openCursor();
        long later = fixture.stageSpawn(T);
        scopes.closeCursor(inside);
        assertFalse(published(later), "a cursor closed inside a defer does not publish");
        assertEquals(1, scopes.depth());
        scopes.commit();
        assertTrue(published(later));
    }

    @Test
    void aPublicationFromADrainCallbackJoinsTheRunningDrain() {
        long first = fixture.stageSpawn(T);
        fixture.drain.drain(); // the table exists now
        long[] staged = new long[1];
        fixture.tableOf(first).addObserver(new dev.jtecs.storage.EntityObserver() {
            @Override
            public void onEntitiesAdded(dev.jtecs.storage.Archetype archetype, int from, int to,
                    dev.jtecs.storage.Archetype other) {
                if (staged[0] == 0) {
                    staged[0] = fixture.stageSpawn(T);
                    assertTrue(scopes.inCall(), "the drain is a running call while its callbacks run");
                    scopes.enter();
                    scopes.exit(true); // would publish if outermost: the drain runs, so it joins it
                    scopes.commit();
                    assertFalse(published(staged[0]), "published by the running drain's next wave, not here");
                }
            }
        });
        scopes.enter();
        long id = fixture.stageSpawn(T);
        scopes.exit(true);
        assertTrue(published(id));
        assertTrue(published(staged[0]), "the callback's spawn published in the same publication");
        assertEquals(0, scopes.depth());
        assertFalse(scopes.inCall());
    }

    @Test
    void insideAHoldACommitClosesItsOwnDeferAndPublishesAndTheReleaseLeavesNoScope() {
        scopes.hold();
        assertTrue(scopes.onlyDeferred(), "a hold is no running call");
        scopes.defer();
        long id = fixture.stageSpawn(T);
        scopes.commit();
        assertTrue(published(id), "the defer closed down to the hold: a commit inside a system publishes");
        assertEquals(1, scopes.depth());
        scopes.release(false);
        assertEquals(0, scopes.depth());
        assertTrue(scopes.onlyDeferred());
        scopes.commit(); // nothing is open: the commit closes nothing
        assertEquals(0, scopes.depth());
        scopes.defer();
        long later = fixture.stageSpawn(T);
        scopes.commit();
        assertTrue(published(later), "a defer after the release is the outermost scope again");
        assertEquals(0, scopes.depth());
    }
}
