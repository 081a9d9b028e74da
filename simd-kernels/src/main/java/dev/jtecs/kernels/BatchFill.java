package dev.jtecs.kernels;

import dev.jtecs.component.FloatField;
import dev.jtecs.random.Xoshiro128;
import dev.jtecs.storage.Archetype;
import dev.jtecs.mutation.BatchCallback;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A batch callback that fills float fields of the rows it is given with the {@link FillOps} kernels: a constant, an
 * arithmetic range over the batch, or seeded uniform random values. Pass it as the initializer of
 * {@code World.batchSpawn} (or as the writer of any batch call that takes a {@link BatchCallback}): core calls it
 * once per batch with the placed rows {@code [fromRow, toRow)}, and it fills each declared field in declaration
 * order, taking the column with {@code getMut}.
 *
 * <pre>
 *   BatchFill.builder().constant(SIZE, 2f).range(X, 0f, 0.5f).uniform(VX, -1f, 1f, world.randomStream("spray"))
 *   rows(archetype, from, to):  check every field's component is there  (else throw; nothing drawn or written)
 *       SIZE[from..to) = 2f
 *       X[from + i]    = 0f + (float) i * 0.5f               i = 0 .. to - from - 1
 *       key            = spray.nextLong()                    one draw per uniform field per call
 *       VX[row]        = ScalarFillOps.uniform(key, row, -1f, 1f)  row: the archetype row itself
 * </pre>
 *
 * <p>Determinism: the values depend only on the declared arguments, the rows, and the streams' states, never on
 * the implementation that runs (vector or scalar) or on how a range is cut, so the same world seed and the same
 * operations give the same columns byte for byte. A uniform fill draws its key from its stream once per call and
 * keys the counter-based generator of {@link ScalarFillOps} with it and the absolute row number; a later batch draws
 * a fresh key, so batches never repeat each other's values even where they land on the same rows.
 *
 * <p>A call allocates nothing per entity (a column view per field); it is not thread-safe, like the world that
 * calls it.
 */
public final class BatchFill implements BatchCallback {
    private static final byte CONSTANT = 0;
    private static final byte RANGE = 1;
    private static final byte UNIFORM = 2;

    private final FillOps ops;
    private final FloatField[] fields;
    private final byte[] kinds;
    private final float[] first;
    private final float[] second;
    private final Xoshiro128[] streams;

    private BatchFill(Builder builder) {
        this.ops = builder.ops;
        int n = builder.fields.size();
        this.fields = builder.fields.toArray(FloatField[]::new);
        this.kinds = new byte[n];
        this.first = new float[n];
        this.second = new float[n];
        this.streams = builder.streams.toArray(Xoshiro128[]::new);
        for (int i = 0; i < n; i++) {
            kinds[i] = builder.kinds.get(i);
            first[i] = builder.first.get(i);
            second[i] = builder.second.get(i);
        }
    }

    /** A builder whose fills run {@link KernelProvider#fills()}. */
    public static Builder builder() {
        return new Builder(KernelProvider.fills());
    }

    /** A builder whose fills run {@code ops} ({@link FillOps#SCALAR} or the provider's). */
    public static Builder builder(FillOps ops) {
        return new Builder(Objects.requireNonNull(ops, "ops"));
    }

    /**
     * Fills every declared field on rows {@code [fromRow, toRow)} of {@code archetype}.
     *
     * @throws IllegalArgumentException when the archetype lacks a declared field's component, or the rows are not
     *     within its columns; checked before any key is drawn or any row written
     */
    @Override
    public void rows(Archetype archetype, int fromRow, int toRow) {
        for (FloatField field : fields) {
            if (!archetype.has(field.component())) {
                throw new IllegalArgumentException("archetype " + archetype + " has no column " + field.name() + " of "
                        + field.component().name() + " to fill");
            }
        }
        if (fromRow < 0 || fromRow > toRow || toRow > archetype.capacityRows()) {
            throw new IllegalArgumentException("rows [fromRow=" + fromRow + ", toRow=" + toRow + ") outside the "
                    + archetype.capacityRows() + " rows of archetype " + archetype);
        }
        for (int i = 0; i < fields.length; i++) {
            var column = archetype.getMut(fields[i]).segment();
            switch (kinds[i]) {
                case CONSTANT -> ops.constant(column, fromRow, toRow, first[i]);
                case RANGE -> ops.range(column, fromRow, toRow, 0, first[i], second[i]);
                default -> ops.uniform(column, fromRow, toRow, streams[i].nextLong(), first[i], second[i]);
            }
        }
    }

