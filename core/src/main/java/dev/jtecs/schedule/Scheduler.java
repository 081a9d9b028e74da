package dev.jtecs.schedule;

import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.IntStream;

/**
 * The default {@link Pipeline}: phases, systems ordered by their constraints, run conditions, commit barriers
 * and the fixed-step loop.
 *
 * <p>Dispatch. {@link #update}, {@link #run} and the world's {@code startup}/{@code shutdown} are dispatches.
 * The outermost (external) one validates the schedule, rebuilding it if registrations changed, before it
 * publishes or runs anything, and captures it; dispatches started from inside a system ({@code runPhase} from a
 * body) reuse the captured schedule. So a system added during a dispatch first runs in the next external one,
 * while removing, enabling or disabling a system or phase takes effect at once. Each dispatch holds the world's
 * structural work ({@link DispatchScope#hold}); it is published after every enabled leaf phase, where a system
 * asks ({@code commitBefore}, {@code commitAfter}, {@code enqueueCommit}), and when the outermost dispatch ends.
 * When a body or run condition throws, the dispatch stops, the exception propagates, any pending commit request
 * is dropped and staged work stays staged (the next {@code update} publishes it first).
 *
 * <p>Per system: skipped entirely (no barrier, condition unevaluated) when it or its leaf is disabled or it was
 * removed; otherwise {@code commitBefore} barrier, run condition, body when the condition holds, then one
 * barrier if {@code commitAfter} is set or the body or condition called {@code enqueueCommit}.
 *
 * <p>Confinement: every method throws {@link WrongThreadException} on a thread other than the world's owner
 * ({@link DispatchScope#checkThread()}), before anything runs or changes.
 *
 * @implNote A dispatch walks arrays captured at entry and allocates nothing; compiling a schedule allocates,
 *     and happens only after registrations change.
 */
public final class Scheduler implements Pipeline {
    private final World world;
    private final DispatchScope scope;
    private final PhaseRegistry phases = new PhaseRegistry();
    private final Map<String, SystemEntry> systems = new LinkedHashMap<>(); // registration order
    private final FixedClock clock;
    private final int[] frameHead;
    private final int[] fixedStep;
    private final int[] frameTail;
    private Schedule next; // the schedule of the current registrations; null after they change
    private Schedule active; // what the outermost running dispatch captured
    private int dispatchDepth;
    private SystemEntry running;
    private boolean commitRequested;
    private long generatedNames;
    private final int systemThreads;
    private ParallelSystems parallel; // made on the first parallel group
    private SystemEntry[] group = new SystemEntry[8];

    public Scheduler(World world, DispatchScope scope) {
        this.world = Objects.requireNonNull(world, "world");
        this.scope = Objects.requireNonNull(scope, "scope");
        WorldConfig config = world.config();
        this.clock = new FixedClock(config.timestep(), config.fixedMaxSteps(), config.fixedOverload());
        this.systemThreads = config.systemThreads();
        this.frameHead = leaves(Phases.FIRST, Phases.PRE_UPDATE);
        this.fixedStep = phases.leaves(PhaseGroup.FIXED_UPDATE);
        this.frameTail = leaves(Phases.UPDATE, Phases.POST_UPDATE, Phases.LAST, Phases.PRE_RENDER, Phases.RENDER,
                Phases.POST_RENDER);
    }

    private int[] leaves(Phase... list) {
        return java.util.Arrays.stream(list).flatMapToInt(p -> IntStream.of(phases.leaves(p))).toArray();
    }

    // ---------------------------------------------------------------- dispatch

