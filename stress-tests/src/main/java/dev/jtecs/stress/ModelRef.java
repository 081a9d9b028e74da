package dev.jtecs.stress;

/**
 * How a recorded operation names an entity id without knowing the ids the world will hand out: by handle (the
 * n-th id bound by a spawning operation), literally, or relative to the ids seen so far. {@link ModelRun}
 * resolves a reference when the operation executes, so a script stays meaningful when the shrinker removes the
 * operation that bound a handle.
 *
 * <p>Invariants: resolution is a pure function of the reference and the ids bound so far; an unbound handle
 * resolves to an id no world of the model ever hands out (a slot beyond {@code maxEntities}).
 */
public sealed interface ModelRef {
    /** The first slot of the ids unbound handles resolve to: beyond any world of the model (1 << 16 entities). */
    int UNBOUND_SLOT = 300_000;

    /** The source of this reference in an emitted test ({@code h(3)}, {@code id(0L)}, ...). */
    String toJava();

    /** The id bound to a handle by the operation that spawned it. */
    record Handle(int handle) implements ModelRef {
        public Handle {
            if (handle < 0) {
                throw new IllegalArgumentException("handle=" + handle + " is negative");
            }
        }

        @Override
        public String toJava() {
            return "h(" + handle + ")";
        }
    }

    /** A literal id: malformed ({@code 0}, {@code -1}) or one no entity was given. */
    record Raw(long id) implements ModelRef {
        @Override
        public String toJava() {
            return "id(" + id + "L)";
        }
    }

    /**
     * The slot of a handle's id with a later generation ({@code generationStep} more), for {@code spawnAt} of a
     * recycled slot; an unbound handle stands for {@code beyond(1, generationStep)}.
     */
    record Revive(int handle, int generationStep) implements ModelRef {
        public Revive {
            if (handle < 0 || generationStep < 0) {
                throw new IllegalArgumentException("handle=" + handle + " generationStep=" + generationStep
                        + " must not be negative");
            }
        }

        @Override
        public String toJava() {
            return "revive(" + handle + ", " + generationStep + ")";
        }
    }

    /** A slot {@code slotStep} past the highest slot seen so far, with this generation. */
    record Beyond(int slotStep, int generation) implements ModelRef {
        public Beyond {
            if (slotStep < 1 || generation < 0) {
                throw new IllegalArgumentException("slotStep=" + slotStep + " must be at least 1 and generation="
                        + generation + " not negative");
            }
        }

        @Override
        public String toJava() {
            return "beyond(" + slotStep + ", " + generation + ")";
        }
    }

    /**
     * In an id array only: the slot of the array's {@code index}-th id (modulo its length) with another
     * generation, so two ids of one call share a slot.
     */
    record SlotOf(int index, int generation) implements ModelRef {
        public SlotOf {
            if (index < 0 || generation < 0) {
                throw new IllegalArgumentException("index=" + index + " generation=" + generation
                        + " must not be negative");
            }
        }

        @Override
        public String toJava() {
            return "slotOf(" + index + ", " + generation + ")";
        }
    }
}
