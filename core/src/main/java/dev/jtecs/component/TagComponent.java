package dev.jtecs.component;

/**
 * A component that stores nothing: an entity either has it or not. {@code World.get} answers
 * {@link Boolean#TRUE} when present and {@code null} when absent.
 */
public final class TagComponent extends BaseComponent<Boolean> {
    TagComponent(int id, String name, ComponentOptions<Boolean> options) {
        super(id, Boolean.class, options, name);
    }

    @Override
    public StorageKind storage() {
        return StorageKind.TAG;
    }

    @Override
    public ComponentLayout layout() {
        return ComponentLayout.NONE;
    }

    @Override
    public Boolean newDefault() {
        return Boolean.TRUE;
    }
}