    /**
     * Runs one frame: the head of the main phases, the fixed steps due, the rest of the main phases and the
     * render phases (see {@link Phases}). Validates the schedule first, then closes any scope the caller left
     * open and publishes pending work, then runs.
     *
     * @throws IllegalArgumentException when {@code dt} is negative, NaN or infinite
     * @throws IllegalStateException from inside a dispatch (a system may call {@code runPhase}, not update)
     * @throws ScheduleCycleException when a phase's constraints cycle (nothing has run or been published)
     */
    @Override
    public void update(double dt) {
        scope.checkThread();
        requireDt("update", dt);
        if (dispatchDepth > 0) {
            throw new IllegalStateException("update: called while systems are running (from " + running
                    + "); a system may call runPhase, not update");
        }
        Schedule schedule = compiled();
        scope.unwind();
        enter(schedule);
        boolean ok = false;
        try {
            runLeaves(frameHead, dt);
            clock.add(dt);
            for (int taken = 0; !world.isClosed() && clock.takeStep(taken); taken++) {
                runLeaves(fixedStep, clock.timestep);
                clock.completed();
            }
            clock.settle();
            runLeaves(frameTail, dt);
            ok = true;
        } finally {
            exit(ok);
        }
    }

    /**
     * Runs a selection once with {@code dt}. From inside a system it reuses the running dispatch's schedule.
     *
     * @throws IllegalArgumentException for an unregistered phase or a bad {@code dt}
     * @throws ScheduleCycleException when a phase's constraints cycle (outermost dispatch only)
     */
    @Override
    public void run(PhaseSelection selection, double dt) {
        scope.checkThread();
        Objects.requireNonNull(selection, "selection");
        requireDt("runPhase", dt);
        int[] leaves = phases.leaves(selection);
        enter(dispatchDepth > 0 ? active : compiled());
        boolean ok = false;
        try {
            runLeaves(leaves, dt);
            ok = true;
        } finally {
            exit(ok);
        }
    }

    private void enter(Schedule schedule) {
        if (dispatchDepth == 0) {
            active = schedule;
        }
        dispatchDepth++;
        scope.hold();
    }

    private void exit(boolean ok) {
        if (--dispatchDepth == 0) {
            active = null;
        }
        if (!world.isClosed()) {
            scope.release(ok); // the outermost release publishes: callbacks then see no dispatch running
        }
    }

    private void runLeaves(int[] leaves, double dt) {
        for (int leaf : leaves) {
            if (world.isClosed()) {
                return;
            }
            if (phases.isEnabled(leaf)) {
                runLeaf(leaf, dt);
            }
        }
    }

    private void runLeaf(int leaf, double dt) {
        SystemEntry[] list = active.systems(leaf);
        for (int i = 0; i < list.length; ) {
            if (!phases.isEnabled(leaf) || world.isClosed()) {
                break; // a system disabled this phase (or closed the world): the rest of it does not run
            }
            SystemEntry system = list[i];
            if (!system.enabled || system.removed) {
                i++;
            } else if (system.parallel != null) {
                i = runParallelGroup(list, i, dt);
            } else {
                runSystem(system, dt);
                i++;
            }
        }
        if (!world.isClosed()) {
            scope.barrier(); // the phase barrier
        }
    }

    private void runSystem(SystemEntry system, double dt) {
        if (system.commitBefore) {
            scope.barrier();
        }
        SystemEntry outer = running;
        boolean outerRequest = commitRequested;
        running = system;
        commitRequested = false;
        boolean requested;
        try {
            RunIf condition = system.runIf;
            if (condition == null || condition.test(dt, world, system.name)) {
                system.body.run(dt, world); // a sequential system (parallel ones run in groups)
            }
        } finally {
            requested = commitRequested; // dropped when the body or condition threw
            running = outer;
            commitRequested = outerRequest;
        }
        if ((requested || system.commitAfter) && !world.isClosed()) {
            scope.barrier();
        }
    }

