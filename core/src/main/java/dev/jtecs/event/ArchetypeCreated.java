package dev.jtecs.event;

import dev.jtecs.storage.Archetype;

/**
 * Delivered at address 0 when a world registers a new archetype, before any row is placed in it: the moment to
 * attach {@link dev.jtecs.storage.Archetype#addEntityObserver entity observers}.
 *
 * @param archetype the new, still empty archetype
 */
public record ArchetypeCreated(Archetype archetype) {}
