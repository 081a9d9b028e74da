package dev.jtecs.builtin;

import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;
import org.joml.Matrix4f;
import org.joml.Matrix4fc;
import org.joml.Quaternionf;
import org.joml.Quaternionfc;
import org.joml.Vector3f;
import org.joml.Vector3fc;

/**
 * Where an entity is in a right-handed three-dimensional world: a position, a rotation as a unit quaternion
 * {@code (rotationX, rotationY, rotationZ, rotationW)} and a scale per axis. Registered as
 * {@code "Transform3D"}; the default is {@link #IDENTITY}. All ten fields are {@code float}, the precision
 * of JOML's {@link Matrix4f} and of what a renderer uploads.
 *
 * <p>The matrix math is JOML's: {@link #toMatrix(Matrix4f)} is {@code T * R * S} (scale first, then rotate,
 * then translate), the usual model matrix. The quaternion is used as stored; keep it normalized (JOML's
 * {@link Quaternionf#normalize()}) or the matrix scales as well as rotates.
 *
 * @param x position
 * @param y position
 * @param z position
 * @param rotationX quaternion x
 * @param rotationY quaternion y
 * @param rotationZ quaternion z
 * @param rotationW quaternion w (1 for no rotation)
 * @param scaleX scale along the local x axis
 * @param scaleY scale along the local y axis
 * @param scaleZ scale along the local z axis
 */
public record Transform3D(float x, float y, float z, float rotationX, float rotationY, float rotationZ,
        float rotationW, float scaleX, float scaleY, float scaleZ) {
    /** At the origin, unrotated, unit scale. */
    public static final Transform3D IDENTITY = new Transform3D(0, 0, 0, 0, 0, 0, 1, 1, 1, 1);

    /** The registered component, named {@code "Transform3D"}; its default is {@link #IDENTITY}. */
    public static final NativeComponent<Transform3D> COMPONENT =
            Components.registerNative(Transform3D.class, o -> o.name("Transform3D").defaults(() -> IDENTITY));

    public static final FloatField X = COMPONENT.floatField("x");
    public static final FloatField Y = COMPONENT.floatField("y");
    public static final FloatField Z = COMPONENT.floatField("z");
    public static final FloatField ROTATION_X = COMPONENT.floatField("rotationX");
    public static final FloatField ROTATION_Y = COMPONENT.floatField("rotationY");
    public static final FloatField ROTATION_Z = COMPONENT.floatField("rotationZ");
    public static final FloatField ROTATION_W = COMPONENT.floatField("rotationW");
    public static final FloatField SCALE_X = COMPONENT.floatField("scaleX");
    public static final FloatField SCALE_Y = COMPONENT.floatField("scaleY");
    public static final FloatField SCALE_Z = COMPONENT.floatField("scaleZ");

    /** A transform from JOML parts; the parts are copied. */
    public static Transform3D of(Vector3fc position, Quaternionfc rotation, Vector3fc scale) {
        return new Transform3D(position.x(), position.y(), position.z(), rotation.x(), rotation.y(), rotation.z(),
                rotation.w(), scale.x(), scale.y(), scale.z());
    }

    /**
     * Splits an affine matrix made of a translation, a rotation and a scale per axis (no shear, no negative
     * scale) back into a transform: the translation column, JOML's {@code getScale} (column lengths) and the
     * rotation normalized from {@code getUnnormalizedRotation}. Other matrices give a transform whose matrix
     * differs from {@code matrix}.
     */
    public static Transform3D fromMatrix(Matrix4fc matrix) {
        Vector3f position = matrix.getTranslation(new Vector3f());
        Vector3f scale = matrix.getScale(new Vector3f());
        Quaternionf rotation = matrix.getUnnormalizedRotation(new Quaternionf()).normalize();
        return of(position, rotation, scale);
    }

    /** Writes the model matrix {@code T * R * S} into {@code dest} and returns it. */
    public Matrix4f toMatrix(Matrix4f dest) {
        return dest.translationRotateScale(x, y, z, rotationX, rotationY, rotationZ, rotationW, scaleX, scaleY,
                scaleZ);
    }

    /** The model matrix {@code T * R * S}, in a new matrix. */
    public Matrix4f toMatrix() {
        return toMatrix(new Matrix4f());
    }

    /** Writes the position into {@code dest} and returns it. */
    public Vector3f position(Vector3f dest) {
        return dest.set(x, y, z);
    }

    /** Writes the rotation quaternion into {@code dest} and returns it. */
    public Quaternionf rotation(Quaternionf dest) {
        return dest.set(rotationX, rotationY, rotationZ, rotationW);
    }

    /** Writes the scale into {@code dest} and returns it. */
    public Vector3f scale(Vector3f dest) {
        return dest.set(scaleX, scaleY, scaleZ);
    }

    /** Where the local point {@code point} lands in the world: {@code T * R * S * point}, written back into it. */
    public Vector3f transformPoint(Vector3f point) {
        return point.mul(scaleX, scaleY, scaleZ).rotate(rotation(new Quaternionf())).add(x, y, z);
    }
}
