package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.ACTIVE;
import static dev.jtecs.stress.ModelComponents.HEALTH;
import static dev.jtecs.stress.ModelComponents.LABEL;
import static dev.jtecs.stress.ModelComponents.LEVEL;
import static dev.jtecs.stress.ModelComponents.NAME;
import static dev.jtecs.stress.ModelComponents.POSITION;
import static dev.jtecs.stress.ModelComponents.SCORE;
import static dev.jtecs.stress.ModelComponents.STATS;
import static dev.jtecs.stress.ModelComponents.VELOCITY;

import dev.jtecs.component.BooleanField;
import dev.jtecs.component.Component;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.IntField;
import dev.jtecs.component.LongField;
import dev.jtecs.entity.Entity;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.BooleanColumn;
import dev.jtecs.storage.DoubleColumn;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.storage.IntColumn;
import dev.jtecs.storage.LongColumn;
import dev.jtecs.storage.ObjectColumn;
import dev.jtecs.stress.ModelComponents.Label;
import dev.jtecs.stress.ModelComponents.Position;
import dev.jtecs.stress.ModelComponents.Stats;
import dev.jtecs.stress.ModelComponents.Velocity;
import dev.jtecs.mutation.BatchCallback;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * The writers the model hands to batch calls (spawn initializers, {@code batchSet} writers): each rewrites a
 * component as a pure function of the entity id and the current value, so the reference replays on values
 * ({@link #rewrite}) what the world does on columns ({@link #writer}). The world's callback sees rows, not ids:
 * it reads the id of each row from the archetype.
 *
 * <p>A label is written only for entities in even slots, so an untouched managed value that started empty
 * must still read {@code null}.
 */
public final class ModelRewrites {
    private static final FloatField PX = POSITION.floatField("x");
    private static final FloatField PY = POSITION.floatField("y");
    private static final BooleanField FLAG = STATS.booleanField("flag");
    private static final IntField SI = STATS.intField("i");
    private static final LongField SL = STATS.longField("l");
    private static final FloatField DX = VELOCITY.floatField("dx");
    private static final FloatField DY = VELOCITY.floatField("dy");

    private ModelRewrites() {}

    /** The value {@link #writer} leaves in a component of entity {@code id} that held {@code old}. */
    public static Object rewrite(Component<?> component, long id, Object old) {
        int slot = Entity.slot(id);
        int generation = Entity.generation(id);
        if (component == POSITION) {
            Position p = (Position) old;
            return new Position(p.x() + 1f, (float) (slot % 97));
        }
        if (component == STATS) {
            Stats s = (Stats) old;
            return new Stats(s.b(), !s.flag(), s.s(), s.c(), s.i() + slot, id, s.f(), s.d());
        }
        if (component == VELOCITY) {
            Velocity v = (Velocity) old;
            return new Velocity(v.dx() * 2f, v.dy() - generation);
        }
        if (component == LABEL) {
            return slot % 2 == 0 ? label(slot, generation) : old;
        }
        if (component == HEALTH) {
            return (Double) old + slot % 10;
        }
        if (component == NAME) {
            return name(slot, generation);
        }
        if (component == LEVEL) {
            return (Integer) old * 3 + 1;
        }
        if (component == SCORE) {
            return (Long) old ^ id;
        }
        if (component == ACTIVE) {
            return !(Boolean) old;
        }
        return old; // a tag: nothing to write
    }

    /** A callback that rewrites one component on every row it is given. */
    public static BatchCallback writer(Component<?> component) {
        return (archetype, fromRow, toRow) -> {
            for (int row = fromRow; row < toRow; row++) {
                write(archetype, component, row);
            }
        };
    }

    /** A spawn initializer that rewrites each listed component its archetype has. */
    public static BatchCallback initializer(List<Component<?>> components) {
        return (archetype, fromRow, toRow) -> {
            for (Component<?> component : components) {
                if (archetype.has(component)) {
                    for (int row = fromRow; row < toRow; row++) {
                        write(archetype, component, row);
                    }
                }
            }
        };
    }

    /**
     * A restoration initializer: rewrites like {@link #initializer}, then writes each row's {@code EntityKey}
     * as {@code keys} says ({@code null}: the row's key is left as planned).
     */
    public static BatchCallback keyedInitializer(List<Component<?>> components, LongFunction<String> keys) {
        BatchCallback rewrites = initializer(components);
        return (archetype, fromRow, toRow) -> {
            rewrites.rows(archetype, fromRow, toRow);
            if (keys == null) {
                return;
            }
            ObjectColumn<String> column = archetype.getMut(ModelComponents.KEY);
            for (int row = fromRow; row < toRow; row++) {
                String key = keys.apply(archetype.entity(row));
                if (key != null) {
                    column.set(row, key);
                }
            }
        };
    }

    /**
     * A callback that behaves like its delegate for its first {@code failAt} calls and throws on the next one,
     * remembering the ids of the rows each call was given: the reference replays exactly what the world ran.
     */
    public static final class Failing implements BatchCallback {
        /** The message of the exception the failing call throws. */
        public static final String MESSAGE = "model: callback fails on purpose";

        private final BatchCallback delegate;
        private final int failAt;
        private final Set<Long> completed = new HashSet<>();
        private final Set<Long> failedRows = new HashSet<>();
        private int calls;

        public Failing(BatchCallback delegate, int failAt) {
            this.delegate = delegate;
            this.failAt = failAt;
        }

        @Override
        public void rows(Archetype archetype, int fromRow, int toRow) {
            boolean fail = calls++ == failAt;
            for (int row = fromRow; row < toRow; row++) {
                (fail ? failedRows : completed).add(archetype.entity(row));
            }
            if (fail) {
                throw new IllegalStateException(MESSAGE);
            }
            if (delegate != null) {
                delegate.rows(archetype, fromRow, toRow);
            }
        }

        /** Whether the failing call happened. */
        public boolean failed() {
            return calls > failAt;
        }

        /** The ids whose rows a call that returned normally was given. */
        public Set<Long> completed() {
            return completed;
        }

        /** The ids whose rows the failing call was given (it threw before writing any). */
        public Set<Long> failedRows() {
            return failedRows;
        }
    }

    private static void write(Archetype archetype, Component<?> component, int row) {
        long id = archetype.entity(row);
        int slot = Entity.slot(id);
        int generation = Entity.generation(id);
        if (component == POSITION) {
            FloatColumn x = archetype.getMut(PX);
            x.set(row, x.get(row) + 1f);
            archetype.getMut(PY).set(row, (float) (slot % 97));
        } else if (component == STATS) {
            BooleanColumn flag = archetype.getMut(FLAG);
            flag.set(row, !flag.get(row));
            IntColumn i = archetype.getMut(SI);
            i.set(row, i.get(row) + slot);
            archetype.getMut(SL).set(row, id);
        } else if (component == VELOCITY) {
            FloatColumn dx = archetype.getMut(DX);
            dx.set(row, dx.get(row) * 2f);
            FloatColumn dy = archetype.getMut(DY);
            dy.set(row, dy.get(row) - generation);
        } else if (component == LABEL) {
            if (slot % 2 == 0) {
                archetype.getMut(LABEL).set(row, label(slot, generation));
            }
        } else if (component == HEALTH) {
            DoubleColumn health = archetype.getMut(HEALTH);
            health.set(row, health.get(row) + slot % 10);
        } else if (component == NAME) {
            ObjectColumn<String> name = archetype.getMut(NAME);
            name.set(row, name(slot, generation));
        } else if (component == LEVEL) {
            IntColumn level = archetype.getMut(LEVEL);
            level.set(row, level.get(row) * 3 + 1);
        } else if (component == SCORE) {
            LongColumn score = archetype.getMut(SCORE);
            score.set(row, score.get(row) ^ id);
        } else if (component == ACTIVE) {
            BooleanColumn active = archetype.getMut(ACTIVE);
            active.set(row, !active.get(row));
        }
    }

    private static Label label(int slot, int generation) {
        return new Label("w" + slot, List.of("g" + generation));
    }

    private static String name(int slot, int generation) {
        return "n" + slot + "." + generation;
    }
}
