package dev.jtecs.component;

/** How a component's values are stored in an archetype. */
public enum StorageKind {
    /** A record of primitive fields: one off-heap column per field. */
    NATIVE,
    /** Any object with reference fields: one heap {@code Object[]} column. */
    MANAGED,
    /** Presence only: no column at all. */
    TAG,
    /** One raw value per row: an off-heap column for numbers and booleans, a heap column for strings. */
    SCALAR
}
