package dev.jtecs.stress;

import dev.jtecs.component.BooleanField;
import dev.jtecs.component.ByteField;
import dev.jtecs.component.CharField;
import dev.jtecs.component.Component;
import dev.jtecs.component.DoubleField;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.IntField;
import dev.jtecs.component.LongField;
import dev.jtecs.component.PrimitiveKind;
import dev.jtecs.component.ShortField;
import dev.jtecs.entity.Entity;
import dev.jtecs.world.RowWriter;
import dev.jtecs.world.World;
import java.util.HashMap;
import java.util.Map;

/**
 * The in-place field writes of a model run: {@code world.write}, and a {@link RowWriter} per native component kept
 * for the whole run, either finding a row ({@code at(id).set}) or writing again on the row it found last. What the
 * world must do, read from the reference: a write to a published entity whose committed row holds the component
 * lands in that row now (the reference's committed value changes; staged work applies over it at publication); a
 * dead, stale or malformed id, or an entity without the component, gets {@code IllegalArgumentException}; an
 * entity whose spawn is staged gets {@code IllegalStateException}; a write on the writer's last row gets
 * {@code IllegalStateException} when it found none, or when the component's structure counter moved since it
 * found it, and otherwise lands on that entity. A refused write changes nothing.
 */
final class ModelFieldWrites {
    static final int WRITE = 0;
    static final int ROW = 1;
    static final int AGAIN = 2;
    static final int MODES = 3;

    private final ModelRun run;
    private final Map<Component<?>, RowWriter> writers = new HashMap<>();
    private final Map<Component<?>, Long> rowEntity = new HashMap<>(); // what each writer's at() found last
    private final Map<Component<?>, Long> rowVersion = new HashMap<>(); // the component's counter just after
    private World writersWorld;
    // what the writes met, for the tests that check a sweep exercises every case
    private final long[] landed = new long[MODES];
    private long notLive;
    private long unplaced;
    private long lacking;
    private long expired;
    private long noRow;

    ModelFieldWrites(ModelRun run) {
        this.run = run;
    }

    /** The value of kind {@code kind} that an operation's {@code value} stands for. */
    static Object value(PrimitiveKind kind, int value) {
        return switch (kind) {
            case BYTE -> (byte) value;
            case BOOLEAN -> value % 2 != 0;
            case SHORT -> (short) (value * 100);
            case CHAR -> (char) ('a' + Math.floorMod(value, 26));
            case INT -> value * 1000;
            case FLOAT -> value + 0.5f;
            case LONG -> value * 1_000_000_007L;
            case DOUBLE -> value - 0.25;
        };
    }

    void execute(World world, ModelOp.FieldWrite op) {
        if (world != writersWorld) { // writers belong to one world
            writers.clear();
            rowEntity.clear();
            rowVersion.clear();
            writersWorld = world;
        }
        Component<?> component = op.component();
        String field = component.layout().fieldNames().get(op.field());
        Object value = value(component.layout().fieldKinds().get(op.field()), op.value());
        if (op.mode() == AGAIN) {
            again(world, op, field, value);
            return;
        }
        long id = run.resolve(op.id());
        RowWriter writer = op.mode() == ROW ? writer(world, component) : null;
        Runnable call = writer != null ? () -> set(writer.at(id), op, value) : () -> write(world, id, op, value);
        if (writer != null) {
            rowEntity.put(component, 0L); // a refused at() leaves the writer without a row
        }
        if (!run.model().isKnownLiveOrReserved(id)) {
            run.note("  " + Entity.toString(id) + " is not live: expect rejection");
            notLive++;
            run.expectRejection(world, call);
            return;
        }
        var row = run.model().row(id);
        if (row == null) {
            run.note("  " + Entity.toString(id) + " is staged for spawn: expect IllegalStateException");
            unplaced++;
            refused(world, id, call);
            return;
        }
        if (!row.containsKey(component)) {
            run.note("  " + Entity.toString(id) + " lacks " + component.name() + ": expect rejection");
            lacking++;
            run.expectRejection(world, call);
            return;
        }
        call.run();
        if (writer != null) {
            rowEntity.put(component, id);
            rowVersion.put(component, world.structureVersion(component));
        }
        landed[op.mode()]++;
        landed(world, id, component, field, value);
    }

