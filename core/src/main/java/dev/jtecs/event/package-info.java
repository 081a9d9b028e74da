/**
 * Events and observers: callbacks registered at an address (an entity id, or 0 for the world) for one event
 * type. (Per-archetype row notifications are {@code storage.EntityObserver}s: they observe a table, not an
 * address.)
 *
 * <pre>
 *   world.observe(address, OnDespawn.class, e -> ...)      address = entity id, or 0 for the world
 *   spawn(...)   ──► OnSpawn at 0 (during the call, entity still staged)
 *   despawn(id)  ──► OnDespawn at id, then at 0 (entity alive and readable) ──► observers at id cleared
 *   drain        ──► ArchetypeCreated at 0; EntityObserver.onEntitiesAdded/Removed/Move/Activated/Deactivated
 * </pre>
 *
 * <p>Invariants: a delivery iterates a snapshot of the registrations, so observers added or removed by a
 * callback affect only later deliveries; an {@code observeOnce} registration is removed before its callback
 * runs; observers at an entity address never outlive that entity.
 */
package dev.jtecs.event;
