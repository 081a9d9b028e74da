package dev.jtecs.builtin;

import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;

/**
 * An entity's placement relative to its {@link ChildOf} parent. The builtin composition system
 * ({@link dev.jtecs.builtin.systems.BuiltinSystems#RELATIVE_TRANSFORMS}) writes {@code parentWorld.compose(offset)}
 * into the entity's
 * own {@link Transform2D} every frame, so everything else keeps reading one transform. Registered as
 * {@code "RelativeTransform2D"}; it requires {@code Transform2D}, so an entity spawned with an offset gets a
 * transform to write into.
 *
 * <p>{@code x}, {@code y} are measured in the parent's rotated and scaled axes, {@code z} and {@code rotation}
 * add to the parent's, {@code scaleX}, {@code scaleY} multiply the parent's (see
 * {@link Transform2D#compose}). {@code originX}, {@code originY} are an anchor as fractions of the entity's
 * size (0 the left or top edge, 1 the right or bottom): composition carries them without reading them,
 * since nothing in a transform knows a size; they are there for layout code. All fields are {@code float},
 * like {@code Transform2D}'s.
 *
 * @param x horizontal offset in the parent's axes
 * @param y vertical offset in the parent's axes
 * @param z depth added to the parent's
 * @param rotation radians added to the parent's
 * @param scaleX multiplies the parent's horizontal scale
 * @param scaleY multiplies the parent's vertical scale
 * @param originX horizontal anchor, a fraction of the width; not read by composition
 * @param originY vertical anchor, a fraction of the height; not read by composition
 */
public record RelativeTransform2D(float x, float y, float z, float rotation, float scaleX, float scaleY,
        float originX, float originY) {
    /** No offset: the child sits exactly on its parent. */
    public static final RelativeTransform2D IDENTITY = new RelativeTransform2D(0, 0, 0, 0, 1, 1, 0, 0);

    /** The registered component, named {@code "RelativeTransform2D"}; default {@link #IDENTITY}. */
    public static final NativeComponent<RelativeTransform2D> COMPONENT = Components.registerNative(
            RelativeTransform2D.class,
            o -> o.name("RelativeTransform2D").defaults(() -> IDENTITY).requires(Transform2D.COMPONENT));

    public static final FloatField X = COMPONENT.floatField("x");
    public static final FloatField Y = COMPONENT.floatField("y");
    public static final FloatField Z = COMPONENT.floatField("z");
    public static final FloatField ROTATION = COMPONENT.floatField("rotation");
    public static final FloatField SCALE_X = COMPONENT.floatField("scaleX");
    public static final FloatField SCALE_Y = COMPONENT.floatField("scaleY");
    public static final FloatField ORIGIN_X = COMPONENT.floatField("originX");
    public static final FloatField ORIGIN_Y = COMPONENT.floatField("originY");

    /** Moved by {@code (x, y)} in the parent's axes, nothing else changed. */
    public static RelativeTransform2D offset(float x, float y) {
        return new RelativeTransform2D(x, y, 0, 0, 1, 1, 0, 0);
    }
}
