package dev.jtecs.builtin;

import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.IntField;
import dev.jtecs.component.NativeComponent;

/**
 * Where an entity is in the two-dimensional world: position, depth, draw layer, rotation and per-axis scale.
 * A native component registered as {@code "Transform2D"}: one off-heap column per field.
 *
 * <p>Conventions. Positions and scales are in world units. {@code rotation} is in radians and is not
 * normalized; a positive angle turns the +x axis toward +y, which reads as clockwise on a screen whose y axis
 * points down. {@code z} orders entities within one {@code layer}; layers order whole groups.
 *
 * <p>Field types. Everything but the layer is a {@code float}: what a renderer uploads, 16 lanes to a 512-bit
 * vector, and exact to about a thousandth of a unit out to 10,000 units from the origin. The layer is an
 * {@code int} because it selects a layer rather than measuring anything.
 *
 * <p>Defaults. {@code spawn(Transform2D.COMPONENT)} and requirements give {@link #IDENTITY} (scale 1); a
 * {@code batchSpawn} that names the definition starts every field at zero, scale included, like any native
 * component (see the bulk guide), so write the scale in its initializer.
 *
 * <p>Entities that hold {@link RelativeTransform2D} and a {@link ChildOf} parent get their whole transform
 * written by the builtin composition system every frame
 * ({@link dev.jtecs.builtin.systems.BuiltinSystems#RELATIVE_TRANSFORMS}).
 *
 * @param x horizontal position
 * @param y vertical position
 * @param z depth within the layer
 * @param layer the draw layer
 * @param rotation radians, +x toward +y
 * @param scaleX horizontal scale
 * @param scaleY vertical scale
 */
public record Transform2D(float x, float y, float z, int layer, float rotation, float scaleX, float scaleY) {
    /** At the origin, layer 0, unrotated, unit scale. */
    public static final Transform2D IDENTITY = new Transform2D(0, 0, 0, 0, 0, 1, 1);

    /** The registered component, named {@code "Transform2D"}; its default is {@link #IDENTITY}. */
    public static final NativeComponent<Transform2D> COMPONENT =
            Components.registerNative(Transform2D.class, o -> o.name("Transform2D").defaults(() -> IDENTITY));

    public static final FloatField X = COMPONENT.floatField("x");
    public static final FloatField Y = COMPONENT.floatField("y");
    public static final FloatField Z = COMPONENT.floatField("z");
    public static final IntField LAYER = COMPONENT.intField("layer");
    public static final FloatField ROTATION = COMPONENT.floatField("rotation");
    public static final FloatField SCALE_X = COMPONENT.floatField("scaleX");
    public static final FloatField SCALE_Y = COMPONENT.floatField("scaleY");

    /** At {@code (x, y)}, depth 0, layer 0, unrotated, unit scale. */
    public static Transform2D at(float x, float y) {
        return new Transform2D(x, y, 0, 0, 0, 1, 1);
    }

    /**
     * The world transform of a child placed at {@code offset} from this (its parent's world) transform:
     *
     * <pre>
     *   lx = scaleX * offset.x            ly = scaleY * offset.y          (the offset in the parent's scaled axes)
     *   c  = (float) cos(rotation)        s  = (float) sin(rotation)
     *   x  = this.x + (c * lx - s * ly)   y  = this.y + (s * lx + c * ly) (rotated, then moved to the parent)
     *   z  = this.z + offset.z            layer = this.layer
     *   rotation = this.rotation + offset.rotation
     *   scaleX = scaleX * offset.scaleX   scaleY = scaleY * offset.scaleY
     * </pre>
     *
     * evaluated in {@code float} in exactly this order, so the builtin composition system, which runs the same
     * operations over columns, gives bit-identical results. Scale is per axis in each entity's own frame: a
     * parent with unequal scales and a rotated child would need a shear to be exact, which a transform of this
     * shape cannot hold, so the child keeps the product of the scales (as most 2D engines do).
     * {@code offset.originX}/{@code originY} are not read.
     */
    public Transform2D compose(RelativeTransform2D offset) {
        float c = (float) Math.cos(rotation);
        float s = (float) Math.sin(rotation);
        float lx = scaleX * offset.x();
        float ly = scaleY * offset.y();
        return new Transform2D(x + (c * lx - s * ly), y + (s * lx + c * ly), z + offset.z(), layer,
                rotation + offset.rotation(), scaleX * offset.scaleX(), scaleY * offset.scaleY());
    }
}
