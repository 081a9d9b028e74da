package dev.jtecs.event;

import dev.jtecs.component.Component;
import dev.jtecs.storage.Archetype;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Delivered once per despawned entity, first at the entity's own address and then at address 0, during the
 * {@code despawn} (or batch despawn) call and before the row is removed: the entity is still alive and readable,
 * and {@link #get} reads its committed values. Observers may ask for more despawns with {@link #despawn}; they
 * are staged into the same commit. Observers registered at the entity's address are cleared after this event.
 *
 * <p>For a staged spawn that is cancelled, {@link #source()} is {@code null}, {@link #row()} is -1 and
 * {@link #get} answers {@code null}: the entity never had committed values.
 */
public final class OnDespawn {
    /** What a world does for an {@link OnDespawn}: read committed values and stage further despawns. */
    public interface Context {
        <T> T committedValue(long entity, Component<T> component);

        void despawn(long entity);
    }

    private final long entity;
    private final Archetype source;
    private final int row;
    private final Context context;
    private final List<Long> requested = new ArrayList<>(0);

    public OnDespawn(long entity, Archetype source, int row, Context context) {
        this.entity = entity;
        this.source = source;
        this.row = row;
        this.context = Objects.requireNonNull(context, "context");
    }

    public long entity() {
        return entity;
    }

    /** The entity's committed archetype, or {@code null} when it was never published. */
    public Archetype source() {
        return source;
    }

    /** The entity's committed row before removal, or -1 when it was never published. */
    public int row() {
        return row;
    }

    /** One of the entity's committed values, or {@code null}. */
    public <T> T get(Component<T> component) {
        return source == null ? null : context.committedValue(entity, component);
    }

    /** Stages another entity's despawn into the same commit (its own {@code OnDespawn} follows). */
    public void despawn(long other) {
        context.despawn(other);
        requested.add(other);
    }

    /** The entities observers asked to despawn through this event, in order. */
    public List<Long> requestedDespawns() {
        return Collections.unmodifiableList(requested);
    }

    @Override
    public String toString() {
        return "OnDespawn[entity=" + entity + ", row=" + row + "]";
    }
}
