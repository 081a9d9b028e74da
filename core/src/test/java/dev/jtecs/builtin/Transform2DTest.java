package dev.jtecs.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.jtecs.component.Components;
import dev.jtecs.component.PrimitiveKind;
import dev.jtecs.world.World;
import java.util.List;
import java.util.SplittableRandom;
import org.joml.Matrix3x2f;
import org.joml.Vector2f;
import org.junit.jupiter.api.Test;

class Transform2DTest {
    @Test
    void isANativeComponentNamedTransform2DWithFloatFieldsAndAnIntLayer() {
        assertEquals("Transform2D", Transform2D.COMPONENT.name());
        assertSame(Transform2D.COMPONENT, Components.findByName("Transform2D"));
        assertEquals(List.of("x", "y", "z", "layer", "rotation", "scaleX", "scaleY"),
                Transform2D.COMPONENT.layout().fieldNames());
        assertEquals(List.of(PrimitiveKind.FLOAT, PrimitiveKind.FLOAT, PrimitiveKind.FLOAT, PrimitiveKind.INT,
                PrimitiveKind.FLOAT, PrimitiveKind.FLOAT, PrimitiveKind.FLOAT),
                Transform2D.COMPONENT.layout().fieldKinds());
        assertEquals(3, Transform2D.LAYER.field());
        assertEquals(6, Transform2D.SCALE_Y.field());
    }

    @Test
    void theDefaultIsTheIdentityWithUnitScale() {
        assertEquals(new Transform2D(0, 0, 0, 0, 0, 1, 1), Transform2D.IDENTITY);
        assertEquals(Transform2D.IDENTITY, Transform2D.COMPONENT.newDefault());
        assertEquals(new Transform2D(3, -4, 0, 0, 0, 1, 1), Transform2D.at(3, -4));
        try (World world = World.create()) {
            long id = world.spawn(Transform2D.COMPONENT);
            assertEquals(Transform2D.IDENTITY, world.get(id, Transform2D.COMPONENT));
        }
    }

    @Test
    void composeScalesThenRotatesTheOffsetIntoTheParentsFrame() {
        // Exact in float: a quarter turn whose cosine rounds to a tiny value, scales that are powers of two.
        Transform2D parent = new Transform2D(10, 20, 1, 7, (float) (Math.PI / 2), 2, 4);
        Transform2D child = parent.compose(new RelativeTransform2D(3, 1, 0.5f, 0.25f, 0.5f, 3, 0.5f, 0.5f));
        float c = (float) Math.cos((float) (Math.PI / 2));
        float s = (float) Math.sin((float) (Math.PI / 2));
        assertEquals(1f, s);
        assertEquals(10 + (c * 6 - s * 4), child.x()); // offset (3, 1) scaled to (6, 4), turned to (-4, 6)
        assertEquals(20 + (s * 6 + c * 4), child.y());
        assertEquals(6f, child.x(), 1e-5f);
        assertEquals(26f, child.y(), 1e-5f);
        assertEquals(1.5f, child.z());
        assertEquals(7, child.layer(), "the layer is the parent's");
        assertEquals((float) (Math.PI / 2) + 0.25f, child.rotation());
        assertEquals(1f, child.scaleX());
        assertEquals(12f, child.scaleY());
    }

    @Test
    void composingTheIdentityOffsetGivesTheParent() {
        Transform2D parent = new Transform2D(-2.5f, 8, 3, 2, 0, 1.5f, 0.75f);
        assertEquals(parent, parent.compose(RelativeTransform2D.IDENTITY));
        assertEquals(Transform2D.at(5, 6), Transform2D.IDENTITY.compose(RelativeTransform2D.offset(5, 6)));
    }

    @Test
    void composedPositionsMatchJomlAffineMatricesAcrossThreeLevels() {
        long seed = new SplittableRandom().nextLong();
        System.out.println("Transform2DTest seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        for (int trial = 0; trial < 200; trial++) {
            float rootScale = 0.5f + random.nextFloat(); // uniform scales: no shear, so the matrices agree
            Transform2D root = new Transform2D(f(random, 100), f(random, 100), 0, 0, f(random, 4), rootScale,
                    rootScale);
            Transform2D world = root;
            Matrix3x2f matrix = new Matrix3x2f().translate(root.x(), root.y()).rotate(root.rotation())
                    .scale(root.scaleX(), root.scaleY());
            for (int level = 0; level < 3; level++) {
                float uniform = 0.5f + random.nextFloat();
                RelativeTransform2D offset = new RelativeTransform2D(f(random, 10), f(random, 10), 0, f(random, 4),
                        uniform, uniform, 0, 0);
                world = world.compose(offset);
                Vector2f expected = matrix.transformPosition(new Vector2f(offset.x(), offset.y()));
                assertEquals(expected.x, world.x(), 2e-3f, "x, seed " + seed + " trial " + trial);
                assertEquals(expected.y, world.y(), 2e-3f, "y, seed " + seed + " trial " + trial);
                matrix.translate(offset.x(), offset.y()).rotate(offset.rotation()).scale(uniform, uniform);
            }
        }
    }

    @Test
    void unequalParentScalesStretchTheOffsetButNotTheChildsFrame() {
        // Parent stretched 2x along x, child turned a quarter: the offset follows the stretch, while the child's
        // own scale is the product per axis (no shear), as documented on compose.
        Transform2D parent = new Transform2D(0, 0, 0, 0, 0, 2, 1);
        Transform2D child = parent.compose(new RelativeTransform2D(1, 1, 0, (float) (Math.PI / 2), 1, 1, 0, 0));
        assertEquals(2f, child.x());
        assertEquals(1f, child.y());
        assertEquals(2f, child.scaleX());
        assertEquals(1f, child.scaleY());
    }

    private static float f(SplittableRandom random, float range) {
        return (float) random.nextDouble(-range, range);
    }
}