    /**
     * Runs the parallel system at {@code list[start]} with the parallel systems that follow it and conflict with
     * no member (disabled ones are passed over; a sequential system, a {@code commitBefore} or a conflict ends the
     * group, a {@code commitAfter} ends it after its system). Run conditions are asked on this thread, in order,
     * before any body starts. Returns the index after the group.
     */
    private int runParallelGroup(SystemEntry[] list, int start, double dt) {
        SystemEntry first = list[start];
        if (first.commitBefore) {
            scope.barrier();
        }
        int n = 0;
        int end = start;
        group = ensure(group, 1);
        group[n++] = first;
        end++;
        boolean closing = first.commitAfter;
        while (!closing && end < list.length) {
            SystemEntry next = list[end];
            if (!next.enabled || next.removed) {
                end++;
                continue;
            }
            if (next.parallel == null || next.commitBefore || conflicts(next, n)) {
                break;
            }
            group = ensure(group, n + 1);
            group[n++] = next;
            end++;
            closing = next.commitAfter;
        }
        int runnable = 0;
        boolean requested = false;
        SystemEntry outer = running;
        boolean outerRequest = commitRequested;
        try {
            for (int k = 0; k < n; k++) { // run conditions: this thread, member order
                SystemEntry member = group[k];
                running = member;
                commitRequested = false;
                RunIf condition = member.runIf;
                boolean runs = condition == null || condition.test(dt, world, member.name);
                requested |= commitRequested;
                if (runs) {
                    group[runnable++] = member;
                }
            }
        } finally {
            running = outer;
            commitRequested = outerRequest;
        }
        if (runnable > 0) {
            parallelSystems().run(group, runnable, dt, world);
        }
        java.util.Arrays.fill(group, 0, n, null);
        if ((requested || closing) && !world.isClosed()) {
            scope.barrier();
        }
        return end;
    }

    private boolean conflicts(SystemEntry candidate, int n) {
        for (int k = 0; k < n; k++) {
            if (candidate.conflictsWith(group[k])) {
                return true;
            }
        }
        return false;
    }

    private static SystemEntry[] ensure(SystemEntry[] array, int size) {
        return size <= array.length ? array : java.util.Arrays.copyOf(array, Math.max(size, array.length * 2));
    }

    private ParallelSystems parallelSystems() {
        if (parallel == null) {
            parallel = new ParallelSystems(systemThreads);
        }
        return parallel;
    }

    /** Stops the worker threads of the parallel systems, if any were started. */
    @Override
    public void close() {
        scope.checkThread();
        if (parallel != null) {
            parallel.close();
        }
    }

    private Schedule compiled() {
        if (next == null) {
            next = Schedule.compile(phases, systems.values());
        }
        return next;
    }

    private static void requireDt(String operation, double dt) {
        if (!(dt >= 0) || Double.isInfinite(dt)) {
            throw new IllegalArgumentException(operation + ": dt=" + dt + " must be non-negative and finite");
        }
    }

    // ---------------------------------------------------------------- systems

    /**
     * Registers a system; it first runs in the next external dispatch.
     *
     * @throws IllegalArgumentException when the config has no body, its phase is not a registered leaf, or its
     *     explicit name is taken (nothing is registered)
     */
    @Override
    public String addSystem(SystemConfig config) {
        scope.checkThread();
        Objects.requireNonNull(config, "config");
        String label = config.name() != null ? config.name() : "<unnamed>";
        if (config.body() == null && config.parallelBody() == null) {
            throw new IllegalArgumentException("system " + label + " has no body; give it one with run(...) or "
                    + "parallel(...)");
        }
        if (config.query() != null) {
            world.requireOwnQuery(config.query());
        }
        int phaseId = phases.requireLeaf(config.phase());
        String name = config.name();
        if (name != null && systems.containsKey(name)) {
            throw new IllegalArgumentException("a system named " + name + " is already registered (in phase "
                    + systems.get(name).phase + ")");
        }
        if (name == null) {
            do {
                name = "system#" + ++generatedNames;
            } while (systems.containsKey(name));
        }
        systems.put(name, new SystemEntry(name, phaseId, config));
        next = null;
        return name;
    }

    /** Unregisters a system; a running dispatch skips it from now on. Returns whether it existed. */
    @Override
    public boolean removeSystem(String name) {
        scope.checkThread();
        SystemEntry system = systems.remove(Objects.requireNonNull(name, "name"));
        if (system == null) {
            return false;
        }
        system.removed = true;
        next = null;
        return true;
    }

