package dev.jtecs.world;

/**
 * What {@link World#compact()} did.
 *
 * @param pruned the archetypes removed from the registry
 * @param rebuilt the archetypes whose storage was reallocated smaller (a count of stores, not of bytes)
 */
public record CompactResult(int pruned, int rebuilt) {
}
