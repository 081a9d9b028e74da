package dev.jtecs.builtin;

import dev.jtecs.component.Components;
import dev.jtecs.component.ScalarComponent;

/**
 * A durable, unique name for one entity: at most one live entity holds a given key, and {@code World.byKey}
 * finds it. Claiming a key that another entity holds (or has claimed in the open transaction) is rejected at
 * the call, before anything becomes visible. Keys change only through {@code World.set}/{@code remove}; column
 * writes ({@code Archetype.set}, {@code getMut}) are rejected, since they would bypass the index.
 *
 * <p>Registered under the persisted name {@code "Key"}.
 */
public final class EntityKey {
    /** The key component: a string scalar; the empty string is not a valid key. */
    public static final ScalarComponent.OfString COMPONENT = Components.scalar("Key", "");

    private EntityKey() {}
}
