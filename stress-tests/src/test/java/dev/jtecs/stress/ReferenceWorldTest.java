package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.CHILD_OF;
import static dev.jtecs.stress.ModelComponents.ELITE;
import static dev.jtecs.stress.ModelComponents.FOLLOWS;
import static dev.jtecs.stress.ModelComponents.HELD_BY;
import static dev.jtecs.stress.ModelComponents.HEALTH;
import static dev.jtecs.stress.ModelComponents.KEY;
import static dev.jtecs.stress.ModelComponents.KEYED;
import static dev.jtecs.stress.ModelComponents.LABEL;
import static dev.jtecs.stress.ModelComponents.LEADS;
import static dev.jtecs.stress.ModelComponents.LEVEL;
import static dev.jtecs.stress.ModelComponents.LOAN;
import static dev.jtecs.stress.ModelComponents.MARKED;
import static dev.jtecs.stress.ModelComponents.MOVER;
import static dev.jtecs.stress.ModelComponents.POSITION;
import static dev.jtecs.stress.ModelComponents.SPRING;
import static dev.jtecs.stress.ModelComponents.VELOCITY;
import static dev.jtecs.stress.ModelComponents.WATCHES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Component;
import dev.jtecs.component.Relationship;
import dev.jtecs.stress.ReferenceWorld.Init;
import dev.jtecs.stress.ModelComponents.Label;
import dev.jtecs.stress.ModelComponents.Loan;
import dev.jtecs.stress.ModelComponents.Position;
import dev.jtecs.stress.ModelComponents.Spring;
import dev.jtecs.stress.ModelComponents.Velocity;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The reference model itself follows the mutation-model rules it encodes. */
class ReferenceWorldTest {
    private static Predicate<Map<Component<?>, Object>> having(Component<?> component) {
        return row -> row.containsKey(component);
    }

