package dev.jtecs.kernels;

import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;

/**
 * The 2x3 affine matrix of an entity's {@link dev.jtecs.builtin.Transform2D}, row-major, as a renderer uploads it:
 * a native component registered as {@code "Affine2D"}, one float column per entry, written by
 * {@link TransformKernels#affine2d()}.
 *
 * <pre>
 *   | m00 m01 m02 |   | cos*sx  -sin*sy  x |        c = (float) cos(rotation), s = (float) sin(rotation)
 *   | m10 m11 m12 | = | sin*sx   cos*sy  y |        world = M * (localX, localY, 1)
 * </pre>
 *
 * <p>Convention: scale first, then rotate by {@code rotation} radians turning +x toward +y (Transform2D's
 * convention), then translate. It maps a local point exactly as {@link dev.jtecs.builtin.Transform2D#compose}
 * places a child offset: {@code x + (c * sx * lx - s * sy * ly)}, up to the order of the float multiplies.
 * {@code z} and {@code layer} are not part of the matrix.
 *
 * @param m00 {@code cos(rotation) * scaleX}
 * @param m01 {@code -sin(rotation) * scaleY}
 * @param m02 {@code x}
 * @param m10 {@code sin(rotation) * scaleX}
 * @param m11 {@code cos(rotation) * scaleY}
 * @param m12 {@code y}
 */
public record Affine2D(float m00, float m01, float m02, float m10, float m11, float m12) {
    /** The identity: what an unrotated, unit-scale transform at the origin gives. */
    public static final Affine2D IDENTITY = new Affine2D(1, 0, 0, 0, 1, 0);

    /** The registered component, named {@code "Affine2D"}; its default is {@link #IDENTITY}. */
    public static final NativeComponent<Affine2D> COMPONENT =
            Components.registerNative(Affine2D.class, o -> o.name("Affine2D").defaults(() -> IDENTITY));

    public static final FloatField M00 = COMPONENT.floatField("m00");
    public static final FloatField M01 = COMPONENT.floatField("m01");
    public static final FloatField M02 = COMPONENT.floatField("m02");
    public static final FloatField M10 = COMPONENT.floatField("m10");
    public static final FloatField M11 = COMPONENT.floatField("m11");
    public static final FloatField M12 = COMPONENT.floatField("m12");
}
