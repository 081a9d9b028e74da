package dev.jtecs.event;

/**
 * Delivered at address 0 once per entity created by {@code spawn}, {@code spawnAt} or a bundle spawn, during that
 * call, while the entity is still staged: observers may stage more work against it, which the same commit
 * publishes. Batch spawns deliver no {@code OnSpawn}.
 *
 * @param entity the new entity's id
 */
public record OnSpawn(long entity) {}
