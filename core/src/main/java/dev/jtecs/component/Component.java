package dev.jtecs.component;

import java.util.List;

/**
 * A registered component definition. As an {@link Input} a definition stands for its default value.
 *
 * <p>Definitions are process-wide: ids and names are assigned once by {@link Components} and are the same for
 * every world. Two definitions are the same component exactly when they are the same object.
 *
 * @param <T> the value type that {@code World.get} returns
 */
public sealed interface Component<T> extends Input permits BaseComponent {

    /** The process-wide id, in {@code 1..Components.MAX_COMPONENT_ID}. */
    int id();

    /** The persisted name: the canonical class name unless an explicit name pinned it. */
    String name();

    StorageKind storage();

    /** Whether snapshots omit this component's values. */
    boolean isTransient();

    /** The class of the values {@code World.get} returns. */
    Class<T> valueType();

    /** The columns this component occupies in an archetype. */
    ComponentLayout layout();

    /** The inputs an entity receives along with this component (defaults apply unless the caller supplied them). */
    List<Input> requires();

    /** A fresh default value, produced by the registered factory when there is one. */
    T newDefault();

    @Override
    default Component<?> component() {
        return this;
    }
}
