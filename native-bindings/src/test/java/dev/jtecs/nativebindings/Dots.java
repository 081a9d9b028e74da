package dev.jtecs.nativebindings;

import dev.jtecs.component.Components;
import dev.jtecs.component.DoubleField;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.world.World;
import java.util.SplittableRandom;

/** Test components: a dot at (x, y) with a heat that colours it, and a tag-like extra that splits archetypes. */
final class Dots {
    record Dot(float x, float y) {}

    record Heat(double value) {}

    record Spin(float rate) {}

    static final NativeComponent<Dot> DOT = Components.register(Dot.class, o -> o.name("test.view.Dot"));
    static final NativeComponent<Heat> HEAT = Components.register(Heat.class, o -> o.name("test.view.Heat"));
    static final NativeComponent<Spin> SPIN = Components.register(Spin.class, o -> o.name("test.view.Spin"));
    static final FloatField X = DOT.floatField("x");
    static final FloatField Y = DOT.floatField("y");
    static final DoubleField VALUE = HEAT.doubleField("value");
    static final FloatField RATE = SPIN.floatField("rate");

    /** Bytes of one row of x, y and value. */
    static final int ROW_BYTES = 4 + 4 + 8;

    /** The style the rendering tests draw: the view is [-100, 100] on both axes, heat 0..1. */
    static PointStyle style() {
        return new PointStyle(X, Y, VALUE, null, 0f, 1f, 0f, 0f, 100f, 100f, 2f);
    }

    /** Spawns {@code count} dots from {@code seed} (every tenth also spins: a second archetype), published. */
    static void spawn(World world, int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        world.defer();
        for (int i = 0; i < count; i++) {
            Dot dot = new Dot((float) random.nextDouble(-95, 95), (float) random.nextDouble(-95, 95));
            Heat heat = new Heat(random.nextDouble());
            if (i % 10 == 0) {
                world.spawn(DOT.of(dot), HEAT.of(heat), SPIN.of(new Spin(1f)));
            } else {
                world.spawn(DOT.of(dot), HEAT.of(heat));
            }
        }
        world.commit();
    }

    private Dots() {}
}
