package dev.jtecs.mutation.internal;

import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.event.OnDespawn;
import dev.jtecs.event.OnSpawn;
import dev.jtecs.event.internal.ObserverRegistry;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.internal.ArchetypeRegistry;

/**
 * The lifecycle events the call side delivers: {@link OnSpawn} at address 0 during a spawn call, {@link OnDespawn}
 * at the entity's address and then at address 0 during a despawn call (the entity still alive and readable), after
 * which the observers at the entity's address are dropped.
 *
 * @implNote Presence flags make a call with no observer cost one field read; no event object is built then.
 */
public final class LifecycleEvents {
    private final EntityIndex index;
    private final ArchetypeRegistry archetypes;
    private final ObserverRegistry observers;
    private final ObserverRegistry.Presence spawnObservers;
    private final ObserverRegistry.Presence despawnObservers;
    private final OnDespawn.Context despawnContext;

    /** @param despawnContext what {@link OnDespawn} reads committed values and requests despawns through */
    public LifecycleEvents(EntityIndex index, ArchetypeRegistry archetypes, ObserverRegistry observers,
            OnDespawn.Context despawnContext) {
        this.index = index;
        this.archetypes = archetypes;
        this.observers = observers;
        this.spawnObservers = observers.presence(OnSpawn.class);
        this.despawnObservers = observers.presence(OnDespawn.class);
        this.despawnContext = despawnContext;
    }

    /** A spawn call staged {@code id}. */
    public void spawned(long id) {
        if (spawnObservers.atWorld()) {
            observers.deliver(Entity.WORLD, OnSpawn.class, new OnSpawn(id));
        }
    }

    /**
     * A despawn call staged {@code id}, which was {@code before} in the transaction (a staged spawn has no row to
     * report). The observers at its address are dropped even when one of them throws: the despawn stays staged.
     */
    public void despawned(long id, TxState before) {
        boolean atEntity = despawnObservers.at(id);
        boolean atWorld = despawnObservers.atWorld();
        try {
            if (atEntity || atWorld) {
                int slot = Entity.slot(id);
                Archetype source = before == TxState.STAGED_SPAWN || !index.isAlive(id) ? null
                        : archetypes.ofStore(index.storeOf(slot)).archetype();
                OnDespawn event = new OnDespawn(id, source, source == null ? -1 : index.rowOf(slot), despawnContext);
                RuntimeException atEntityFailure = null;
                if (atEntity) {
                    try {
                        observers.deliver(id, OnDespawn.class, event);
                    } catch (RuntimeException e) {
                        atEntityFailure = e; // the world's observers hear the despawn all the same
                    }
                }
                if (atWorld) {
                    try {
                        observers.deliver(Entity.WORLD, OnDespawn.class, event);
                    } catch (RuntimeException e) {
                        if (atEntityFailure == null) {
                            throw e;
                        }
                        atEntityFailure.addSuppressed(e);
                    }
                }
                if (atEntityFailure != null) {
                    throw atEntityFailure;
                }
            }
        } finally {
            observers.clear(id);
        }
    }

    /** Whether a spawn is told to nobody: no {@code OnSpawn} observer at the world, the one address it goes to. */
    public boolean spawnIsSilent() {
        return !spawnObservers.atWorld();
    }

    /**
     * Whether {@link #despawned} would deliver nothing and clear nothing for any entity: nobody observes
     * {@code OnDespawn} at the world, and nobody observes any entity address.
     */
    public boolean despawnIsSilent() {
        return despawnObservers.silent(); // one field, kept up to date by the registry
    }

    /**
     * A reserved id was released unpublished (a failed or discarded commit): the observers registered at it go,
     * so a later {@code spawnAt} of the same id starts clean.
     */
    public void released(long id) {
        observers.clear(id);
    }

    /** The world cleared its entities: observers at entity addresses go, those at address 0 stay. */
    public void clearEntityAddresses() {
        observers.clearEntityAddresses();
    }

    /** Whether anyone observes despawns (a batch despawn then delivers per member). */
    public boolean anyDespawnObserver() {
        return observers.has(Entity.WORLD, OnDespawn.class) || observers.observedEntityAddresses() > 0;
    }
}