    /** Which implementation the fills run. */
    public KernelMode mode() {
        return ops.mode();
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("BatchFill/").append(ops.mode()).append('[');
        for (int i = 0; i < fields.length; i++) {
            text.append(i == 0 ? "" : ", ").append(fields[i].name()).append(switch (kinds[i]) {
                case CONSTANT -> "=" + first[i];
                case RANGE -> "=" + first[i] + "+i*" + second[i];
                default -> "~U[" + first[i] + ", " + second[i] + ")";
            });
        }
        return text.append(']').toString();
    }

    private static String describe(FloatField field) {
        return field.name() + " of " + field.component().name();
    }

    /**
     * Declares the fields a {@link BatchFill} writes, each once. Every method checks its arguments at once and
     * throws without recording anything when they are bad.
     */
    public static final class Builder {
        private final FillOps ops;
        private final List<FloatField> fields = new ArrayList<>();
        private final List<Byte> kinds = new ArrayList<>();
        private final List<Float> first = new ArrayList<>();
        private final List<Float> second = new ArrayList<>();
        private final List<Xoshiro128> streams = new ArrayList<>();

        private Builder(FillOps ops) {
            this.ops = ops;
        }

        /** Every row gets {@code value}, bit for bit (any float, NaN included). */
        public Builder constant(FloatField field, float value) {
            return add(field, CONSTANT, value, 0f, null);
        }

        /**
         * The batch's {@code i}-th row ({@code i} from 0) gets {@code start + (float) i * step}.
         *
         * @throws IllegalArgumentException when {@code start} or {@code step} is not finite
         */
        public Builder range(FloatField field, float start, float step) {
            Objects.requireNonNull(field, "field");
            if (!Float.isFinite(start) || !Float.isFinite(step)) {
                throw new IllegalArgumentException("range of " + describe(field) + ": start=" + start + " step="
                        + step + " must both be finite");
            }
            return add(field, RANGE, start, step, null);
        }

        /**
         * Every row gets a uniform pseudo-random value in {@code [lo, hi)}, keyed by one {@code stream.nextLong()}
         * per call (see the class comment).
         *
         * @throws IllegalArgumentException unless {@code lo < hi}, both finite, with a finite width
         * @throws NullPointerException when {@code stream} is null
         */
        public Builder uniform(FloatField field, float lo, float hi, Xoshiro128 stream) {
            Objects.requireNonNull(field, "field");
            Objects.requireNonNull(stream, "stream");
            if (!Float.isFinite(lo) || !Float.isFinite(hi) || !(lo < hi) || !Float.isFinite(hi - lo)) {
                throw new IllegalArgumentException("uniform of " + describe(field) + ": lo=" + lo + " hi=" + hi
                        + " need both finite, lo < hi and a finite width hi - lo");
            }
            return add(field, UNIFORM, lo, hi, stream);
        }

        /**
         * The callback, holding a copy of the declarations.
         *
         * @throws IllegalArgumentException when nothing was declared
         */
        public BatchFill build() {
            if (fields.isEmpty()) {
                throw new IllegalArgumentException("a BatchFill fills at least one field: declare one with constant, "
                        + "range or uniform");
            }
            return new BatchFill(this);
        }

        private Builder add(FloatField field, byte kind, float a, float b, Xoshiro128 stream) {
            Objects.requireNonNull(field, "field");
            if (fields.contains(field)) {
                throw new IllegalArgumentException("field " + describe(field) + " is already filled by this "
                        + "BatchFill: declare each field once");
            }
            fields.add(field);
            kinds.add(kind);
            first.add(a);
            second.add(b);
            streams.add(stream);
            return this;
        }
    }
}
