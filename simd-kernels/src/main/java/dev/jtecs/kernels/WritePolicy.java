package dev.jtecs.kernels;

/** When a kernel's written columns are marked dirty on an archetype it ran on. */
public enum WritePolicy {
    /** Every run writes every row: the written columns are marked whenever the archetype has rows. */
    ALWAYS,
    /**
     * The kernel writes only some rows and reports whether any changed: the written columns are marked only when
     * it did, so a frame in which nothing needed a fix leaves dirty state alone.
     */
    WHEN_CHANGED
}
