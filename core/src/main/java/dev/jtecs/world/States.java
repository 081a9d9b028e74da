package dev.jtecs.world;

import dev.jtecs.builtin.Disabled;
import dev.jtecs.builtin.Paused;
import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.Input;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.event.StateBlur;
import dev.jtecs.event.StateEnter;
import dev.jtecs.event.StateExit;
import dev.jtecs.event.StateFocus;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.state.StateOperation;
import dev.jtecs.state.StatePolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A world's states: the states created in it (name, tag, policy) and the stack of active ones, whose top is the
 * state that spawn paths tag new entities with.
 *
 * <p>A transition either is refused before anything changes (bad name, empty stack, another transition running,
 * or a failure publishing the pending work at its first barrier) or completes: once the stack is about to change,
 * an exception from a policy operation or a state event observer is held, the remaining steps run, and the first
 * one is thrown (the others suppressed) when the transition has ended. Undoing instead is not possible in general:
 * an operation may have despawned entities.
 *
 * <p>A transition ({@link #push}, {@link #pop}) runs in this order, and no other transition may start until it
 * ends:
 *
 * <pre>
 *   push(N): barrier ─► N on top ─► [covered C: C.onBlur, barrier, StateBlur(C, N)] ─► N.onEnter, barrier, StateEnter(N)
 *   pop():   barrier ─► StateExit(T) ─► T.onExit, barrier ─► T off the stack ─► [uncovered U: U.onFocus, barrier, StateFocus(U, T)]
 * </pre>
 *
 * A barrier publishes pending work unless a scope other than a running dispatch's hold is open (an explicit
 * {@code defer()}, an iteration, the drain); inside such a scope the operations stay staged like any bulk call.
 *
 * @implNote An operation is one scope of bulk calls over temporary queries of the state's tag: one query
 *     without {@code Disabled} and one with it, so that the automatic {@code Disabled} exclusion of queries does
 *     not hide any of the state's entities; the second call runs even when the first throws. States whose tag no
 *     archetype holds skip the queries.
 */
final class States {
    /** What a state's tag is named after: {@code "state:" + name}. */
    static final String TAG_PREFIX = "state:";

    /** One created state. */
    private record State(String name, TagComponent tag, StatePolicy policy) {}

    private final World world;
    private final Map<String, State> created = new LinkedHashMap<>();
    private final ArrayList<State> stack = new ArrayList<>();
    private TagComponent activeTag; // the top's tag; null while the stack is empty
    private String changing;        // the transition running now, for error messages; null when none

    States(World world) {
        this.world = world;
    }

    TagComponent create(String name, StatePolicy policy) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(policy, "policy");
        if (name.isBlank()) {
            throw new IllegalArgumentException("createState: a state name must not be blank, got \"" + name + "\"");
        }
        State existing = created.get(name);
        if (existing != null) {
            throw new IllegalArgumentException("createState(" + name + "): the state already exists in this world "
                    + "(tag " + existing.tag().name() + ", " + existing.policy() + ")");
        }
        TagComponent tag = Components.tag(TAG_PREFIX + name); // may throw on a name clash: nothing added yet
        created.put(name, new State(name, tag, policy));
        return tag;
    }

    void push(String name) {
        Objects.requireNonNull(name, "name");
        String operation = "pushState(" + name + ")";
        checkIdle(operation);
        State pushed = require(name, operation);
        if (stack.contains(pushed)) {
            throw new IllegalArgumentException(operation + ": the state is already on the stack " + list());
        }
        changing = operation;
        Throwable failed = null;
        try {
            world.publishUnlessScoped(); // entities spawned into the covered state so far are blurred with it
            State covered = top();
            stack.add(pushed); // from here on the transition completes, whatever throws: see rethrow
            activeTag = pushed.tag();
            if (covered != null) {
                failed = step(failed, () -> apply(covered, covered.policy().onBlur()));
                if (world.hasObservers(Entity.WORLD, StateBlur.class)) {
                    failed = step(failed, () -> world.emit(Entity.WORLD, new StateBlur(covered.name(), name)));
                }
            }
            failed = step(failed, () -> apply(pushed, pushed.policy().onEnter()));
            if (world.hasObservers(Entity.WORLD, StateEnter.class)) {
                failed = step(failed, () -> world.emit(Entity.WORLD, new StateEnter(name)));
            }
        } finally {
            changing = null;
        }
        rethrow(failed);
    }

    void pop() {
        checkIdle("popState()");
        if (stack.isEmpty()) {
            throw new IllegalStateException("popState(): the state stack is empty (created states: "
                    + created.keySet() + ")");
        }
        changing = "popState()";
        Throwable failed = null;
        try {
            world.publishUnlessScoped();
            State leaving = top(); // from here on the transition completes, whatever throws: see rethrow
            if (world.hasObservers(Entity.WORLD, StateExit.class)) {
                failed = step(failed, () -> world.emit(Entity.WORLD, new StateExit(leaving.name())));
            }
            failed = step(failed, () -> apply(leaving, leaving.policy().onExit()));
            stack.removeLast();
            State uncovered = top();
            activeTag = uncovered == null ? null : uncovered.tag();
            if (uncovered != null) {
                failed = step(failed, () -> apply(uncovered, uncovered.policy().onFocus()));
                if (world.hasObservers(Entity.WORLD, StateFocus.class)) {
                    failed = step(failed,
                            () -> world.emit(Entity.WORLD, new StateFocus(uncovered.name(), leaving.name())));
                }
            }
        } finally {
            changing = null;
        }
        rethrow(failed);
    }

    /**
     * Runs one step of a transition that has begun (a policy operation or an event), and returns the first failure
     * so far: a step that throws does not stop the transition, whose later steps still run, so the stack, the
     * active tag and every policy operation end as a transition without failures leaves them.
     */
    private static Throwable step(Throwable failed, Runnable step) {
        try {
            step.run();
        } catch (RuntimeException | Error e) {
            if (failed == null) {
                return e;
            }
            if (e != failed) {
                failed.addSuppressed(e);
            }
        }
        return failed;
    }

    /** Runs both halves of an operation; the first failure propagates after both ran, a later one suppressed. */
    private static void both(Runnable first, Runnable second) {
        rethrow(step(step(null, first), second));
    }

        /** Throws the first failure of a completed transition (the later ones suppressed), if any. */
    private static void rethrow(Throwable failed) {
        if (failed instanceof RuntimeException e) {
            throw e;
        }
        if (failed instanceof Error e) {
            throw e;
        }
    }

    /** Whether a state of this name was created here. */
    boolean has(String name) {
        return created.containsKey(name);
    }

    /**
     * Replaces the stack with these created states, bottom first (a snapshot load): no policy runs and no event
     * is delivered, since the loaded entities already carry what the transitions did to them. The load refused a
     * call during a transition ({@link #checkIdle}) before it replaced anything.
     */
    void restore(List<String> names) {
        List<State> restored = new ArrayList<>(names.size());
        for (String name : names) {
            restored.add(require(name, "loadSnapshot"));
        }
        stack.ensureCapacity(restored.size()); // the room first: a failure leaves the stack and its tag as they were
        stack.clear();
        stack.addAll(restored);
        State top = top();
        activeTag = top == null ? null : top.tag();
    }

    /** The active state's name, or {@code null} while the stack is empty. */
    String peek() {
        State top = top();
        return top == null ? null : top.name();
    }

    /** The stack's names, bottom first (the active state last). */
    List<String> list() {
        List<String> names = new ArrayList<>(stack.size());
        for (State state : stack) {
            names.add(state.name());
        }
        return List.copyOf(names);
    }

    /** The tag spawn paths add: the active state's, or {@code null} while the stack is empty. */
    TagComponent activeTag() {
        return activeTag;
    }

    private State top() {
        return stack.isEmpty() ? null : stack.getLast();
    }

    private State require(String name, String operation) {
        State state = created.get(name);
        if (state == null) {
            throw new IllegalArgumentException(operation + ": no state of that name was created in this world "
                    + "(created: " + created.keySet() + ")");
        }
        return state;
    }

    /** Refuses {@code operation} while a transition runs (from a state event observer or a policy's effects). */
    void checkIdle(String operation) {
        if (changing != null) {
            throw new IllegalStateException(operation + ": not allowed while " + changing
                    + " runs (from a state event observer or a policy's effects); change states from a system or"
                    + " after the transition returns");
        }
    }

    /** Runs one policy operation over every published entity carrying the state's tag, then a barrier. */
    private void apply(State state, StateOperation operation) {
        if (operation == StateOperation.NONE || world.findArchetypes(state.tag()).isEmpty()) {
            return;
        }
        TagComponent tag = state.tag();
        TagComponent disabled = Disabled.COMPONENT;
        TagComponent paused = Paused.COMPONENT;
        // an operation over enabled and disabled entities is two bulk calls; the second runs even when the first
        // throws (an OnDespawn observer of a batch despawn, say), so no half of the state's entities is left out
        world.inScope(() -> {
            switch (operation) {
                case PAUSE -> both( // the entities without Paused, enabled or not
                        () -> world.batchSet(select(new Component<?>[] {tag}, paused), paused),
                        () -> world.batchSet(select(new Component<?>[] {tag, disabled}, paused), paused));
                case RESUME -> both(
                        () -> world.batchRemove(select(new Component<?>[] {tag, paused}, null), paused),
                        () -> world.batchRemove(select(new Component<?>[] {tag, paused, disabled}, null), paused));
                case DISABLE -> world.batchSet(select(new Component<?>[] {tag}, null), disabled); // Disabled excluded
                case ENABLE -> world.batchRemove(select(new Component<?>[] {tag, disabled}, null), disabled);
                case DESPAWN -> both(
                        () -> world.batchDespawn(select(new Component<?>[] {tag}, null)),
                        () -> world.batchDespawn(select(new Component<?>[] {tag, disabled}, null)));
                case NONE -> throw new AssertionError("NONE returns early");
            }
        });
        world.publishUnlessScoped();
    }

    /** A temporary plain query: every component of {@code include}, without {@code exclude} when given. */
    private Query select(Component<?>[] include, Component<?> exclude) {
        QueryDescriptor.Builder builder = QueryDescriptor.builder().include(include).temp();
        if (exclude != null) {
            builder.exclude(exclude);
        }
        return world.newQuery(builder.build());
    }
}
