package dev.jtecs.snapshot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Delivered at address 0 once a snapshot has been validated and before the world changes: observers read the
 * prelude and subscribe to custom data keys for this load only. An observer that throws aborts the load with
 * nothing changed.
 */
public final class StartSnapshotLoad {
    private final SnapshotPrelude prelude;
    private final Map<String, List<Consumer<Object>>> listeners = new LinkedHashMap<>();
    private boolean open = true;

    /** An event for one load (the world makes it). */
    public StartSnapshotLoad(SnapshotPrelude prelude) {
        this.prelude = Objects.requireNonNull(prelude, "prelude");
    }

    public SnapshotPrelude prelude() {
        return prelude;
    }

    /**
     * Subscribes to one custom data key: {@code callback} receives its value once the entities and random
     * streams are restored (after the handler of that name, if any). Listeners of one key run in subscription
     * order; a key the snapshot lacks calls nothing.
     *
     * @throws IllegalArgumentException for an empty key
     * @throws IllegalStateException once the event's delivery is over
     */
    public void onData(String key, Consumer<Object> callback) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(callback, "callback");
        if (key.isEmpty()) {
            throw new IllegalArgumentException("onData: a key must not be empty");
        }
        if (!open) {
            throw new IllegalStateException("onData(" + key + "): subscribe while StartSnapshotLoad is delivered");
        }
        listeners.computeIfAbsent(key, k -> new ArrayList<>()).add(callback);
    }

    /** The listeners of one key, in subscription order (the world reads them). */
    public List<Consumer<Object>> listeners(String key) {
        List<Consumer<Object>> found = listeners.get(key);
        return found == null ? List.of() : List.copyOf(found);
    }

    /** Ends subscription (the world calls it after delivery). */
    public void close() {
        open = false;
    }

    @Override
    public String toString() {
        return "StartSnapshotLoad[" + prelude.entityCount() + " entities, keys=" + listeners.keySet() + "]";
    }
}
