package dev.jtecs.schedule;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How to register a system: its name, phase, body, run condition, ordering constraints and commit barriers.
 * Immutable: each method returns a changed copy, as in
 * {@code SystemConfig.named("game.Move").phase(Phases.UPDATE).run(body).after("game.Input").commitAfter()}.
 *
 * <ul>
 *   <li>name: unique within the world; {@link #unnamed()} lets the world generate one.
 *   <li>phase: the leaf phase that runs the system; {@link Phases#UPDATE} unless set.
 *   <li>{@code before} / {@code after}: names of systems that must run later / earlier <em>in the same leaf
 *       phase</em>. Names of systems in other phases, or of systems that do not exist, add no edge; a system
 *       named later in the same phase does add one from the next schedule on.
 *   <li>{@code commitBefore}: publish staged work before evaluating the run condition.
 *   <li>{@code commitAfter}: publish staged work after the system, whether its body ran or not.
 * </ul>
 */
public final class SystemConfig {
    private final String name;
    private final Phase phase;
    private final SystemBody body;
    private final RunIf runIf;
    private final List<String> before;
    private final List<String> after;
    private final boolean commitBefore;
    private final boolean commitAfter;

    private SystemConfig(String name, Phase phase, SystemBody body, RunIf runIf, List<String> before,
            List<String> after, boolean commitBefore, boolean commitAfter) {
        this.name = name;
        this.phase = phase;
        this.body = body;
        this.runIf = runIf;
        this.before = before;
        this.after = after;
        this.commitBefore = commitBefore;
        this.commitAfter = commitAfter;
    }

    /**
     * A system with this name, in {@link Phases#UPDATE}, with no body yet.
     *
     * @throws IllegalArgumentException when the name is blank
     */
    public static SystemConfig named(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a system name must not be blank, got \"" + name + "\"");
        }
        return new SystemConfig(name, Phases.UPDATE, null, null, List.of(), List.of(), false, false);
    }

    /** A system whose name the world generates at registration, in {@link Phases#UPDATE}, with no body yet. */
    public static SystemConfig unnamed() {
        return new SystemConfig(null, Phases.UPDATE, null, null, List.of(), List.of(), false, false);
    }

    public SystemConfig phase(Phase value) {
        return new SystemConfig(name, Objects.requireNonNull(value, "phase"), body, runIf, before, after,
                commitBefore, commitAfter);
    }

    public SystemConfig run(SystemBody value) {
        return new SystemConfig(name, phase, Objects.requireNonNull(value, "body"), runIf, before, after,
                commitBefore, commitAfter);
    }

    /** Gates the body with a condition; {@code null} removes the gate. */
    public SystemConfig runIf(RunIf value) {
        return new SystemConfig(name, phase, body, value, before, after, commitBefore, commitAfter);
    }

    /** Adds systems that must run after this one (same phase only). */
    public SystemConfig before(String... names) {
        return new SystemConfig(name, phase, body, runIf, append(before, names), after, commitBefore, commitAfter);
    }

    /** Adds systems that must run before this one (same phase only). */
    public SystemConfig after(String... names) {
        return new SystemConfig(name, phase, body, runIf, before, append(after, names), commitBefore, commitAfter);
    }

    /** Publishes staged work before the run condition is evaluated. */
    public SystemConfig commitBefore() {
        return new SystemConfig(name, phase, body, runIf, before, after, true, commitAfter);
    }

    /** Publishes staged work after the system, even when its condition kept the body from running. */
    public SystemConfig commitAfter() {
        return new SystemConfig(name, phase, body, runIf, before, after, commitBefore, true);
    }

    private static List<String> append(List<String> list, String[] names) {
        Objects.requireNonNull(names, "names");
        List<String> out = new ArrayList<>(list);
        for (String name : names) {
            out.add(Objects.requireNonNull(name, "system name"));
        }
        return List.copyOf(out);
    }

    /** The explicit name, or {@code null} when the world is to generate one. */
    public String name() {
        return name;
    }

    public Phase phase() {
        return phase;
    }

    /** The body, or {@code null} while unset (registration then fails). */
    public SystemBody body() {
        return body;
    }

    /** The run condition, or {@code null} for none. */
    public RunIf runIf() {
        return runIf;
    }

    public List<String> before() {
        return before;
    }

    public List<String> after() {
        return after;
    }

    public boolean commitsBefore() {
        return commitBefore;
    }

    public boolean commitsAfter() {
        return commitAfter;
    }

    @Override
    public String toString() {
        return "SystemConfig[" + (name == null ? "<unnamed>" : name) + " in " + phase + ", before=" + before
                + ", after=" + after + (commitBefore ? ", commitBefore" : "") + (commitAfter ? ", commitAfter" : "")
                + (runIf != null ? ", runIf" : "") + "]";
    }
}
