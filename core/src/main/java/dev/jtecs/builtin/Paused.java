package dev.jtecs.builtin;

import dev.jtecs.component.Components;
import dev.jtecs.component.TagComponent;

/**
 * Marks an entity whose game logic is suspended (a paused state, say) while it is still drawn: logic queries
 * leave it out unless they name {@code Paused} themselves; render queries keep it.
 */
public final class Paused {
    /** The tag, registered as {@code "Paused"}. */
    public static final TagComponent COMPONENT = Components.tag("Paused");

    private Paused() {}
}
