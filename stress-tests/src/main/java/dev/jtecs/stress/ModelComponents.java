package dev.jtecs.stress;

import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.Input;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The component palette of the model tests: every storage kind and every primitive field type, so a random
 * stream exercises every column path.
 */
public final class ModelComponents {
    /** Two floats: the common particle shape. */
    public record Position(float x, float y) {}

    /** Every primitive type once. */
    public record Stats(byte b, boolean flag, short s, char c, int i, long l, float f, double d) {}

    /** A managed value with reference fields. */
    public record Label(String text, List<String> tags) {}

    public static final NativeComponent<Position> POSITION =
            Components.registerNative(Position.class, o -> o.name("stress.Position"));
    public static final NativeComponent<Stats> STATS =
            Components.registerNative(Stats.class, o -> o.name("stress.Stats"));
    public static final ManagedComponent<Label> LABEL =
            Components.registerManaged(Label.class, o -> o.name("stress.Label"));
    public static final TagComponent MARKED = Components.tag("stress.Marked");
    public static final ScalarComponent.OfDouble HEALTH = Components.scalar("stress.Health", 100.0);
    public static final ScalarComponent.OfString NAME = Components.scalar("stress.Name", "nobody");
    public static final ScalarComponent.OfInt LEVEL = Components.scalar("stress.Level", 1);
    public static final ScalarComponent.OfLong SCORE = Components.scalar("stress.Score", 0L);
    public static final ScalarComponent.OfBoolean ACTIVE = Components.scalar("stress.Active", true);

    /** Every palette component, in a fixed order. */
    public static final List<Component<?>> ALL =
            List.of(POSITION, STATS, LABEL, MARKED, HEALTH, NAME, LEVEL, SCORE, ACTIVE);

    private ModelComponents() {}

    /** A random input for a component: its definition (default value) one time in four, else a fresh value. */
    public static Input randomInput(Component<?> component, SplittableRandom random) {
        if (random.nextInt(4) == 0) {
            return component;
        }
        if (component == POSITION) {
            return POSITION.of(new Position(random.nextInt(-1000, 1000) / 4f, random.nextInt(-1000, 1000) / 8f));
        }
        if (component == STATS) {
            return STATS.of(new Stats((byte) random.nextInt(256), random.nextBoolean(), (short) random.nextInt(),
                    (char) random.nextInt(65536), random.nextInt(), random.nextLong(), random.nextInt(1000) / 3f,
                    random.nextInt(1000) / 7.0));
        }
        if (component == LABEL) {
            return LABEL.of(new Label("label-" + random.nextInt(100), List.of("t" + random.nextInt(5))));
        }
        if (component == MARKED) {
            return MARKED;
        }
        if (component == HEALTH) {
            return HEALTH.of(random.nextInt(0, 200) / 2.0);
        }
        if (component == NAME) {
            return NAME.of("name-" + random.nextInt(50));
        }
        if (component == LEVEL) {
            return LEVEL.of(random.nextInt(-5, 100));
        }
        if (component == SCORE) {
            return SCORE.of(random.nextLong());
        }
        return ACTIVE.of(random.nextBoolean());
    }
}
