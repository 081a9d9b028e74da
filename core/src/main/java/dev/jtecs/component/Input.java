package dev.jtecs.component;

/**
 * What a mutation receives: either a component definition (which stands for its default value) or a constructed
 * value made with a definition's {@code of(...)}.
 *
 * <p>Inputs are immutable descriptions; passing the same input to many entities shares the value object, so a
 * constructed value should be treated as immutable once handed to the world.
 */
public sealed interface Input permits Component, ComponentValue, RelationshipValue {
    /** The component this input writes. */
    Component<?> component();
}
