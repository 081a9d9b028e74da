package dev.jtecs.bench.particles;

import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;

/**
 * The workload components every benchmark shares: position and velocity, both native SoA columns. A particle's
 * lifetime is the builtin {@link dev.jtecs.builtin.TTL}.
 */
public final class Particles {
    /** A 2D position. */
    public record Position(float x, float y) {}

    /** A 2D velocity, in units per second. */
    public record Velocity(float x, float y) {}

    public static final NativeComponent<Position> POSITION = Components.registerNative(Position.class);
    public static final NativeComponent<Velocity> VELOCITY = Components.registerNative(Velocity.class);

    public static final FloatField X = POSITION.floatField("x");
    public static final FloatField Y = POSITION.floatField("y");
    public static final FloatField VX = VELOCITY.floatField("x");
    public static final FloatField VY = VELOCITY.floatField("y");

    private Particles() {}
}