    @Test
    void spawnIsInvisibleUntilCommit() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1, HEALTH.of(5.0));
        assertFalse(model.isAlive(1));
        assertTrue(model.isKnownLiveOrReserved(1));
        model.commit();
        assertTrue(model.isAlive(1));
        assertEquals(5.0, model.get(1, HEALTH));
    }

    @Test
    void setOnExistingComponentWritesThroughButNewComponentWaits() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1, HEALTH.of(5.0));
        model.commit();
        model.set(1, HEALTH.of(7.0));
        assertEquals(7.0, model.get(1, HEALTH));
        model.set(1, POSITION.of(new Position(1, 2)));
        assertNull(model.get(1, POSITION));
        model.set(1, HEALTH.of(9.0)); // structure staged: value waits too
        assertEquals(7.0, model.get(1, HEALTH));
        model.commit();
        assertEquals(9.0, model.get(1, HEALTH));
        assertEquals(new Position(1, 2), model.get(1, POSITION));
    }

    @Test
    void despawnCancelsStagedSpawnAndIgnoresLaterWrites() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1, MARKED);
        model.despawn(1);
        model.set(1, HEALTH);
        model.commit();
        assertFalse(model.isAlive(1));
        assertEquals(0, model.aliveCount());
    }

    @Test
    void removeThenAddKeepsTheComponentWithTheNewValue() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1, HEALTH.of(1.0));
        model.commit();
        model.remove(1, HEALTH);
        model.set(1, HEALTH.of(2.0));
        model.commit();
        assertEquals(2.0, model.get(1, HEALTH));
    }

    // ---------------------------------------------------------------- requirements

    @Test
    void requirementsExpandBreadthFirstAndExplicitInputsWin() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1, ELITE);
        model.spawn(2, MOVER, LEVEL.of(2));
        model.commit();
        assertEquals(9, model.get(1, LEVEL), "Elite's own Level 9 is met before Mover's Level 5");
        assertEquals(150.0, model.get(1, HEALTH));
        assertEquals(new Velocity(1f, -1f), model.get(1, VELOCITY), "a required definition gives its default");
        assertEquals(new Label(null, null), model.get(1, LABEL));
        assertEquals(2, model.get(2, LEVEL));
    }

    @Test
    void aRemovalStagedBeforeAnAdditionIsUndoneByItsRequirements() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1, LEVEL.of(3));
        model.commit();
        model.remove(1, LEVEL);
        model.set(1, MOVER);
        model.commit();
        assertEquals(5, model.get(1, LEVEL));
        model.set(1, HEALTH.of(1.0));
        model.remove(1, LEVEL);
        model.commit();
        assertFalse(model.has(1, LEVEL), "a removal after the addition sticks");
    }

    // ---------------------------------------------------------------- spawn batches

    @Test
    void batchSpawnStartsDefinitionsUninitializedAndDeliversNoSpawnEvent() {
        ReferenceWorld model = new ReferenceWorld();
        model.batchSpawn(new long[] {1, 2}, List.of(VELOCITY, LABEL, LEVEL, MOVER), List.of());
        assertFalse(model.isAlive(1));
        assertTrue(model.isKnownLiveOrReserved(2));
        model.commit();
        assertEquals(new Velocity(0f, 0f), model.get(1, VELOCITY), "an explicit native definition is zero bits");
        assertTrue(model.has(1, LABEL));
        assertNull(model.get(1, LABEL), "an explicit managed definition stays empty");
        assertEquals(1, model.get(2, LEVEL), "explicit inputs beat requirements");
        assertTrue(model.events().isEmpty());
    }

    @Test
    void aQueueSpawnDeliversItsEventAtOnceAndStartsDefinitionsAtTheirDefaults() {
        ReferenceWorld model = new ReferenceWorld();
        model.queueSpawn(1, VELOCITY, LABEL, LEVEL);
        assertEquals(List.of("OnSpawn 1"), model.events(), "as a spawn's, at the call");
        assertFalse(model.isAlive(1));
        assertTrue(model.isKnownLiveOrReserved(1));
        model.commit();
        assertEquals(new Velocity(1f, -1f), model.get(1, VELOCITY), "a native definition at its factory's default");
        assertEquals(new Label(null, null), model.get(1, LABEL), "a managed definition at its default, not empty");
        assertEquals(1, model.get(1, LEVEL), "a scalar at its declared default");
    }

    @Test
    void batchRequirementsKeepTheirValues() {
        ReferenceWorld model = new ReferenceWorld();
        model.batchSpawn(new long[] {1}, List.of(ELITE, HEALTH.of(3.0)), List.of());
        model.commit();
        assertEquals(new Velocity(1f, -1f), model.get(1, VELOCITY));
        assertEquals(new Label(null, null), model.get(1, LABEL));
        assertEquals(9, model.get(1, LEVEL));
        assertEquals(3.0, model.get(1, HEALTH));
    }

    @Test
    void theInitializerRunsOnInitialValuesAndLaterCallsApplyAfterIt() {
        ReferenceWorld model = new ReferenceWorld();
        long even = 2;
        long odd = 3;
        model.batchSpawn(new long[] {even, odd}, List.of(LEVEL, LABEL), List.of(LEVEL, LABEL, POSITION));
        model.set(odd, LEVEL.of(50));
        model.commit();
        assertEquals(4, model.get(even, LEVEL), "1 * 3 + 1");
        assertEquals(50, model.get(odd, LEVEL));
        assertEquals(new Label("w2", List.of("g0")), model.get(even, LABEL));
        assertNull(model.get(odd, LABEL), "odd slots are left empty by the writer");
        assertFalse(model.has(even, POSITION), "the initializer adds nothing");
    }

    @Test
    void aDespawnedBatchMemberGetsNoRowButItsEvent() {
        ReferenceWorld model = new ReferenceWorld();
        model.batchSpawn(new long[] {1, 2}, List.of(MARKED), List.of());
        model.observe(2);
        model.despawn(2);
        model.set(2, HEALTH);
        model.commit();
        assertTrue(model.isAlive(1));
        assertFalse(model.isAlive(2));
        assertEquals(List.of("OnDespawn@ 2", "OnDespawn 2"), model.events());
    }

    // ---------------------------------------------------------------- query batches

    @Test
    void aQueryBatchSelectsCommittedMembersAtTheCall() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1, POSITION);
        model.commit();
        model.spawn(2, POSITION);
        assertEquals(List.of(1L), model.batchSet(having(POSITION), MARKED));
        model.spawn(3, POSITION);
        model.commit();
        assertTrue(model.has(1, MARKED));
        assertFalse(model.has(2, MARKED));
        assertFalse(model.has(3, MARKED));
    }

    @Test
    void aQueryBatchOrdersTheTransactionAndStopsWriteThrough() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1, HEALTH.of(5.0));
        model.spawn(2, HEALTH.of(5.0));
        model.commit();
        model.set(1, HEALTH.of(6.0));
        assertEquals(6.0, model.get(1, HEALTH), "written through before the batch");
        model.batchSet(having(HEALTH), HEALTH.of(1.0));
        model.set(1, HEALTH.of(7.0));
        assertEquals(6.0, model.get(1, HEALTH), "staged after the batch");
        model.commit();
        assertEquals(7.0, model.get(1, HEALTH));
        assertEquals(1.0, model.get(2, HEALTH));
    }

    @Test
    void aRemoveAfterAPendingBatchSetRemovesWhatTheBatchAdded() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1, MARKED);
        model.commit();
        model.batchSet(having(MARKED), HEALTH.of(3.0));
        model.remove(1, HEALTH);
        model.commit();
        assertFalse(model.has(1, HEALTH));
    }

    @Test
    void aBatchSetAddsWithRequirementsAndAWriterStartsFromZeroBits() {
        ReferenceWorld model = new ReferenceWorld();
        long id = 5;
        model.spawn(id, MARKED, VELOCITY.of(new Velocity(2f, 2f)));
        model.commit();
        model.batchSet(having(MARKED), MOVER);
        model.batchRewrite(having(MARKED), POSITION);
        model.commit();
        assertEquals(5, model.get(id, LEVEL));
        assertEquals(new Velocity(2f, 2f), model.get(id, VELOCITY), "a present component keeps its value");
        assertEquals(new Position(1f, 5f), model.get(id, POSITION), "zero bits, then x + 1 and y = slot");
    }

    @Test
    void batchRemoveRemovesWherePresent() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1, MARKED, HEALTH);
        model.spawn(2, MARKED);
        model.commit();
        model.batchRemove(having(MARKED), HEALTH);
        model.commit();
        assertFalse(model.has(1, HEALTH));
        assertTrue(model.has(2, MARKED));
    }

    @Test
    void batchDespawnDeliversAtTheCallAndItsEntitiesIgnoreLaterCalls() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1, MARKED);
        model.spawn(2, MARKED);
        model.spawn(3, MARKED);
        model.observe(2);
        model.commit();
        model.events().clear();
        model.despawn(1);
        model.set(2, HEALTH);
        assertEquals(List.of(2L, 3L), model.batchDespawn(having(MARKED)), "1 is already being despawned");
        assertEquals(List.of("OnDespawn 1", "OnDespawn@ 2", "OnDespawn 2", "OnDespawn 3"), model.events());
        model.set(3, HEALTH);
        model.despawn(2);
        model.despawn(3);
        assertEquals(4, model.events().size(), "selected entities ignore later calls");
        assertTrue(model.isAlive(2), "alive until publication");
        model.commit();
        assertEquals(0, model.aliveCount());
    }

    // ---------------------------------------------------------------- relationships

    private static List<Long> targets(ReferenceWorld model, long id, Relationship relationship) {
        return ReferenceRows.targets(model.row(id), relationship);
    }

    @Test
    void anExclusiveEdgeReplacesTheEdgeBeforeItWhereverTheyMeet() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1);
        model.spawn(2);
        model.spawn(3);
        model.spawn(4, LEADS.to(1), LEADS.to(2));
        model.spawn(5, MARKED);
        model.commit();
        assertEquals(List.of(2L), targets(model, 4, LEADS), "within one spawn the last edge wins");
        model.set(4, LEADS.to(3));
        model.commit();
        assertEquals(List.of(3L), targets(model, 4, LEADS), "set on a published entity");
        model.set(4, LEADS.to(1));
        model.set(4, LEADS.to(2));
        model.commit();
        assertEquals(List.of(2L), targets(model, 4, LEADS), "staged sets of one transaction");
        model.batchSet(having(MARKED), LEADS.to(1));
        model.set(5, LEADS.to(3)); // after the batch, whose edge this call cannot see yet
        model.commit();
        assertEquals(List.of(3L), targets(model, 5, LEADS), "the last edge set wins over a pending batch's");
        assertEquals(LEADS.to(3), model.get(5, LEADS), "the marker reads the only edge");
        model.batchSet(having(MARKED), LEADS.to(2));
        model.commit();
        assertEquals(List.of(2L), targets(model, 5, LEADS), "a batch set replaces too");
    }

    @Test
    void removingTheRelationshipTakesEveryEdgeAndRemovingAnEdgeOnlyThatOne() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1);
        model.spawn(2);
        model.spawn(3, FOLLOWS.to(1), FOLLOWS.to(2));
        model.commit();
        assertEquals(3, model.get(3, LEVEL), "the first edge brings the relationship's requirements");
        model.remove(3, FOLLOWS.targeting(1)); // one edge
        model.commit();
        assertEquals(List.of(2L), targets(model, 3, FOLLOWS));
        assertEquals(FOLLOWS.to(2), model.get(3, FOLLOWS), "the marker stays with the edge left");
        model.remove(3, FOLLOWS.targeting(2)); // the last edge takes the marker with it
        model.commit();
        assertFalse(model.has(3, FOLLOWS));
        assertTrue(model.has(3, MARKED), "requirements stay");
        model.set(3, FOLLOWS.to(1));
        model.set(3, FOLLOWS.to(2));
        model.commit();
        model.remove(3, FOLLOWS); // the relationship: every edge and the marker
        model.commit();
        assertEquals(List.of(), targets(model, 3, FOLLOWS));
        assertFalse(model.has(3, FOLLOWS));
        model.batchSet(having(MARKED), FOLLOWS.to(2));
        model.remove(3, FOLLOWS); // after the batch: takes the edge it adds too
        model.commit();
        assertFalse(model.has(3, FOLLOWS.targeting(2)));
    }

    @Test
    void anUnplacedBatchMembersEdgesAreTheBatchsPlannedOnes() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1);
        model.spawn(2);
        model.commit();
        model.batchSpawn(new long[] {3, 4}, List.of(FOLLOWS.to(1), FOLLOWS.to(2), LEADS.to(1)), List.of());
        model.remove(3, FOLLOWS); // the edges the batch will give it
        model.set(4, LEADS.to(2)); // exclusive: replaces the batch's edge
        model.commit();
        assertFalse(model.has(3, FOLLOWS));
        assertEquals(List.of(1L), targets(model, 3, LEADS));
        assertEquals(List.of(1L, 2L), targets(model, 4, FOLLOWS));
        assertEquals(List.of(2L), targets(model, 4, LEADS));
    }

    @Test
    void aDeadTargetsEdgesGoAndTheirSourcesStay() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1);
        model.spawn(2);
        model.spawn(3, FOLLOWS.to(1), FOLLOWS.to(2), LEADS.to(1));
        model.spawn(4);
        model.commit();
        model.despawn(1);
        model.set(4, FOLLOWS.to(1)); // 1 is still alive at the call
        model.spawn(5);
        model.set(4, LEADS.to(5));
        model.despawn(5); // a staged spawn cancelled: 5 never lives
        assertNull(model.commit());
        assertTrue(model.isAlive(3) && model.isAlive(4), "not cascading: the sources stay");
        assertEquals(List.of(2L), targets(model, 3, FOLLOWS), "only the dead target's edge goes");
        assertFalse(model.has(3, LEADS), "and with the last edge, the marker");
        assertFalse(model.has(4, FOLLOWS), "an edge staged after its target's despawn does not survive");
        assertFalse(model.has(4, LEADS), "nor one to a spawn that never happened");
        assertEquals(0, model.cascades());
    }

    @Test
    void aDeadTargetsEdgeGoesInAFurtherWaveAfterThePublicationsQueryBatches() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1);
        model.spawn(2);
        model.spawn(3, FOLLOWS.to(1));
        model.commit();
        model.remove(3, MARKED); // a requirement of Follows' first edge
        model.commit();
        model.despawn(1);
        model.batchSet(having(LEVEL), FOLLOWS.to(2)); // runs while 3 still holds Follows(1)
        assertNull(model.commit());
        assertEquals(List.of(2L), targets(model, 3, FOLLOWS), "the dead target's edge went after the batch");
        assertFalse(model.has(3, MARKED), "the batch's edge was not a first edge: no requirements");
    }

    @Test
    void despawningAParentDespawnsItsSubtreeInCallOrderReportingEachOnce() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1);
        model.spawn(2, CHILD_OF.to(1));
        model.spawn(3, CHILD_OF.to(2));
        model.spawn(4, CHILD_OF.to(3));
        model.spawn(5, CHILD_OF.to(1));
        model.spawn(6, CHILD_OF.to(1));
        model.spawn(7);
        model.spawn(8, FOLLOWS.to(3));
        model.commit();
        model.events().clear();
        model.set(5, CHILD_OF.to(7)); // re-parented before the despawn: spared
        model.despawn(1);
        model.batchSet(having(MARKED), HEALTH);
        model.remove(6, CHILD_OF); // detached after it, across a query batch: too late
        assertNull(model.commit());
        List<String> events = new java.util.ArrayList<>(model.events());
        events.sort(null);
        assertEquals(List.of("OnDespawn 1", "OnDespawn 2", "OnDespawn 3", "OnDespawn 4", "OnDespawn 6"), events);
        assertEquals(4, model.cascades());
        assertEquals(List.of(7L), targets(model, 5, CHILD_OF));
        assertTrue(model.isAlive(8), "a non-cascading edge into the subtree only goes");
        assertFalse(model.has(8, FOLLOWS));
    }

    @Test
    void aCascadeLeavesAnEntityAPendingBatchDespawnSelectedToThatBatch() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1);
        model.spawn(2, CHILD_OF.to(1));
        model.spawn(3, MARKED, CHILD_OF.to(2));
        model.spawn(4, CHILD_OF.to(3));
        model.commit();
        model.events().clear();
        model.despawn(1); // publishes before the batch: its cascade takes 2, then reaches 3...
        model.batchDespawn(having(MARKED)); // ...which this batch selected and reported at the call
        assertNull(model.commit());
        assertEquals(List.of("OnDespawn 1", "OnDespawn 3", "OnDespawn 2", "OnDespawn 4"), model.events(),
                "each entity reported once: 3 by its batch, 4 when the batch has despawned its parent");
        assertEquals(0, model.aliveCount());
    }

    @Test
    void aCascadeLeavesAnEntityWhoseDespawnIsStagedInALaterSegmentToThatDespawn() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1);
        model.spawn(2, CHILD_OF.to(1));
        model.spawn(3, CHILD_OF.to(2));
        model.commit();
        model.events().clear();
        model.despawn(1);
        model.batchSet(having(MARKED), HEALTH); // what follows publishes after 1's cascade has run
        model.despawn(2); // reported now; 1's cascade reaches it first
        assertNull(model.commit());
        assertEquals(List.of("OnDespawn 1", "OnDespawn 2", "OnDespawn 3"), model.events(), "each once");
        assertEquals(0, model.aliveCount());
    }

    // ---------------------------------------------------------------- maintenance

    @Test
    void clearForgetsEntitiesStagedWorkAndEntityObservers() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1, MARKED);
        model.observe(1);
        model.commit();
        model.spawn(2, MARKED);
        model.batchSpawn(new long[] {3}, List.of(MARKED), List.of());
        model.clear();
        assertFalse(model.isKnownLiveOrReserved(1));
        assertFalse(model.isKnownLiveOrReserved(3));
        assertFalse(model.hasPending());
        model.commit();
        assertEquals(0, model.aliveCount());
    }

    @Test
    void entityObserversAddUpUntilTheDespawn() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1, MARKED);
        model.observe(1);
        model.observe(1);
        model.commit();
        model.despawn(1);
        assertEquals(List.of("OnSpawn 1", "OnDespawn@ 1", "OnDespawn@ 1", "OnDespawn 1"), model.events());
    }

    // ---------------------------------------------------------------- failed publications and keys

    /** Found by the model sweep (seed 1010084): an observer added at a spawn cancelled in a failed transaction. */
    @Test
    void aFailedPublicationReleasesUnpublishedIdsButACancelledSpawnWasFreedAsADespawn() {
        ReferenceWorld model = new ReferenceWorld();
        model.batchSpawnAt(new long[] {5}, List.of(MARKED), new Init(List.of(), null, true)); // fails at placement
        model.spawn(1, MARKED);
        model.despawn(1); // cancelled: freed with the segment's despawns, ahead of the failing batch
        model.observe(1); // an observer at the dead address: it stays, as at any dead id
        model.spawn(2, MARKED);
        model.observe(2); // reserved, never published: released by the failure, with its observers
        assertNotNull(model.commit());
        model.batchSpawnAt(new long[] {1, 2}, List.of(MARKED), Init.NONE); // the same ids, restored
        assertNull(model.commit());
        model.despawn(1);
        model.despawn(2);
        assertEquals(List.of("OnSpawn 1", "OnDespawn 1", "OnSpawn 2", "OnDespawn@ 1", "OnDespawn 1", "OnDespawn 2"),
                model.events());
    }

    @Test
    void aThrowingInitializerKeepsDespawnsAndBatchSpawnsPlacedAheadOfItAndDiscardsTheRest() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1, MARKED);
        model.spawn(9, MARKED);
        model.commit();
        model.despawn(1); // the segment's despawns run first
        model.batchSpawnAt(new long[] {5}, List.of(MARKED), new Init(List.of(), null, true));
        model.batchSpawn(new long[] {2, 3}, List.of(MARKED), List.of()); // batchSpawn batches go ahead of restores
        model.spawn(4, HEALTH);
        model.set(9, HEALTH); // a move: after the spawn batches, so discarded
        assertNotNull(model.commit());
        assertFalse(model.isAlive(1));
        assertTrue(model.isAlive(2) && model.isAlive(3));
        assertFalse(model.isAlive(5) || model.isAlive(4));
        assertFalse(model.has(9, HEALTH));
        assertFalse(model.hasPending());
        assertFalse(model.isKnownLiveOrReserved(5), "the failed batch's ids are released");
    }

    @Test
    void aFailureLeavesEarlierSegmentsAndTheirQueryBatchesPublished() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1, MARKED);
        model.commit();
        model.batchSet(having(MARKED), HEALTH.of(3.0));
        model.batchSpawn(new long[] {2}, List.of(MARKED), new Init(List.of(), null, true));
        model.batchSet(having(MARKED), HEALTH.of(4.0));
        assertNotNull(model.commit());
        assertEquals(3.0, model.get(1, HEALTH), "the batch before the failing segment ran; the one after did not");
        assertFalse(model.isAlive(2));
    }

    @Test
    void aBatchWithEveryMemberCancelledNeitherInitializesNorFails() {
        ReferenceWorld model = new ReferenceWorld();
        model.batchSpawn(new long[] {1}, List.of(MARKED), new Init(List.of(), null, true));
        model.despawn(1);
        assertNull(model.commit());
    }

    @Test
    void restoredKeysAreClaimedAtPlacement() {
        ReferenceWorld model = new ReferenceWorld();
        model.batchSpawnAt(new long[] {1, 2}, List.of(KEY), new Init(List.of(), id -> "k" + id, false));
        assertNull(model.commit());
        assertEquals(1, model.holderOf("k1"));
        assertEquals("k2", model.get(2, KEY));
        model.batchSpawnAt(new long[] {3}, List.of(KEYED), new Init(List.of(), id -> "k1", false));
        assertNotNull(model.commit(), "a key a live entity holds");
        model.batchSpawnAt(new long[] {4, 5}, List.of(KEY), new Init(List.of(), id -> "same", false));
        assertNotNull(model.commit(), "a key written twice");
        model.batchSpawnAt(new long[] {6}, List.of(KEY), Init.NONE);
        assertNotNull(model.commit(), "a key never written");
        assertFalse(model.isAlive(3) || model.isAlive(4) || model.isAlive(6));
        assertEquals(0, model.holderOf("same"));
    }

    @Test
    void aKeyIsFreeOnceItsHolderDespawnsEarlierInTheSegmentAndADuplicateCancelledIsNoDuplicate() {
        ReferenceWorld model = new ReferenceWorld();
        model.batchSpawnAt(new long[] {1}, List.of(KEY.of("boss")), Init.NONE);
        model.commit();
        model.despawn(1);
        model.batchSpawnAt(new long[] {2, 3}, List.of(KEYED), new Init(List.of(), id -> "boss", false));
        model.despawn(3);
        assertNull(model.commit());
        assertEquals(2, model.holderOf("boss"));
    }

    // ---------------------------------------------------------------- sparse and payload relationships

    @Test
    void sparseEdgesLiveInTheStoreAndTheMarkerInTheRow() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1);
        model.spawn(2);
        model.spawn(3, WATCHES.to(2), WATCHES.to(1));
        model.commit();
        assertEquals(List.of(1L, 2L), model.targets(3, WATCHES), "ascending target order");
        assertTrue(model.has(3, WATCHES), "the marker");
        assertFalse(model.row(3).containsKey(FOLLOWS), "no selector stands for a sparse edge in the row");
        assertEquals(List.of(3L), model.sources(WATCHES, 1));
    }

    @Test
    void aSparseWriteStagedBeforeABatchIsRemovedByItAndOneAfterItStays() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1);
        model.spawn(2);
        model.spawn(3, MARKED, WATCHES.to(1));
        model.spawn(4, MARKED, WATCHES.to(1));
        model.commit();
        model.set(3, WATCHES.to(2)); // flushed before the batch
        model.batchRemove(having(MARKED), WATCHES);
        model.set(4, WATCHES.to(2)); // flushed after it
        assertEquals(List.of(1L), model.targets(4, WATCHES), "published state until the commit");
        model.commit();
        assertEquals(List.of(), model.targets(3, WATCHES));
        assertFalse(model.has(3, WATCHES), "the batch took the marker with the edges");
        assertEquals(List.of(2L), model.targets(4, WATCHES));
        assertTrue(model.has(4, WATCHES));
    }

    @Test
    void theSparseMarkerLeavesWithTheLastEdgeInTheSameCommit() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1);
        model.spawn(2, WATCHES.to(1));
        model.commit();
        model.removeEdge(2, WATCHES.to(1));
        model.commit();
        assertEquals(List.of(), model.targets(2, WATCHES));
        assertFalse(model.has(2, WATCHES), "corrected in the next wave of the same commit");
    }

    @Test
    void aNonCascadingSparseEdgeKeepsItsDeadTarget() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1);
        model.spawn(2, WATCHES.to(1));
        model.commit();
        model.despawn(1);
        model.commit();
        assertTrue(model.isAlive(2));
        assertEquals(List.of(1L), model.targets(2, WATCHES), "the dead id stays");
        assertEquals(List.of(2L), model.sources(WATCHES, 1), "and is still a source of it");
    }

    @Test
    void aCascadingSparseEdgeDespawnsItsSourceEvenWhenItLandsOnADeadTarget() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1);
        model.spawn(2, HELD_BY.to(1));
        model.spawn(5);
        model.commit();
        model.despawn(1);
        model.commit();
        assertFalse(model.isAlive(2), "the subtree goes with its target");
        model.despawn(5);
        model.spawn(6, HELD_BY.to(5)); // lands on a target that died earlier in the commit
        model.commit();
        assertFalse(model.isAlive(6));
    }

    @Test
    void aCascadingSparseEdgeReplacedBeforeTheFlushDoesNotCascade() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1);
        model.spawn(2);
        model.commit();
        model.despawn(1);
        model.spawn(3, HELD_BY.to(1), HELD_BY.to(2)); // exclusive: the last edge wins
        model.commit();
        assertTrue(model.isAlive(3));
        assertEquals(List.of(2L), model.targets(3, HELD_BY));
    }

    @Test
    void aDespawnDropsQueuedSparseWritesAndTheSourceLeavesTheStore() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1);
        model.spawn(2, WATCHES.to(1));
        model.commit();
        model.set(2, WATCHES.to(1));
        model.despawn(2);
        model.commit();
        assertEquals(List.of(), model.sources(WATCHES, 1), "a dead source leaves the index");
        model.spawn(2); // the same id again (spawnAt): it starts without edges
        model.commit();
        assertFalse(model.has(2, WATCHES));
        assertEquals(List.of(), model.targets(2, WATCHES));
    }

    @Test
    void aSparseEdgeOnAnEntityWithTheMarkerStagesNoMoveAndLeavesWriteThrough() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1);
        model.spawn(2, WATCHES.to(1), HEALTH.of(5.0));
        model.commit();
        model.set(2, WATCHES.to(2)); // only the write is queued
        model.set(2, HEALTH.of(7.0));
        assertEquals(7.0, model.get(2, HEALTH), "no structural change is pending: the value writes through");
        model.commit();
        assertEquals(List.of(1L, 2L), model.targets(2, WATCHES));
    }

    @Test
    void aBatchSpawnWritesItsSparseEdgesForEveryMember() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1);
        model.spawn(2);
        model.commit();
        model.batchSpawn(new long[] {3, 4}, List.of(HELD_BY.to(1), HELD_BY.to(2), WATCHES.to(1)), List.of());
        model.commit();
        assertEquals(List.of(2L), model.targets(4, HELD_BY), "exclusive: the last one given");
        assertEquals(List.of(1L), model.targets(3, WATCHES));
        assertEquals(List.of(3L, 4L), model.sources(HELD_BY, 2));
    }

    @Test
    void aSparseBatchRemoveOfOneEdgeLeavesTheMarkerToTheNextWave() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1);
        model.spawn(2);
        model.spawn(3, MARKED, WATCHES.to(1));
        model.spawn(4, MARKED, WATCHES.to(1), WATCHES.to(2));
        model.commit();
        model.batchRemoveEdge(having(MARKED), WATCHES.to(1));
        model.commit();
        assertFalse(model.has(3, WATCHES), "its last edge went");
        assertEquals(List.of(2L), model.targets(4, WATCHES));
        assertTrue(model.has(4, WATCHES));
    }

    @Test
    void settingAHeldTargetReplacesTheDensePayloadInPlace() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1);
        model.spawn(2, SPRING.of(new Spring(1, 2f, 3)));
        model.commit();
        model.set(2, SPRING.of(new Spring(1, 4f, 1))); // written through: the pair is there
        assertEquals(List.of(new Spring(1, 4f, 1)), model.edges(2, SPRING));
        assertEquals(new Spring(1, 4f, 1), model.get(2, SPRING), "the marker reads the first edge's record");
        model.set(2, SPRING.to(1));
        assertEquals(List.of(new Spring(1, 0f, 0)), model.edges(2, SPRING), "to(target): a zero payload");
    }

    @Test
    void settingAHeldTargetReplacesTheSparsePayloadAtTheFlush() {
        ReferenceWorld model = new ReferenceWorld();
        model.spawn(1);
        model.spawn(2);
        model.spawn(3, LOAN.of(new Loan(2, 5)), LOAN.of(new Loan(1, 3)));
        model.commit();
        model.set(3, LOAN.of(new Loan(2, 1)));
        assertEquals(List.of(new Loan(1, 3), new Loan(2, 5)), model.edges(3, LOAN), "queued until the flush");
        model.commit();
        assertEquals(List.of(new Loan(1, 3), new Loan(2, 1)), model.edges(3, LOAN));
        model.removeEdge(3, LOAN.to(2)); // removal looks at the target only
        model.commit();
        assertEquals(List.of(new Loan(1, 3)), model.edges(3, LOAN));
    }
}
