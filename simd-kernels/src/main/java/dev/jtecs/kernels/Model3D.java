package dev.jtecs.kernels;

import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;

/**
 * The 4x4 model matrix of an entity's {@link dev.jtecs.builtin.Transform3D}, {@code T * R * S} as JOML's
 * {@code Matrix4f.translationRotateScale} builds it: a native component registered as {@code "Model3D"}, one
 * float column per entry, written by {@link TransformKernels#model3d()}.
 *
 * <p>Entries are named as JOML names them, {@code m<column><row>}: {@code m30, m31, m32} is the translation and
 * {@code m03 = m13 = m23 = 0}, {@code m33 = 1}. Declaration order is column-major, the order of
 * {@code Matrix4f.get(FloatBuffer)} and of an OpenGL/Vulkan uniform.
 */
public record Model3D(float m00, float m01, float m02, float m03, float m10, float m11, float m12, float m13, float m20, float m21, float m22, float m23, float m30, float m31, float m32, float m33) {
    /** The identity: what {@link dev.jtecs.builtin.Transform3D#IDENTITY} gives. */
    public static final Model3D IDENTITY = new Model3D(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);

    /** The registered component, named {@code "Model3D"}; its default is {@link #IDENTITY}. */
    public static final NativeComponent<Model3D> COMPONENT =
            Components.registerNative(Model3D.class, o -> o.name("Model3D").defaults(() -> IDENTITY));

    public static final FloatField M00 = COMPONENT.floatField("m00");
    public static final FloatField M01 = COMPONENT.floatField("m01");
    public static final FloatField M02 = COMPONENT.floatField("m02");
    public static final FloatField M03 = COMPONENT.floatField("m03");
    public static final FloatField M10 = COMPONENT.floatField("m10");
    public static final FloatField M11 = COMPONENT.floatField("m11");
    public static final FloatField M12 = COMPONENT.floatField("m12");
    public static final FloatField M13 = COMPONENT.floatField("m13");
    public static final FloatField M20 = COMPONENT.floatField("m20");
    public static final FloatField M21 = COMPONENT.floatField("m21");
    public static final FloatField M22 = COMPONENT.floatField("m22");
    public static final FloatField M23 = COMPONENT.floatField("m23");
    public static final FloatField M30 = COMPONENT.floatField("m30");
    public static final FloatField M31 = COMPONENT.floatField("m31");
    public static final FloatField M32 = COMPONENT.floatField("m32");
    public static final FloatField M33 = COMPONENT.floatField("m33");
}
