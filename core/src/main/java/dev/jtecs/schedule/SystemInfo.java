package dev.jtecs.schedule;

/**
 * One registered system as {@code listSystems} reports it: a detached value that later changes do not affect.
 *
 * @param name the unique registered name
 * @param phase the leaf phase that runs it
 * @param order its index in the listing: phases in registry order, systems in dispatch order within each
 * @param enabled whether it runs when its phase is dispatched
 * @param hasRunIf whether a predicate gates it
 */
public record SystemInfo(String name, Phase phase, int order, boolean enabled, boolean hasRunIf) {}