    /**
     * Swaps a system's body in place, with effect at once (a running dispatch calls the new body when it reaches
     * the system); name, phase, place, edges, run condition, barriers and enabled state stay, and the schedule is
     * not recompiled. False when no system has this name (nothing changes).
     */
    @Override
    public boolean replaceSystemBody(String name, SystemBody body) {
        scope.checkThread();
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(body, "body");
        SystemEntry system = systems.get(name);
        if (system == null) {
            return false;
        }
        if (system.parallel != null) {
            throw new IllegalArgumentException("replaceSystemBody(" + name + "): a parallel system's body runs on "
                    + "workers; remove it and register a new one");
        }
        system.body = body;
        return true;
    }

    /** Turns a system on or off, with effect at once; its place and edges stay. False when it does not exist. */
    @Override
    public boolean setSystemEnabled(String name, boolean enabled) {
        scope.checkThread();
        SystemEntry system = systems.get(Objects.requireNonNull(name, "name"));
        if (system == null) {
            return false;
        }
        system.enabled = enabled;
        return true;
    }

    /**
     * The systems of the next schedule (during a dispatch, not necessarily the running one) in dispatch order.
     *
     * @throws ScheduleCycleException when a phase's constraints cycle
     */
    @Override
    public List<SystemInfo> listSystems() {
        scope.checkThread();
        Schedule schedule = compiled();
        List<SystemInfo> infos = new ArrayList<>(systems.size());
        for (PhaseRegistry.Node node : phases.inPositionOrder()) {
            for (SystemEntry system : schedule.systems(node.id())) {
                infos.add(new SystemInfo(system.name, system.phase, infos.size(), system.enabled,
                        system.runIf != null));
            }
        }
        return List.copyOf(infos);
    }

    @Override
    public int systemCount() {
        scope.checkThread();
        return systems.size();
    }

    // ---------------------------------------------------------------- phases

    /**
     * Registers a custom phase or tree.
     *
     * @throws IllegalStateException while a dispatch runs
     * @throws IllegalArgumentException for a taken name, an unknown or repeated child, or a bad position
     */
    @Override
    public void registerPhase(PhaseDefinition definition) {
        scope.checkThread();
        Objects.requireNonNull(definition, "definition");
        if (dispatchDepth > 0) {
            throw new IllegalStateException("registerPhase(" + definition.phase() + "): not allowed while systems "
                    + "are running (from " + running + ")");
        }
        phases.register(definition);
        next = null;
    }

    @Override
    public List<Phase> leafPhases() {
        scope.checkThread();
        List<Phase> leaves = new ArrayList<>();
        for (PhaseRegistry.Node node : phases.inPositionOrder()) {
            if (node.isLeaf()) {
                leaves.add(node.phase());
            }
        }
        return List.copyOf(leaves);
    }

    @Override
    public void restoreFixedAccumulator(double seconds) {
        scope.checkThread();
        clock.restoreAccumulator(seconds);
    }

    @Override
    public void enablePhase(PhaseSelection selection) {
        scope.checkThread();
        phases.setEnabled(Objects.requireNonNull(selection, "selection"), true);
    }

    @Override
    public void disablePhase(PhaseSelection selection) {
        scope.checkThread();
        phases.setEnabled(Objects.requireNonNull(selection, "selection"), false);
    }

    @Override
    public boolean isPhaseEnabled(Phase phase) {
        scope.checkThread();
        return phases.isEnabled(Objects.requireNonNull(phase, "phase"));
    }

    // ---------------------------------------------------------------- commits and timing

    /**
     * Inside a running system's body or run condition, asks for one barrier after it returns (requests
     * coalesce); anywhere else, publishes at once unless a scope is open or a publication is running.
     */
    @Override
    public void enqueueCommit() {
        scope.checkThread();
        if (running != null) {
            commitRequested = true;
        } else {
            scope.barrier();
        }
    }

    @Override
    public FixedTiming fixedTiming() {
        scope.checkThread();
        return clock.timing();
    }

    @Override
    public long fixedStepCount() {
        scope.checkThread();
        return clock.stepCount();
    }

    @Override
    public double fixedTimeDropped() {
        scope.checkThread();
        return clock.timeDropped();
    }

    @Override
    public long fixedStepsDropped() {
        scope.checkThread();
        return clock.stepsDropped();
    }
}
