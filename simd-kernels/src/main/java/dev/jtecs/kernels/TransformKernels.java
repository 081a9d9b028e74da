package dev.jtecs.kernels;

import dev.jtecs.builtin.Transform2D;
import dev.jtecs.builtin.Transform3D;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The transform kernels as {@link ColumnKernel}s: the {@link Affine2D} matrix of each {@link Transform2D} and the
 * {@link Model3D} matrix of each {@link Transform3D}, one float column per entry. Each factory takes the
 * {@link TransformOps} to run ({@link TransformOps#SCALAR} or the vector one, side by side in tests); the overloads
 * without it use {@link KernelProvider#transforms()}. Both kernels are unconditional: the runner marks the matrix
 * component on every archetype they ran on and never the transform, which they only read.
 *
 * <p>{@code model3d} agrees bit for bit with its twin and with {@code Transform3D.toMatrix}; {@code affine2d}'s vector
 * sine and cosine may land a few ulps from the twin's (see {@link dev.jtecs.kernels.vector.VectorTransformOps}).
 */
public final class TransformKernels {
    private TransformKernels() {}

    /**
     * The kernel that writes every {@link Affine2D} field from the Transform2D fields it reads ({@code x, y,
     * rotation, scaleX, scaleY}); unconditional, so the runner marks Affine2D, and only Affine2D, on every
     * archetype it ran on.
     */
    public static ColumnKernel affine2d(TransformOps ops) {
        KernelColumns columns = KernelColumns.of(
                List.of(Affine2D.M00, Affine2D.M01, Affine2D.M02, Affine2D.M10, Affine2D.M11, Affine2D.M12),
                List.of(Transform2D.X, Transform2D.Y, Transform2D.ROTATION, Transform2D.SCALE_X, Transform2D.SCALE_Y),
                WritePolicy.ALWAYS);
        return new NamedKernel(columns, "affine2d", ops.mode()) {
            @Override
            public boolean run(MemorySegment[] s, int count, float dt) {
                ops.affine2d(s[6], s[7], s[8], s[9], s[10], s[0], s[1], s[2], s[3], s[4], s[5], count);
                return true;
            }
        };
    }

    /** {@link #affine2d(TransformOps)} with {@link KernelProvider#transforms()}. */
    public static ColumnKernel affine2d() {
        return affine2d(KernelProvider.transforms());
    }

    /**
     * The kernel that writes every {@link Model3D} field from every Transform3D field; unconditional, so the
     * runner marks Model3D, and only Model3D, on every archetype it ran on. Agrees bit for bit with its twin and
     * with {@code Transform3D.toMatrix} (no transcendental functions: only JOML's products and sums).
     */
    public static ColumnKernel model3d(TransformOps ops) {
        KernelColumns columns = KernelColumns.of(
                List.of(Model3D.M00, Model3D.M01, Model3D.M02, Model3D.M03, Model3D.M10, Model3D.M11, Model3D.M12,
                        Model3D.M13, Model3D.M20, Model3D.M21, Model3D.M22, Model3D.M23, Model3D.M30, Model3D.M31,
                        Model3D.M32, Model3D.M33),
                List.of(Transform3D.X, Transform3D.Y, Transform3D.Z, Transform3D.ROTATION_X, Transform3D.ROTATION_Y,
                        Transform3D.ROTATION_Z, Transform3D.ROTATION_W, Transform3D.SCALE_X, Transform3D.SCALE_Y,
                        Transform3D.SCALE_Z),
                WritePolicy.ALWAYS);
        return new NamedKernel(columns, "model3d", ops.mode()) {
            @Override
            public boolean run(MemorySegment[] s, int count, float dt) {
                ops.model3d(s, count); // the runner's order is the one model3d takes: writes, then reads
                return true;
            }
        };
    }

    /** {@link #model3d(TransformOps)} with {@link KernelProvider#transforms()}. */
    public static ColumnKernel model3d() {
        return model3d(KernelProvider.transforms());
    }
}
