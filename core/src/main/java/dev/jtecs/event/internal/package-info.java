/**
 * Observer registrations of one world, by address and event type ({@link dev.jtecs.event.internal.ObserverRegistry}).
 *
 * <pre>
 *   observe(address, type, callback, id) ─► byAddress[address][type] = copy-on-write array of registrations
 *   deliver(address, type, event)        ─► walk the array as it was ─► observeOnce ones removed before they run
 *   Presence(type)                       ─► "anyone at the world / at this entity?" in one field comparison
 * </pre>
 *
 * <p>Invariants: a delivery sees the registrations it started with; ids are unique per (address, type); an entity
 * address's registrations are dropped when the entity goes. Internal to the core module.
 */
package dev.jtecs.event.internal;
