package dev.jtecs.stress;

import static dev.jtecs.stress.ReferenceRows.REMOVED;

import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A deliberately naive model of the world's observable behaviour: hash maps of values and an explicit
 * per-entity transaction state, written from the rules of the mutation model rather than from the engine's code.
 *
 * <p>It does not allocate ids: callers tell it which id the world returned (ids are the world's business), and
 * it predicts everything observable about them: liveness, component values, write-through and staged values,
 * lifecycle events. Staged entries are replayed in staging order at publication, requirements included
 * ({@link ReferenceRows#replay}).
 */
public final class ReferenceWorld {
    private enum State { SPAWN, MUTATE, DESPAWN, CANCELLED }

    private final Map<Long, Map<Component<?>, Object>> committed = new LinkedHashMap<>();
    private final Map<Long, State> states = new LinkedHashMap<>();
    private final Map<Long, Map<Component<?>, Object>> staged = new HashMap<>();
    private final Set<Long> observed = new HashSet<>();
    private final List<String> events = new ArrayList<>();

    /** Records a spawn the world answered with {@code id}. */
    public void spawn(long id, Input... inputs) {
        events.add("OnSpawn " + id);
        states.put(id, State.SPAWN);
        Map<Component<?>, Object> shape = new LinkedHashMap<>();
        for (Input input : inputs) {
            shape.put(input.component(), ReferenceRows.valueOf(input));
        }
        staged.put(id, shape);
    }

    /** Whether the id is live or staged-spawned, i.e. whether mutations of it are legal. */
    public boolean isKnownLiveOrReserved(long id) {
        return committed.containsKey(id) || states.get(id) == State.SPAWN || states.get(id) == State.CANCELLED;
    }

    /** Registers an observer of {@code OnDespawn} at the entity's address (cleared by its despawn). */
    public void observe(long id) {
        observed.add(id);
    }

    public void set(long id, Input input) {
        State state = states.get(id);
        Object value = ReferenceRows.valueOf(input);
        if (state == null) {
            Map<Component<?>, Object> row = committed.get(id);
            if (row.containsKey(input.component())) {
                row.put(input.component(), value); // write-through
                return;
            }
            states.put(id, State.MUTATE);
            staged.put(id, new LinkedHashMap<>());
            state = State.MUTATE;
        }
        if (state == State.SPAWN || state == State.MUTATE) {
            staged.get(id).put(input.component(), value);
        }
    }

    public void remove(long id, Component<?> component) {
        State state = states.get(id);
        if (state == null) {
            if (committed.get(id).containsKey(component)) {
                states.put(id, State.MUTATE);
                Map<Component<?>, Object> changes = new LinkedHashMap<>();
                changes.put(component, REMOVED);
                staged.put(id, changes);
            }
            return;
        }
        if (state == State.SPAWN) {
            staged.get(id).remove(component);
        } else if (state == State.MUTATE) {
            staged.get(id).put(component, REMOVED);
        }
    }

    public void despawn(long id) {
        State state = states.get(id);
        if (state == null || state == State.MUTATE) {
            states.put(id, State.DESPAWN);
            staged.remove(id);
            despawned(id);
        } else if (state == State.SPAWN) {
            states.put(id, State.CANCELLED);
            staged.remove(id);
            despawned(id);
        }
    }

    /**
     * The lifecycle events so far: {@code OnSpawn id} at each spawn; at each despawn {@code OnDespawn@ id} (the
     * entity's own address, when observed) then {@code OnDespawn id}.
     */
    public List<String> events() {
        return events;
    }

    public void commit() {
        for (Map.Entry<Long, State> entry : states.entrySet()) {
            long id = entry.getKey();
            switch (entry.getValue()) {
                case DESPAWN -> committed.remove(id);
                case CANCELLED -> { }
                case SPAWN -> committed.put(id, ReferenceRows.replay(Map.of(), staged.get(id)));
                case MUTATE -> committed.put(id, ReferenceRows.replay(committed.get(id), staged.get(id)));
            }
        }
        states.clear();
        staged.clear();
    }

    public boolean isAlive(long id) {
        return committed.containsKey(id);
    }

    /** The visible value of a component (committed state plus write-throughs), or {@code null}. */
    public Object get(long id, Component<?> component) {
        Map<Component<?>, Object> row = committed.get(id);
        return row == null ? null : row.get(component);
    }

    /** Whether a published entity has the component (its value may be {@code null}). */
    public boolean has(long id, Component<?> component) {
        Map<Component<?>, Object> row = committed.get(id);
        return row != null && row.containsKey(component);
    }

    /** The committed row of a live entity (read it, do not change it), or {@code null}. */
    Map<Component<?>, Object> row(long id) {
        return committed.get(id);
    }

    /** Every live entity with its committed row (read them, do not change them). */
    Map<Long, Map<Component<?>, Object>> rows() {
        return committed;
    }

    public int aliveCount() {
        return committed.size();
    }

    public List<Long> aliveIds() {
        return new ArrayList<>(committed.keySet());
    }

    public boolean hasPending() {
        return !states.isEmpty();
    }

    private void despawned(long id) {
        if (observed.remove(id)) {
            events.add("OnDespawn@ " + id);
        }
        events.add("OnDespawn " + id);
    }
}
