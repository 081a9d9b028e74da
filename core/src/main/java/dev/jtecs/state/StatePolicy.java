package dev.jtecs.state;

import java.util.Objects;

/**
 * What a world does to a state's entities when the state changes place on the stack: on {@code enter} (pushed),
 * {@code exit} (popped), {@code blur} (another state pushed on top of it) and {@code focus} (on top again after
 * the state above it was popped). Immutable; every operation is non-null, {@link StateOperation#NONE} meaning
 * nothing happens.
 *
 * <p>The common shapes have factories ({@link #pauseOnBlur()}, {@link #disableOnBlur()},
 * {@link #despawnOnExit()}, {@link #disableOnExit()}); anything else comes from {@link #builder()}, for example
 * a level that pauses under a menu and is cleared away when left:
 * {@code StatePolicy.pauseOnBlur().toBuilder().onExit(StateOperation.DESPAWN).build()}.
 *
 * @param onEnter applied right after the state is pushed
 * @param onExit applied right before the state is popped
 * @param onBlur applied when another state is pushed on top of this one
 * @param onFocus applied when this state is on top again
 */
public record StatePolicy(StateOperation onEnter, StateOperation onExit, StateOperation onBlur,
        StateOperation onFocus) {
    private static final StatePolicy NONE = builder().build();
    private static final StatePolicy PAUSE_ON_BLUR =
            builder().onBlur(StateOperation.PAUSE).onFocus(StateOperation.RESUME).build();
    private static final StatePolicy DISABLE_ON_BLUR =
            builder().onBlur(StateOperation.DISABLE).onFocus(StateOperation.ENABLE).build();
    private static final StatePolicy DESPAWN_ON_EXIT = builder().onExit(StateOperation.DESPAWN).build();
    private static final StatePolicy DISABLE_ON_EXIT =
            builder().onEnter(StateOperation.ENABLE).onExit(StateOperation.DISABLE).build();

    public StatePolicy {
        Objects.requireNonNull(onEnter, "onEnter");
        Objects.requireNonNull(onExit, "onExit");
        Objects.requireNonNull(onBlur, "onBlur");
        Objects.requireNonNull(onFocus, "onFocus");
    }

    /** Does nothing at any transition: the state only tags its entities and gates {@code RunIf.inState}. */
    public static StatePolicy none() {
        return NONE;
    }

    /**
     * Pauses the state's entities while another state is on top of it and resumes them when it is on top again:
     * a game under a pause menu, still drawn but not simulated.
     */
    public static StatePolicy pauseOnBlur() {
        return PAUSE_ON_BLUR;
    }

    /**
     * Disables the state's entities while another state is on top of it and enables them when it is on top
     * again: a screen hidden under a full-screen one.
     */
    public static StatePolicy disableOnBlur() {
        return DISABLE_ON_BLUR;
    }

    /** Despawns the state's entities when it is popped: a menu built on entry and thrown away on exit. */
    public static StatePolicy despawnOnExit() {
        return DESPAWN_ON_EXIT;
    }

    /**
     * Disables the state's entities when it is popped and enables them when it is pushed again: a screen built
     * once and kept, switched off while it is off the stack.
     */
    public static StatePolicy disableOnExit() {
        return DISABLE_ON_EXIT;
    }

    /** A builder with every operation {@link StateOperation#NONE}. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this policy's operations. */
    public Builder toBuilder() {
        return new Builder().onEnter(onEnter).onExit(onExit).onBlur(onBlur).onFocus(onFocus);
    }

    /** Collects the four operations of a custom policy; unset ones stay {@link StateOperation#NONE}. */
    public static final class Builder {
        private StateOperation onEnter = StateOperation.NONE;
        private StateOperation onExit = StateOperation.NONE;
        private StateOperation onBlur = StateOperation.NONE;
        private StateOperation onFocus = StateOperation.NONE;

        private Builder() {}

        public Builder onEnter(StateOperation operation) {
            this.onEnter = Objects.requireNonNull(operation, "onEnter");
            return this;
        }

        public Builder onExit(StateOperation operation) {
            this.onExit = Objects.requireNonNull(operation, "onExit");
            return this;
        }

        public Builder onBlur(StateOperation operation) {
            this.onBlur = Objects.requireNonNull(operation, "onBlur");
            return this;
        }

        public Builder onFocus(StateOperation operation) {
            this.onFocus = Objects.requireNonNull(operation, "onFocus");
            return this;
        }

        public StatePolicy build() {
            return new StatePolicy(onEnter, onExit, onBlur, onFocus);
        }
    }
}
