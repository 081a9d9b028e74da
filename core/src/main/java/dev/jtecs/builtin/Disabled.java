package dev.jtecs.builtin;

import dev.jtecs.component.Components;
import dev.jtecs.component.TagComponent;

/**
 * Marks an entity as switched off: every query leaves it out unless the query names {@code Disabled} itself in
 * its include (or include-any) list.
 */
public final class Disabled {
    /** The tag, registered as {@code "Disabled"}. */
    public static final TagComponent COMPONENT = Components.tag("Disabled");

    private Disabled() {}
}