    /** {@code set} alone on the row the component's writer found last. */
    private void again(World world, ModelOp.FieldWrite op, String field, Object value) {
        Component<?> component = op.component();
        RowWriter writer = writer(world, component);
        long id = rowEntity.getOrDefault(component, 0L);
        Runnable call = () -> set(writer, op, value);
        if (id == 0) {
            run.note("  the writer holds no row: expect IllegalStateException");
            noRow++;
            refused(world, 0, call);
            return;
        }
        if (world.structureVersion(component) != rowVersion.get(component)) {
            run.note("  the row of " + Entity.toString(id) + " expired: expect IllegalStateException");
            expired++;
            refused(world, id, call);
            return;
        }
        run.note("  on the row of " + Entity.toString(id));
        run.check(run.model().has(id, component), "a current row of " + Entity.toString(id) + " without "
                + component.name() + " in the reference");
        call.run();
        landed[AGAIN]++;
        landed(world, id, component, field, value);
    }

    /** Writes that landed in mode {@code mode} ({@link #WRITE}, {@link #ROW}, {@link #AGAIN}). */
    long landed(int mode) {
        return landed[mode];
    }

    /**
     * Writes refused, by reason: {@code notLive} (a dead, stale or malformed id), {@code unplaced} (a staged
     * spawn), {@code lacking} (no such component), {@code expired} (the writer's row), {@code noRow} (the writer
     * found none).
     */
    long refused(String reason) {
        return switch (reason) {
            case "notLive" -> notLive;
            case "unplaced" -> unplaced;
            case "lacking" -> lacking;
            case "expired" -> expired;
            case "noRow" -> noRow;
            default -> throw new IllegalArgumentException(reason);
        };
    }

    private RowWriter writer(World world, Component<?> component) {
        return writers.computeIfAbsent(component, world::rowWriter);
    }

    private void landed(World world, long id, Component<?> component, String field, Object value) {
        run.model().writeField(id, component, field, value);
        run.expectDirty(id, component);
        run.compareEntity(world, id);
    }

    /** The call must throw {@code IllegalStateException} and change nothing. */
    private void refused(World world, long id, Runnable call) {
        int before = world.entityCount();
        boolean pending = world.hasPendingChanges();
        try {
            call.run();
        } catch (IllegalStateException expected) {
            run.check(world.entityCount() == before && world.hasPendingChanges() == pending,
                    "a refused write changed the world");
            if (id != 0 && run.model().row(id) != null) {
                run.compareEntity(world, id);
            }
            return;
        }
        run.fail("expected IllegalStateException from the write");
    }

    private static void write(World world, long id, ModelOp.FieldWrite op, Object value) {
        Component<?> c = op.component();
        int f = op.field();
        switch (c.layout().fieldKinds().get(f)) {
            case BYTE -> world.write(id, new ByteField(c, f), (byte) value);
            case BOOLEAN -> world.write(id, new BooleanField(c, f), (boolean) value);
            case SHORT -> world.write(id, new ShortField(c, f), (short) value);
            case CHAR -> world.write(id, new CharField(c, f), (char) value);
            case INT -> world.write(id, new IntField(c, f), (int) value);
            case FLOAT -> world.write(id, new FloatField(c, f), (float) value);
            case LONG -> world.write(id, new LongField(c, f), (long) value);
            case DOUBLE -> world.write(id, new DoubleField(c, f), (double) value);
        }
    }

    private static void set(RowWriter writer, ModelOp.FieldWrite op, Object value) {
        Component<?> c = op.component();
        int f = op.field();
        switch (c.layout().fieldKinds().get(f)) {
            case BYTE -> writer.set(new ByteField(c, f), (byte) value);
            case BOOLEAN -> writer.set(new BooleanField(c, f), (boolean) value);
            case SHORT -> writer.set(new ShortField(c, f), (short) value);
            case CHAR -> writer.set(new CharField(c, f), (char) value);
            case INT -> writer.set(new IntField(c, f), (int) value);
            case FLOAT -> writer.set(new FloatField(c, f), (float) value);
            case LONG -> writer.set(new LongField(c, f), (long) value);
            case DOUBLE -> writer.set(new DoubleField(c, f), (double) value);
        }
    }
}
