/**
 * Entity identifiers.
 *
 * <p>An entity is nothing but a packed {@code long}: a slot index into the world's entity table plus the
 * generation the slot had when the entity was created. Holding an id never keeps anything alive and never
 * allocates; comparing the generation is what makes stale handles detectable.
 *
 * <p>Invariants: slot 0 is never an entity (id 0 addresses the world); every valid id is positive; a slot's
 * generation only grows, and a slot whose generation would overflow is retired.
 */
package dev.jtecs.entity;
