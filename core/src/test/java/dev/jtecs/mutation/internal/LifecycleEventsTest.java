package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.entity.Entity;
import dev.jtecs.event.OnDespawn;
import dev.jtecs.event.OnSpawn;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The events the call side delivers, and the observer cleanup that goes with them. */
class LifecycleEventsTest {
    private final DrainFixture fixture = new DrainFixture();
    private final LifecycleEvents events = fixture.lifecycle;
    private final List<String> log = new ArrayList<>();

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    @Test
    void spawnsAreReportedAtTheWorldAddressOnlyWhenObserved() {
        assertTrue(events.spawnIsSilent());
        events.spawned(fixture.index.allocate()); // nobody listens: nothing built, nothing delivered
        long other = fixture.index.allocate();
        fixture.observers.observe(other, OnSpawn.class, (OnSpawn e) -> log.add("never"), null, false);
        assertTrue(events.spawnIsSilent(), "a spawn is told at the world's address only");
        fixture.observers.observe(Entity.WORLD, OnSpawn.class, (OnSpawn e) -> log.add("spawn " + e.entity()), null,
                false);
        assertFalse(events.spawnIsSilent());
        long id = fixture.index.allocate();
        events.spawned(id);
        assertEquals(List.of("spawn " + id), log);
    }

    @Test
    void aDespawnIsReportedAtTheEntityThenTheWorldAndItsObserversGo() {
        long id = fixture.index.allocate();
        fixture.observers.observe(id, OnDespawn.class, (OnDespawn e) -> log.add("entity"), null, false);
        fixture.observers.observe(Entity.WORLD, OnDespawn.class, (OnDespawn e) -> log.add("world"), null, false);
        assertTrue(events.anyDespawnObserver());
        events.despawned(id, TxState.STAGED_SPAWN);
        assertEquals(List.of("entity", "world"), log);
        assertFalse(fixture.observers.has(id, OnDespawn.class), "the entity's observers are dropped");
    }

    @Test
    void aThrowingObserverStillLosesItsRegistration() {
        long id = fixture.index.allocate();
        fixture.observers.observe(id, OnDespawn.class, (OnDespawn e) -> {
            throw new IllegalStateException("observer failed");
        }, null, false);
        assertThrows(IllegalStateException.class, () -> events.despawned(id, TxState.STAGED_SPAWN));
        assertFalse(fixture.observers.has(id, OnDespawn.class));
    }

    @Test
    void aReleasedIdKeepsNoObservers() {
        long id = fixture.index.allocate();
        fixture.observers.observe(id, OnSpawn.class, (OnSpawn e) -> log.add("never"), null, false);
        events.released(id);
        assertFalse(fixture.observers.has(id, OnSpawn.class));
    }

    @Test
    void emitStopsAtTheFirstThrowingObserverOfADespawn() {
        // issue 18, smaller item: emit stops at the first throwing observer
        long id = fixture.index.allocate();
        fixture.observers.observe(id, OnDespawn.class, (OnDespawn e) -> {
            throw new IllegalStateException("entity observer failed");
        }, null, false);
        fixture.observers.observe(Entity.WORLD, OnDespawn.class, (OnDespawn e) -> log.add("world"), null, false);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> events.despawned(id, TxState.STAGED_SPAWN));
        assertEquals("entity observer failed", e.getMessage());
        assertEquals(List.of("world"), log, "the world's observers heard the despawn too");
        assertFalse(fixture.observers.has(id, OnDespawn.class));
    }
}
