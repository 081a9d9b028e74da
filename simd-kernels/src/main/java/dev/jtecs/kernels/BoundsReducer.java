package dev.jtecs.kernels;

import dev.jtecs.component.FloatField;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryVisitor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.FloatColumn;
import java.util.Arrays;
import java.util.Objects;

/**
 * Reduces position-like float columns over the archetypes of a query to an axis-aligned bounding box: the
 * runner-level face of {@link BoundsOps}. Read only: columns are fetched with {@code Archetype.get}, which marks
 * nothing, so a reduction leaves every dirty bit and write count as it found them.
 *
 * <pre>
 *   bounds2d(query, X, Y): for each non-empty archetype: minMax(x segment, count, xRange)
 *                                                        minMax(y segment, count, yRange)
 *                          ──► Bounds2D(xRange[0], yRange[0], xRange[1], yRange[1])
 * </pre>
 *
 * <p>Policy ({@link ScalarBoundsOps}): each axis on its own, NaN skipped, {@code -0.0} below {@code 0.0}; no rows
 * at all (or only NaN on an axis) leave that axis empty, {@code +Infinity .. -Infinity}, so an empty query
 * answers {@link Bounds2D#EMPTY}. The iteration is the query's own scope. Holds scratch and is not thread-safe;
 * a reduction allocates only its result.
 */
public final class BoundsReducer {
    private final BoundsOps ops;
    private final QueryVisitor visitor = this::visit;
    private final float[][] ranges = {new float[2], new float[2], new float[2]};
    private final FloatField[] fields = new FloatField[3];
    private int axes;

    /** A reducer running {@code ops} ({@link BoundsOps#SCALAR} or the provider's). */
    public BoundsReducer(BoundsOps ops) {
        this.ops = Objects.requireNonNull(ops, "ops");
    }

    /** A reducer running {@link KernelProvider#bounds()}. */
    public BoundsReducer() {
        this(KernelProvider.bounds());
    }

    /**
     * The bounds of {@code (x, y)} over every entity the query matches.
     *
     * @throws IllegalArgumentException when the query does not include a field's component (checked before
     *     anything is read)
     * @throws IllegalStateException when called from inside one of its own reductions
     */
    public Bounds2D bounds2d(Query query, FloatField x, FloatField y) {
        reduce(query, x, y, null);
        return new Bounds2D(ranges[0][0], ranges[1][0], ranges[0][1], ranges[1][1]);
    }

    /** The bounds of {@code (x, y, z)} over every entity the query matches; see {@link #bounds2d}. */
    public Bounds3D bounds3d(Query query, FloatField x, FloatField y, FloatField z) {
        reduce(query, x, y, Objects.requireNonNull(z, "z"));
        return new Bounds3D(ranges[0][0], ranges[1][0], ranges[2][0], ranges[0][1], ranges[1][1], ranges[2][1]);
    }

    private void reduce(Query query, FloatField x, FloatField y, FloatField z) {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(x, "x");
        Objects.requireNonNull(y, "y");
        if (axes != 0) {
            throw new IllegalStateException("bounds reducer is already reducing " + Arrays.toString(fields)
                    + "; cannot start another reduction from inside it");
        }
        FloatField[] wanted = z == null ? new FloatField[] {x, y} : new FloatField[] {x, y, z};
        for (FloatField field : wanted) {
            if (!query.descriptor().include().contains(field.component())) {
                throw new IllegalArgumentException("query " + query.descriptor() + " does not include "
                        + field.component().name() + ", whose column " + field.name() + " the bounds read");
            }
        }
        for (int a = 0; a < ranges.length; a++) {
            ranges[a][0] = Float.POSITIVE_INFINITY;
            ranges[a][1] = Float.NEGATIVE_INFINITY;
            fields[a] = a < wanted.length ? wanted[a] : null;
        }
        axes = wanted.length;
        try {
            query.forEach(visitor);
        } finally {
            axes = 0;
            Arrays.fill(fields, null);
        }
    }

    private void visit(Archetype archetype, int count) {
        if (count == 0) {
            return;
        }
        for (int a = 0; a < axes; a++) {
            FloatColumn column = archetype.get(fields[a]); // get, not getMut: marks nothing
            ops.minMax(column.segment(), count, ranges[a]);
        }
    }
}
