package dev.jtecs.schedule;

import dev.jtecs.component.Component;
import dev.jtecs.query.Query;
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
    private final ParallelBody parallelBody;
    private final Query query;
    private final List<Component<?>> reads;
    private final List<Component<?>> writes;

    private SystemConfig(String name, Phase phase, SystemBody body, RunIf runIf, List<String> before,
            List<String> after, boolean commitBefore, boolean commitAfter) {
        this(name, phase, body, runIf, before, after, commitBefore, commitAfter, null, null, List.of(), List.of());
    }

    private SystemConfig(String name, Phase phase, SystemBody body, RunIf runIf, List<String> before,
            List<String> after, boolean commitBefore, boolean commitAfter, ParallelBody parallelBody, Query query,
            List<Component<?>> reads, List<Component<?>> writes) {
        this.parallelBody = parallelBody;
        this.query = query;
        this.reads = reads;
        this.writes = writes;
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
                commitBefore, commitAfter, parallelBody, query, reads, writes);
    }

    /** The body, run on the world's thread; replaces a parallel body. */
    public SystemConfig run(SystemBody value) {
        return new SystemConfig(name, phase, Objects.requireNonNull(value, "body"), runIf, before, after,
                commitBefore, commitAfter, null, null, reads, writes);
    }

    /**
     * Makes this a parallel system: {@code body} runs on a worker thread with the archetypes of {@code query}
     * (which may be {@code null}: none), beside the neighbouring parallel systems of its phase whose declared
     * {@link #reads} and {@link #writes} do not conflict with its own. Its structural requests go through its
     * command buffer and are applied on the world's thread after the group, in system order. Replaces a body given
     * with {@link #run}. See docs/parallel.md.
     */
    public SystemConfig parallel(Query query, ParallelBody body) {
        return new SystemConfig(name, phase, null, runIf, before, after, commitBefore, commitAfter,
                Objects.requireNonNull(body, "body"), query, reads, writes);
    }

    /** Declares components the parallel body reads (adds to those declared before). */
    public SystemConfig reads(Component<?>... components) {
        return new SystemConfig(name, phase, body, runIf, before, after, commitBefore, commitAfter, parallelBody,
                query, appendComponents(reads, components), writes);
    }

    /** Declares components the parallel body writes (adds to those declared before). */
    public SystemConfig writes(Component<?>... components) {
        return new SystemConfig(name, phase, body, runIf, before, after, commitBefore, commitAfter, parallelBody,
                query, reads, appendComponents(writes, components));
    }

    /** Gates the body with a condition; {@code null} removes the gate. */
    public SystemConfig runIf(RunIf value) {
        return new SystemConfig(name, phase, body, value, before, after, commitBefore, commitAfter, parallelBody,
                query, reads, writes);
    }

    /** Adds systems that must run after this one (same phase only). */
    public SystemConfig before(String... names) {
        return new SystemConfig(name, phase, body, runIf, append(before, names), after, commitBefore, commitAfter,
                parallelBody, query, reads, writes);
    }

    /** Adds systems that must run before this one (same phase only). */
    public SystemConfig after(String... names) {
        return new SystemConfig(name, phase, body, runIf, before, append(after, names), commitBefore, commitAfter,
                parallelBody, query, reads, writes);
    }

    /** Publishes staged work before the run condition is evaluated. */
    public SystemConfig commitBefore() {
        return new SystemConfig(name, phase, body, runIf, before, after, true, commitAfter, parallelBody, query,
                reads, writes);
    }

    /** Publishes staged work after the system, even when its condition kept the body from running. */
    public SystemConfig commitAfter() {
        return new SystemConfig(name, phase, body, runIf, before, after, commitBefore, true, parallelBody, query,
                reads, writes);
    }

    private static List<Component<?>> appendComponents(List<Component<?>> list, Component<?>[] components) {
        Objects.requireNonNull(components, "components");
        List<Component<?>> out = new ArrayList<>(list);
        for (int i = 0; i < components.length; i++) {
            Component<?> c = Objects.requireNonNull(components[i], "components[" + i + "]");
            if (!out.contains(c)) {
                out.add(c);
            }
        }
        return List.copyOf(out);
    }

    /** The parallel body, or {@code null} for a system that runs on the world's thread. */
    public ParallelBody parallelBody() {
        return parallelBody;
    }

    /** The parallel body's query, or {@code null}. */
    public Query query() {
        return query;
    }

    public List<Component<?>> reads() {
        return reads;
    }

    public List<Component<?>> writes() {
        return writes;
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

    /** The body, or {@code null} while unset or parallel (registration fails when neither is set). */
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
                + (runIf != null ? ", runIf" : "") + (parallelBody != null ? ", parallel reads=" + names(reads)
                        + " writes=" + names(writes) : "") + "]";
    }

    private static List<String> names(List<Component<?>> components) {
        return components.stream().map(Component::name).toList();
    }
}
