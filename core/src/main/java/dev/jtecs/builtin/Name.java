package dev.jtecs.builtin;

import dev.jtecs.component.Components;
import dev.jtecs.component.ScalarComponent;

/**
 * A human-readable label for debugging and tools: neither unique nor indexed (use {@link EntityKey} for
 * lookups). Registered under the persisted name {@code "Name"}.
 */
public final class Name {
    /** The name component: a string scalar, empty by default. */
    public static final ScalarComponent.OfString COMPONENT = Components.scalar("Name", "");

    private Name() {}
}
