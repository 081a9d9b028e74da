package dev.jtecs.schedule;

import java.util.List;

/**
 * The predefined phases every world registers, in registry order. {@link PhaseGroup} bundles them; the frame
 * that {@code world.update(dt)} runs is:
 *
 * <pre>
 *   FIRST, PRE_UPDATE,
 *   (FIXED_PRE_UPDATE, FIXED_UPDATE, FIXED_POST_UPDATE) x the fixed steps due this frame, each with the fixed dt,
 *   UPDATE, POST_UPDATE, LAST,
 *   PRE_RENDER, RENDER, POST_RENDER
 * </pre>
 *
 * {@code world.startup()} runs the startup group once and {@code world.shutdown()} the shutdown group, both with
 * {@code dt = 0}. Custom phases never join this frame on their own: run them with {@code runPhase}, or call
 * {@code runPhase} from a system in one of these phases.
 */
public final class Phases {
    public static final Phase PRE_STARTUP = Phase.of("PreStartup");
    public static final Phase STARTUP = Phase.of("Startup");
    public static final Phase POST_STARTUP = Phase.of("PostStartup");

    public static final Phase FIRST = Phase.of("First");
    public static final Phase PRE_UPDATE = Phase.of("PreUpdate");

    public static final Phase FIXED_PRE_UPDATE = Phase.of("FixedPreUpdate");
    public static final Phase FIXED_UPDATE = Phase.of("FixedUpdate");
    public static final Phase FIXED_POST_UPDATE = Phase.of("FixedPostUpdate");

    public static final Phase UPDATE = Phase.of("Update");
    public static final Phase POST_UPDATE = Phase.of("PostUpdate");
    public static final Phase LAST = Phase.of("Last");

    public static final Phase PRE_RENDER = Phase.of("PreRender");
    public static final Phase RENDER = Phase.of("Render");
    public static final Phase POST_RENDER = Phase.of("PostRender");

    public static final Phase PRE_SHUTDOWN = Phase.of("PreShutdown");
    public static final Phase SHUTDOWN = Phase.of("Shutdown");
    public static final Phase POST_SHUTDOWN = Phase.of("PostShutdown");

    /** Every predefined phase in registry order (the order {@code listSystems} reports them in). */
    public static final List<Phase> PREDEFINED = List.of(PRE_STARTUP, STARTUP, POST_STARTUP, FIRST, PRE_UPDATE,
            FIXED_PRE_UPDATE, FIXED_UPDATE, FIXED_POST_UPDATE, UPDATE, POST_UPDATE, LAST, PRE_RENDER, RENDER,
            POST_RENDER, PRE_SHUTDOWN, SHUTDOWN, POST_SHUTDOWN);

    private Phases() {}
}
