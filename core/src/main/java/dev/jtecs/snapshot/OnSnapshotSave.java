package dev.jtecs.snapshot;

import dev.jtecs.component.Component;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Delivered at address 0 while a snapshot is being saved, after staged work is published and the handlers'
 * values are collected, before any entity is read: observers attach custom data and exclude entities whose
 * data they regenerate after a load.
 */
public final class OnSnapshotSave {
    private final Map<String, Object> data = new LinkedHashMap<>();
    private final List<Component<?>> excluded = new ArrayList<>();
    private final Predicate<String> taken;
    private boolean open = true;

    /** An event for one save; {@code taken} answers whether a key is already in use (the world makes it). */
    public OnSnapshotSave(Predicate<String> taken) {
        this.taken = Objects.requireNonNull(taken, "taken");
    }

    /**
     * Attaches one detached value under a unique key.
     *
     * @throws IllegalArgumentException for an empty key, or one already used (by the options, a handler, another
     *     observer, or the reserved random key)
     */
    public void addData(String key, Object value) {
        Objects.requireNonNull(key, "key");
        checkOpen("addData");
        if (key.isEmpty()) {
            throw new IllegalArgumentException("addData: a key must not be empty");
        }
        if (data.containsKey(key) || taken.test(key)) {
            throw new IllegalArgumentException("addData: key '" + key + "' is already used in this snapshot");
        }
        data.put(key, value);
    }

    /** Leaves every entity carrying {@code component} out of the snapshot (data regenerated after a load). */
    public void exclude(Component<?> component) {
        Objects.requireNonNull(component, "component");
        checkOpen("exclude");
        if (!excluded.contains(component)) {
            excluded.add(component);
        }
    }

    /** What observers attached, in order (the world reads it). */
    public Map<String, Object> data() {
        return Collections.unmodifiableMap(data);
    }

    /** The components whose entities are left out (the world reads it). */
    public List<Component<?>> excluded() {
        return Collections.unmodifiableList(excluded);
    }

    /** Ends the event (the world calls it after delivery). */
    public void close() {
        open = false;
    }

    private void checkOpen(String operation) {
        if (!open) {
            throw new IllegalStateException(operation + ": OnSnapshotSave is over");
        }
    }
}
