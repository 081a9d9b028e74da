package dev.jtecs.bench.particles;

import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;

/** The particle workload's components: position, velocity and remaining lifetime, all native SoA columns. */
public final class Particles {
    /** A 2D position. */
    public record Position(float x, float y) {}

    /** A 2D velocity, in units per second. */
    public record Velocity(float x, float y) {}

    /** Seconds left to live. */
    public record Lifetime(float remaining) {}

    public static final NativeComponent<Position> POSITION = Components.registerNative(Position.class);
    public static final NativeComponent<Velocity> VELOCITY = Components.registerNative(Velocity.class);
    public static final NativeComponent<Lifetime> LIFETIME = Components.registerNative(Lifetime.class);

    public static final FloatField X = POSITION.floatField("x");
    public static final FloatField Y = POSITION.floatField("y");
    public static final FloatField VX = VELOCITY.floatField("x");
    public static final FloatField VY = VELOCITY.floatField("y");
    public static final FloatField REMAINING = LIFETIME.floatField("remaining");

    private Particles() {}
}
