package dev.jtecs.kernels;

/**
 * An axis-aligned bounding box in three dimensions, as {@link BoundsReducer#bounds3d} computes it. The same rules
 * as {@link Bounds2D}: each axis on its own, NaN skipped, an empty axis is {@code min = +Infinity,
 * max = -Infinity}, {@code -0.0} below {@code 0.0}.
 *
 * @param minX the smallest x
 * @param minY the smallest y
 * @param minZ the smallest z
 * @param maxX the largest x
 * @param maxY the largest y
 * @param maxZ the largest z
 */
public record Bounds3D(float minX, float minY, float minZ, float maxX, float maxY, float maxZ) {
    /** The bounds of no point at all: every axis empty. */
    public static final Bounds3D EMPTY = new Bounds3D(Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY,
            Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY);

    /** Whether some axis holds no value ({@code min > max} there): no point lies inside. */
    public boolean isEmpty() {
        return !(minX <= maxX) || !(minY <= maxY) || !(minZ <= maxZ);
    }

    /** Whether {@code (x, y, z)} lies inside, faces included. */
    public boolean contains(float x, float y, float z) {
        return x >= minX && x <= maxX && y >= minY && y <= maxY && z >= minZ && z <= maxZ;
    }
}
