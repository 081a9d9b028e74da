package dev.jtecs.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.PrimitiveKind;
import dev.jtecs.world.World;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.joml.Matrix4f;
import org.joml.Quaternionf;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

class Transform3DTest {
    @Test
    void isANativeComponentNamedTransform3DWithTenFloatFields() {
        assertEquals("Transform3D", Transform3D.COMPONENT.name());
        assertSame(Transform3D.COMPONENT, Components.findByName("Transform3D"));
        assertEquals(List.of("x", "y", "z", "rotationX", "rotationY", "rotationZ", "rotationW", "scaleX", "scaleY",
                "scaleZ"), Transform3D.COMPONENT.layout().fieldNames());
        assertEquals(Collections.nCopies(10, PrimitiveKind.FLOAT), Transform3D.COMPONENT.layout().fieldKinds());
    }

    @Test
    void theDefaultIsTheIdentity() {
        assertEquals(new Transform3D(0, 0, 0, 0, 0, 0, 1, 1, 1, 1), Transform3D.IDENTITY);
        assertEquals(new Matrix4f(), Transform3D.IDENTITY.toMatrix());
        try (World world = World.create()) {
            long id = world.spawn(Transform3D.COMPONENT);
            assertEquals(Transform3D.IDENTITY, world.get(id, Transform3D.COMPONENT));
        }
    }

    @Test
    void toMatrixIsTranslateRotateScaleAsJomlBuildsIt() {
        long seed = new SplittableRandom().nextLong();
        System.out.println("Transform3DTest seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        for (int trial = 0; trial < 100; trial++) {
            Vector3f position = new Vector3f(f(random, 50), f(random, 50), f(random, 50));
            Quaternionf rotation = new Quaternionf().rotateXYZ(f(random, 3), f(random, 3), f(random, 3));
            Vector3f scale = new Vector3f(0.1f + random.nextFloat() * 3, 0.1f + random.nextFloat() * 3,
                    0.1f + random.nextFloat() * 3);
            Transform3D transform = Transform3D.of(position, rotation, scale);
            Matrix4f expected = new Matrix4f().translate(position).rotate(rotation).scale(scale);
            Matrix4f actual = transform.toMatrix(new Matrix4f().scale(7)); // dest is overwritten
            assertTrue(expected.equals(actual, 1e-4f), "seed " + seed + " trial " + trial + ": " + actual
                    + " expected " + expected);

            Vector3f point = new Vector3f(f(random, 5), f(random, 5), f(random, 5));
            Vector3f viaMatrix = expected.transformPosition(new Vector3f(point));
            assertTrue(viaMatrix.equals(transform.transformPoint(new Vector3f(point)), 1e-3f),
                    "seed " + seed + " trial " + trial);

            Transform3D back = Transform3D.fromMatrix(actual);
            assertTrue(expected.equals(back.toMatrix(), 1e-4f), "seed " + seed + " trial " + trial
                    + ": the matrix splits back into the same transform");
        }
    }

    @Test
    void partsComeOutAsJomlValues() {
        Transform3D transform = new Transform3D(1, 2, 3, 0, 0, 0.6f, 0.8f, 4, 5, 6);
        assertEquals(new Vector3f(1, 2, 3), transform.position(new Vector3f()));
        assertEquals(new Quaternionf(0, 0, 0.6f, 0.8f), transform.rotation(new Quaternionf()));
        assertEquals(new Vector3f(4, 5, 6), transform.scale(new Vector3f()));
        assertEquals(transform, Transform3D.of(new Vector3f(1, 2, 3), new Quaternionf(0, 0, 0.6f, 0.8f),
                new Vector3f(4, 5, 6)));
    }

    private static float f(SplittableRandom random, float range) {
        return (float) random.nextDouble(-range, range);
    }
}
