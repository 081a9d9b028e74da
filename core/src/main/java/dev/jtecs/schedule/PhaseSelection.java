package dev.jtecs.schedule;

/**
 * What the phase controls accept: one registered {@link Phase} (a leaf or a tree) or a predefined
 * {@link PhaseGroup}.
 */
public sealed interface PhaseSelection permits Phase, PhaseGroup {}
