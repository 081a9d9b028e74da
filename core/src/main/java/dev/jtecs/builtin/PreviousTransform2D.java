package dev.jtecs.builtin;

import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;

/**
 * The position and rotation an entity had before the latest fixed step, for drawing between steps: with
 * {@code alpha = world.getFixedTiming().alpha()}, draw at {@code previous + (current - previous) * alpha}.
 * Opting in is holding it; the builtin capture system
 * ({@link dev.jtecs.builtin.systems.BuiltinSystems#SNAPSHOT_TRANSFORMS}) copies
 * {@link Transform2D}'s {@code x}, {@code y} and {@code rotation} into it at the start of every fixed step, so
 * between frames it holds the pose before the last step the frame ran. Registered as
 * {@code "PreviousTransform2D"}; it requires {@code Transform2D}. Fields are {@code float}, copied bit for bit.
 *
 * <p>Seed it with the spawn pose ({@link #of(Transform2D)}); otherwise the first frame interpolates from the
 * origin.
 *
 * @param x horizontal position before the step
 * @param y vertical position before the step
 * @param rotation rotation before the step, radians
 */
public record PreviousTransform2D(float x, float y, float rotation) {
    /** The registered component, named {@code "PreviousTransform2D"}; the default is all zero. */
    public static final NativeComponent<PreviousTransform2D> COMPONENT = Components.registerNative(
            PreviousTransform2D.class, o -> o.name("PreviousTransform2D").requires(Transform2D.COMPONENT));

    public static final FloatField X = COMPONENT.floatField("x");
    public static final FloatField Y = COMPONENT.floatField("y");
    public static final FloatField ROTATION = COMPONENT.floatField("rotation");

    /** The pose of {@code transform}, as the capture system would record it. */
    public static PreviousTransform2D of(Transform2D transform) {
        return new PreviousTransform2D(transform.x(), transform.y(), transform.rotation());
    }
}
