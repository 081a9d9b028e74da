package dev.jtecs.kernels;

/**
 * An axis-aligned bounding box in two dimensions: the smallest and largest {@code x} and {@code y} of a set of
 * points, as {@link BoundsReducer#bounds2d} computes it.
 *
 * <p>Each axis is reduced on its own, and NaN values are skipped on the axis they occur on. An axis with no value
 * left (no rows, or only NaN) keeps the empty range {@code min = +Infinity, max = -Infinity}, so {@link #EMPTY}
 * is the bounds of nothing and every union with it is the other operand. {@code -0.0} counts as smaller than
 * {@code 0.0} ({@link Math#min}'s order), and infinities are values like any other.
 *
 * @param minX the smallest x, {@code +Infinity} when the x axis is empty
 * @param minY the smallest y, {@code +Infinity} when the y axis is empty
 * @param maxX the largest x, {@code -Infinity} when the x axis is empty
 * @param maxY the largest y, {@code -Infinity} when the y axis is empty
 */
public record Bounds2D(float minX, float minY, float maxX, float maxY) {
    /** The bounds of no point at all: both axes empty. */
    public static final Bounds2D EMPTY = new Bounds2D(Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY,
            Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY);

    /** Whether some axis holds no value ({@code min > max} there): no point lies inside. */
    public boolean isEmpty() {
        return !(minX <= maxX) || !(minY <= maxY);
    }

    /** {@code maxX - minX}; negative infinity for an empty x axis. */
    public float width() {
        return maxX - minX;
    }

    /** {@code maxY - minY}; negative infinity for an empty y axis. */
    public float height() {
        return maxY - minY;
    }

    /** Whether {@code (x, y)} lies inside, edges included. */
    public boolean contains(float x, float y) {
        return x >= minX && x <= maxX && y >= minY && y <= maxY;
    }
}
