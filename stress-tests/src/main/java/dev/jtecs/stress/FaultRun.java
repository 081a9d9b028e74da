package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.CHILD_OF;
import static dev.jtecs.stress.ModelComponents.FOLLOWS;
import static dev.jtecs.stress.ModelComponents.HEALTH;
import static dev.jtecs.stress.ModelComponents.HELD_BY;
import static dev.jtecs.stress.ModelComponents.KEY;
import static dev.jtecs.stress.ModelComponents.LEVEL;
import static dev.jtecs.stress.ModelComponents.MARKED;
import static dev.jtecs.stress.ModelComponents.POSITION;
import static dev.jtecs.stress.ModelComponents.WATCHES;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.Input;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.AllocationFaults;
import dev.jtecs.event.ArchetypeCreated;
import dev.jtecs.event.OnDespawn;
import dev.jtecs.event.OnSpawn;
import dev.jtecs.event.StateBlur;
import dev.jtecs.event.StateEnter;
import dev.jtecs.event.StateExit;
import dev.jtecs.event.StateFocus;
import dev.jtecs.kernels.KernelColumns;
import dev.jtecs.kernels.WritePolicy;
import dev.jtecs.kernels.parallel.ChunkCommands;
import dev.jtecs.kernels.parallel.CommandKernel;
import dev.jtecs.kernels.parallel.ParallelKernelRunner;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.schedule.FixedTiming;
import dev.jtecs.schedule.Phase;
import dev.jtecs.schedule.PhaseDefinition;
import dev.jtecs.schedule.PhaseSelection;
import dev.jtecs.schedule.Phases;
import dev.jtecs.schedule.Pipeline;
import dev.jtecs.schedule.Scheduler;
import dev.jtecs.schedule.SystemBody;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.schedule.SystemInfo;
import dev.jtecs.snapshot.SnapshotBuffer;
import dev.jtecs.snapshot.SnapshotOptions;
import dev.jtecs.state.StateOperation;
import dev.jtecs.state.StatePolicy;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.EntityObserver;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.storage.IntColumn;
import dev.jtecs.mutation.BatchIds;
import dev.jtecs.mutation.SpawnQueue;
import dev.jtecs.world.Bundle;
import dev.jtecs.world.BundleDefinition;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ForkJoinPool;

/**
 * One seeded fault-injection run: a random stream of structural calls, batches, commits and frames against a
 * world whose every callback point can throw, with the throw armed by the seed at random operations and random
 * invocations within them (so it lands in any wave of a publication).
 *
 * <p>Callback points: {@code OnSpawn} and {@code OnDespawn} observers (at the world and at entities, cascade
 * despawns included), query membership callbacks (added and removed), a membership callback that stages more work
 * (a further wave), batch initializers and batch writers, system bodies, run conditions, a default-value factory,
 * {@code ArchetypeCreated} observers, a raw {@code EntityObserver} attached to every archetype (row moves,
 * activation, deactivation), a query's {@code groupBy}, a managed record's canonical constructor (run for each copy a
 * batch set makes) and its accessor (read by that copy, and by a snapshot save as it encodes the value), the first of
 * two observers of an emitted event (the second must still hear it), a query visitor that spawns, despawns and sets
 * inside its visit (a throw ends the visit's scope and leaves the staged work for {@code unwind()}, which must publish
 * it), observers of the four state events while a {@code pushState} or {@code popState} runs, a bundle's per-entity
 * value factories, the pipeline factory of a side world being created (and the pipeline it made, as the builtin
 * systems register through it), a kernel chunk on the parallel runner's worker threads, and the default of a managed
 * component that only the run's spawn queues name (made per entity as a publication places a queue's rows; one
 * spawn operation in four goes through a queue). The engine's own native allocations and heap-array growths fail
 * too, at the k-th of an operation. After every fault the run recovers the
 * documented way ({@code world.unwind()}) and checks:
 *
 * <ul>
 *   <li>the {@link WorldInvariants} (dense rows resolving to their ids, indexes, keys, query membership as the
 *       engine and as the non-throwing callbacks report it, relationship markers and reverse indexes);
 *   <li>the facts the fault point implies: rows whose {@code onEntitiesAdded} threw were published and stay;
 *       rows whose {@code onEntitiesRemoved} threw did not leave; a spawn batch whose initializer threw placed no
 *       row; a spawn or despawn whose observer threw stays staged and {@code unwind()} publishes it; a transition
 *       completes whatever throws in it (the stack it promises, and after a state observer's throw exactly the
 *       fault-free world); a bundle spawn whose factory threw delivered no {@code OnSpawn} and left no entity; a
 *       failed {@code World.create} holds no native memory (the world its factory saw is closed) and the same
 *       config then makes a world; a save that threw changed nothing; a kernel pass that threw applied none of its
 *       requests, wrote only rows of chunks that started (the rows before the failing one, not it), and marked
 *       {@code Position} dirty exactly on the archetypes where a chunk started; a queue's spawn whose own
 *       {@code OnSpawn} observer threw is published by {@code unwind()} as the queue starts an entity (its
 *       {@code set} calls never ran), otherwise as without the fault;
 *   <li>against the same run replayed with this one fault suppressed (the fault-free publication): every entity
 *       is, component by component, as before the operation (discarded) or as the fault-free run left it
 *       (published), never anything else.
 * </ul>
 *
 * <p>Then the run goes on, so the world must keep working: every later operation, fault and check runs on the
 * recovered world. The oracle for "published or discarded" is the engine itself, replayed from the seed without
 * the one fault, rather than {@link ReferenceWorld}: the reference model predicts failing batch initializers and
 * writers (which {@link ModelRun} compares), but not where a throwing observer or membership callback cuts a
 * publication short, nor the settlement that the next publication then runs. The seed also picks the instant or
 * the staged path. A run given only {@link #FIRST_POINTS} draws the stream the seed drew before the later points
 * (states, bundles, pipeline factories, record accessors, kernels) were armed.
 * A failure throws {@link ModelMismatch} with the seed and the last operations: {@code new FaultRun(seed,
 * operations).run()} replays it.
 */
public final class FaultRun {
    /** The callback points a fault can be injected at. */
    public enum Point {
        ON_SPAWN, ON_DESPAWN, ON_DESPAWN_AT_ENTITY, ADDED, REMOVED, REACTIVE, BATCH_INITIALIZER, BATCH_WRITER,
        SYSTEM_BODY, RUN_CONDITION, DEFAULT_FACTORY, ARCHETYPE_CREATED,
        /** A raw {@link EntityObserver} on every archetype: onEntityMove, onActivated, onDeactivated. */
        RAW_OBSERVER,
        /** A persistent query's {@code groupBy}, called as each archetype is created. */
        GROUP_BY,
        /** A managed record's canonical constructor, run as a batch set copies the value per entity. */
        RECORD_CONSTRUCTOR,
        /** The first of two world observers of an emitted event (the second must still hear it). */
        EMIT,
        /** A query visitor that spawns, despawns and sets (staged in the visit's scope) and throws part way. */
        VISITOR,
        /**
         * An observer of the state events ({@code StateEnter}, {@code StateExit}, {@code StateBlur},
         * {@code StateFocus}) while a push or a pop runs: the transition must still complete, as without the fault.
         */
        STATE_OBSERVER,
        /**
         * A bundle's per-entity value factory (what writes its defaulted values), run before the bundle's spawn: the
         * spawn must leave nothing behind.
         */
        BUNDLE_FACTORY,
        /**
         * The pipeline factory of a world being created, and the pipeline it made while the builtin systems
         * register: {@code World.create} must throw with nothing held.
         */
        PIPELINE_FACTORY,
        /**
         * A managed record's accessor, read by the engine as a batch set copies the value per entity, and as a
         * snapshot save encodes it (which must change nothing).
         */
        RECORD_ACCESSOR,
        /**
         * A chunk of a kernel on the parallel runner (on a worker thread when the pass has several units): what the
         * chunks wrote stays, marked dirty, and none of their structural requests is applied.
         */
        KERNEL,
        /**
         * A native record's accessor ({@code ModelComponents.Position.y()} and {@code Velocity.dy()}), which the engine's writer calls for
         * every value it stores into columns: on a set that writes through (nothing may change) and as a
         * publication writes a staged row (judged as a publication fault).
         */
        NATIVE_ACCESSOR,
        /**
         * The body of one of two parallel systems (run on the world's worker threads during an {@code update}),
         * after it made its structural requests: the requests of the systems before it in system order apply,
         * its own and those after it are dropped, and the world stays usable.
         */
        PARALLEL_BODY,
        /**
         * The default factory of {@link #PRIMER}, a managed component only the run's spawn queues name: a queue makes
         * that default per entity as the publication places its queued rows, so a throw there fails the
         * publication (the queued spawns are discarded with the rest of the unpublished wave).
         */
        QUEUE_DEFAULT,
        /** The k-th native buffer the operation allocates fails ({@link AllocationFaults}). */
        NATIVE_ALLOCATION,
        /** The k-th growth of one of the engine's heap arrays during the operation fails. */
        HEAP_GROWTH
    }

    /** The exception an armed callback throws. */
    public static final class InjectedFault extends RuntimeException {
        private static final long serialVersionUID = 1L;

        final Point point;
        /** An allocation that failed inside a publication (the drain was on the stack): judged as such a fault. */
        boolean inPublication;

        InjectedFault(Point point, int step) {
            super("injected fault at " + point + " in operation #" + step, null, false, false);
            this.point = point;
        }
    }

    /** A managed value whose default factory is a callback point. */
    public record Fuse(int charge) {}

    private static final ThreadLocal<FaultRun> CURRENT = new ThreadLocal<>();

    /** A callback point reached by a default factory: a fault point while a run is on this thread. */
    private static void defaultMade(Point point) {
        FaultRun run = CURRENT.get();
        if (run != null) {
            run.point(point);
        }
    }

    public static final ManagedComponent<Fuse> FUSE = Components.registerManaged(Fuse.class,
            o -> o.name("stress.fault.Fuse").defaults(() -> {
                defaultMade(Point.DEFAULT_FACTORY);
                return new Fuse(1);
            }));
    /**
     * A managed record whose canonical constructor and accessor are callback points: the engine runs both for
     * every copy a batch set makes ({@code RecordCopier}: the accessor feeds the constructor), and the accessor for
     * every value a snapshot save encodes; the run's own constructions ({@link #charge}) do not arm them.
     */
    public record Charge(int level) {
        public Charge {
            FaultRun run = CURRENT.get();
            if (run != null && !run.building) {
                run.point(Point.RECORD_CONSTRUCTOR);
            }
        }

        public int level() {
            FaultRun run = CURRENT.get();
            if (run != null && !run.building) {
                run.point(Point.RECORD_ACCESSOR);
            }
            return level;
        }
    }

    public static final ManagedComponent<Charge> CHARGE = Components.registerManaged(Charge.class,
            o -> o.name("stress.fault.Charge"));

    /** A managed value that only the spawn queues' shapes name; its default factory is a callback point. */
    public record Primer(int charge) {}

    public static final ManagedComponent<Primer> PRIMER = Components.registerManaged(Primer.class,
            o -> o.name("stress.fault.Primer").defaults(() -> {
                defaultMade(Point.QUEUE_DEFAULT);
                return new Primer(2);
            }));

    /** The position a queue's spawn starts with, before its {@code set} calls write its own. */
    private static final ModelComponents.Position QUEUE_START = new ModelComponents.Position(5, 6);

    /**
     * The shapes of the run's spawn queues ({@link #spawnThroughQueue}): each names {@link #PRIMER}, whose default the
     * queue makes per entity at publication; the second also names {@code Fuse}, whose default factory is the
     * {@link Point#DEFAULT_FACTORY} point, there run inside the publication too.
     */
    private static final List<List<Input>> QUEUE_SHAPES = List.of(
            List.of(POSITION.of(QUEUE_START), LEVEL.of(3), PRIMER),
            List.of(POSITION.of(QUEUE_START), MARKED, FUSE, PRIMER));

    /** A custom event emitted at the world, heard by two observers (the first a callback point). */
    public record Ping(int step) {}

    /** Marks the entities a reactive callback spawned. */
    public static final Component<?> ECHO = Components.tag("stress.fault.Echo");

    private static final int LOG_TAIL = Integer.getInteger("jtecs.modelLogTail", 40);
    /**
     * {@code -Djtecs.faultDebugStep=<n>} prints the world after operation n (of the run and of its replay) and where
     * its fault was thrown.
     */
    private static final int DEBUG_STEP = Integer.getInteger("jtecs.faultDebugStep", -1);
    private static final List<Class<?>> OBSERVED = List.of(OnDespawn.class);

    /**
     * The points (and so the operations) of the runs before states, bundles, pipeline factories, record accessors
     * and kernels were armed: a run given only these draws exactly the stream it drew then, so the seeds found
     * before still replay what they found.
     */
    public static final Set<Point> FIRST_POINTS = Collections.unmodifiableSet(EnumSet.complementOf(EnumSet.of(
            Point.STATE_OBSERVER, Point.BUNDLE_FACTORY, Point.PIPELINE_FACTORY, Point.RECORD_ACCESSOR, Point.KERNEL,
            Point.QUEUE_DEFAULT)));

    /**
     * Every point but {@link Point#NATIVE_ACCESSOR} and {@link Point#PARALLEL_BODY}: a run given these draws the
     * stream the seed drew before native accessors and parallel systems were armed.
     */
    public static final Set<Point> BEFORE_NATIVE_ACCESSOR = Collections.unmodifiableSet(
            EnumSet.complementOf(EnumSet.of(Point.NATIVE_ACCESSOR, Point.PARALLEL_BODY, Point.QUEUE_DEFAULT)));

    /**
     * Every point but {@link Point#QUEUE_DEFAULT}: a run given these draws the stream the seed drew before spawn
     * queues were driven ({@link #spawnThroughQueue}).
     */
    public static final Set<Point> BEFORE_SPAWN_QUEUES = Collections.unmodifiableSet(
            EnumSet.complementOf(EnumSet.of(Point.QUEUE_DEFAULT)));

    /**
     * The hook of {@code ModelComponents.Position.y()} and {@code Velocity.dy()}: a fault point while a run (not the run's own code) is on
     * this thread.
     */
    static void nativeAccessor() {
        FaultRun run = CURRENT.get();
        if (run != null && !run.building) {
            run.point(Point.NATIVE_ACCESSOR);
        }
    }

    /** The two states: a game that pauses under a menu and is disabled off the stack, a menu that dies with it. */
    static final String GAME = "stress.fault.game";
    static final String MENU = "stress.fault.menu";
    private static final StatePolicy GAME_POLICY = StatePolicy.pauseOnBlur().toBuilder()
            .onEnter(StateOperation.ENABLE).onExit(StateOperation.DISABLE).build();
    private static final StatePolicy MENU_POLICY = StatePolicy.despawnOnExit().toBuilder()
            .onBlur(StateOperation.DISABLE).onFocus(StateOperation.ENABLE).build();
    /** The column the kernel writes. */
    private static final FloatField X = POSITION.floatField("x");
    private static final FloatField Y = POSITION.floatField("y");
    /**
     * The workers every run's kernels share (runs borrow it, one pass at a time): a pool of two, so a pass of
     * several units runs its chunks on the calling thread and a worker.
     */
    private static final ForkJoinPool WORKERS = new ForkJoinPool(2);
    /** The smallest chunk the runner cuts: 64 rows, so the run's few hundred rows make several units. */
    private static final int CHUNK_ROWS = 64;

    private final long seed;
    private final int operations;
    private final int suppressedStep;
    private final Set<Point> points;
    private final List<Point> callbackPoints;
    /** Whether a point after {@link #FIRST_POINTS} is armed: its operations then join the stream. */
    private final boolean laterOperations;
    private final SplittableRandom random;
    private final boolean instant;
    private final List<Long> seen = new ArrayList<>();
    private final Set<Long> seenSet = new HashSet<>();
    private final Deque<String> log = new ArrayDeque<>();
    private final Map<Point, Integer> fired = new EnumMap<>(Point.class);
    private final Set<Long> trackedPositions = new TreeSet<>();
    private final Set<Long> trackedLevels = new TreeSet<>();
    private World world;
    private Query positions;
    private Query levels;
    private Query marked;
    private int step;
    private Point armed;
    private int countdown;
    private long spawnedByObserver;
    /** True while the run itself constructs a {@link Charge} (no fault point). */
    private boolean building;
    /** How many {@link Ping}s the second, non-throwing observer heard. */
    private long pings;
    private Query grouped;
    /** What the visitor staged before it threw: "spawn id", "despawn id", "health id value". */
    private final List<String> visitStaged = new ArrayList<>();
    private final List<String> facts = new ArrayList<>();
    private long replays;
    private long cascadeFaults;
    /** Entities spawned through the run's spawn queues, and faults that struck during a queue operation. */
    private long queueSpawnCount;
    private long queueFaults;
    /** Queue spawns whose own OnSpawn observer threw, checked by {@link #checkQueueSpawnAsStarted}. */
    private long queueSpawnsStarted;
    private long checks;
    /** The world as before the operation running (taken when a fault is armed for it, in the checked run). */
    private WorldDump opBefore;
    /** The stack a transition promises, whatever throws inside it (docs/states.md). */
    private List<String> promisedStack;
    /** The transition running: the state pushed (null for a pop), the state leaving (a pop), and the state below. */
    private String transitionPushed;
    private String transitionLeaving;
    private String transitionOther;
    /** State events delivered in this operation, and as many and the stack when a callback point threw. */
    private int stateEvents;
    private int stateEventsAtFault;
    private List<String> stackAtFault;
    /** While a transition's fault is compared: the operations it ran after the faulting step. */
    private Map<String, StateOperation> laterSteps = Map.of();
    /** The operation's fault was an allocation that failed inside a push or pop (see laterStepsOfFault). */
    private boolean allocationInTransition;
    /** The stack the fault-free replay ended with (set by {@link #replayThrough}). */
    private List<String> finalStack;
    private Bundle crate;
    /**
     * Every edge the run gave each entity, as the dump writes it (a spawn's input or a set): a row published
     * before a fault may get its sparse edges after it (see {@link #comparePublished}).
     */
    private final Map<Long, Set<String>> edgesGiven = new HashMap<>();
    /** The same edges, those of cascading relationships: their sources owe a despawn when the target dies. */
    private final Map<Long, List<dev.jtecs.component.RelationshipValue>> cascadesGiven = new HashMap<>();
    /** The inputs of the spawn running, until its OnSpawn records their edges. */
    private Input[] spawnInputs;
    /** OnSpawn events delivered so far, and the ids a bundle operation spawned before its factory threw. */
    private long spawnEvents;
    private final List<Long> bundleSpawned = new ArrayList<>();
    private int entitiesBeforeBundle;
    private ParallelKernelRunner kernels;
    private final Nudge nudge = new Nudge();
    private long kernelFaultsOnWorkers;
    private SnapshotBuffer snapshotBuffer;
    /** True while a side world is being created: its pipeline's registrations are a callback point then. */
    private boolean creatingSideWorld;
    private long sideWorlds;

    /** A run of {@code operations} operations; the seed picks the path, the operations and the faults. */
    public FaultRun(long seed, int operations) {
        this(seed, operations, EnumSet.allOf(Point.class));
    }

    /**
     * A run that arms only {@code points} and runs only the operations they need ({@link #FIRST_POINTS}: the
     * stream the seed drew before the later points existed).
     */
    public FaultRun(long seed, int operations, Set<Point> points) {
        this(seed, operations, -1, points);
    }

    private FaultRun(long seed, int operations, int suppressedStep, Set<Point> points) {
        this.seed = seed;
        this.operations = operations;
        this.suppressedStep = suppressedStep;
        this.points = Collections.unmodifiableSet(EnumSet.copyOf(points));
        this.callbackPoints = CALLBACK_POINTS.stream().filter(this.points::contains).toList();
        this.laterOperations = !FIRST_POINTS.containsAll(this.points);
        this.random = new SplittableRandom(seed);
        this.instant = random.nextBoolean();
    }

    /** Runs the whole stream, checking after every fault and every few operations; returns the faults fired. */
    public int run() {
        FaultRun previous = CURRENT.get();
        CURRENT.set(this);
        try (World created = World.create(worldConfig())) {
            world = created;
            install();
            if (!instant) {
                world.defer();
            }
            for (step = 0; step < operations; step++) {
                operate();
                if (step % 16 == 15) {
                    checkInvariants("periodic check");
                }
            }
            armed = null;
            world.unwind();
            checkInvariants("end of run");
            return fired.values().stream().mapToInt(Integer::intValue).sum();
        } finally {
            closeHelpers();
            CURRENT.set(previous);
        }
    }

    /** The run's world: two system threads when parallel systems are armed (their bodies run on workers). */
    private WorldConfig worldConfig() {
        WorldConfig config = WorldConfig.defaults().maxEntities(1 << 14);
        return points.contains(Point.PARALLEL_BODY) ? config.systemThreads(2) : config;
    }

    /**
     * Which of the two parallel systems throws in the current {@code update} (0 or 1), or -1: set on the world's
     * thread before the update, read by the bodies on the workers.
     */
    private volatile int parallelFailing = -1;

    /**
     * The two parallel systems of a run that arms {@link Point#PARALLEL_BODY}, in one group of
     * {@code PRE_UPDATE} (they declare no conflicting components; the phase's barrier publishes their requests
     * before the other systems run, so a fault in a later system leaves their work explained): each asks for a structural change of the first row of its query's first
     * archetype, then throws when it is the one chosen.
     */
    private void installParallelSystems() {
        world.addSystem(SystemConfig.named("stress.fault.parallelHealer").phase(Phases.PRE_UPDATE)
                .reads(LEVEL).parallel(levels, (dt, archetypes, commands) -> {
                    if (!archetypes.isEmpty()) {
                        healerAsked = archetypes.get(0).entity(0);
                        commands.set(healerAsked, HEALTH.of(HEALED));
                    }
                    parallelFault(0);
                }));
        world.addSystem(SystemConfig.named("stress.fault.parallelMarker").phase(Phases.PRE_UPDATE)
                .reads(POSITION).parallel(positions, (dt, archetypes, commands) -> {
                    if (!archetypes.isEmpty()) {
                        Archetype last = archetypes.get(archetypes.size() - 1);
                        commands.set(last.entity(last.count() - 1), MARKED);
                    }
                    parallelFault(1);
                }));
    }

    /** The health the first parallel system asks for, and the entity it asked it for in the last update. */
    private static final double HEALED = 77.0;
    private volatile long healerAsked;
    /** The parallel system that threw in this operation, or -1. */
    private int parallelFailed = -1;

    private void parallelFault(int system) {
        if (parallelFailing == system) {
            throw new InjectedFault(Point.PARALLEL_BODY, step);
        }
    }

    /** The kernel runner and the snapshot buffer live as long as the run's world. */
    private void closeHelpers() {
        if (kernels != null) {
            kernels.close();
            kernels = null;
        }
        if (snapshotBuffer != null) {
            snapshotBuffer.close();
            snapshotBuffer = null;
        }
    }

    /** Replays the stream up to and including {@code last}, whose fault is suppressed, then publishes everything. */
    private WorldDump replayThrough(int last) {
        FaultRun previous = CURRENT.get();
        CURRENT.set(this);
        try (World created = World.create(worldConfig())) {
            world = created;
            install();
            if (!instant) {
                world.defer();
            }
            for (step = 0; step <= last; step++) {
                operate();
            }
            armed = null;
            world.unwind();
            finalStack = world.listStates();
            return dump();
        } finally {
            closeHelpers();
            CURRENT.set(previous);
        }
    }

    /** The same run replayed through the current operation with its one fault suppressed, then published. */
    private FaultRun faultFree() {
        replays++;
        FaultRun replay = new FaultRun(seed, operations, step, points);
        replay.replayDump = replay.replayThrough(step);
        return replay;
    }

    /**
     * The run replayed through the operation before this one (its faults as they were), then published: the world
     * had this operation done nothing. Computed once per comparison, into {@code cache}, when first needed.
     */
    private WorldDump withoutOperation(WorldDump[] cache) {
        if (cache[0] == null) {
            replays++;
            cache[0] = new FaultRun(seed, operations, step, points).replayThrough(step - 1);
        }
        return cache[0];
    }

    /** What {@link #faultFree} left: the world's entities, and {@link #finalStack}. */
    private WorldDump replayDump;

    /** How many faults fired at each point. */
    public Map<Point, Integer> fired() {
        return fired;
    }

    public boolean instant() {
        return instant;
    }

    /** How many fault-free replays the oracle ran. */
    public long replays() {
        return replays;
    }

    /** How many faults fired in an {@code OnDespawn} observer of a cascade despawn (not the despawned id). */
    public long cascadeFaults() {
        return cascadeFaults;
    }

    /** How many entities the run spawned through its spawn queues ({@link #spawnThroughQueue}). */
    public long queueSpawns() {
        return queueSpawnCount;
    }

    /**
     * How many faults struck during a queue operation: its spawns and their {@code set} calls, and the queue's
     * creation the first time (the faults of its spawns' publication at a later commit are not counted).
     */
    public long queueFaults() {
        return queueFaults;
    }

    /** How many queue spawns whose own {@code OnSpawn} observer threw were checked as the queue starts them. */
    public long queueSpawnsStarted() {
        return queueSpawnsStarted;
    }

    /** How many faults were armed (an armed fault fires only when its operation reaches the point). */
    public long armed() {
        return armedCount;
    }

    private long armedCount;

    /** How many full invariant checks passed. */
    public long checks() {
        return checks;
    }

    /** How many {@link Point#KERNEL} faults were thrown on a worker thread (the rest on the calling thread). */
    public long kernelFaultsOnWorkers() {
        return kernelFaultsOnWorkers;
    }

    /** How many side worlds the run created (each with a pipeline factory), failed creations included. */
    public long sideWorlds() {
        return sideWorlds;
    }

    // ---------------------------------------------------------------- the world and its callback points

    private void install() {
        EntityObserver raw = new EntityObserver() {
            @Override
            public void onEntityMove(Archetype archetype, long entity, int fromRow, int toRow) {
                point(Point.RAW_OBSERVER);
            }

            @Override
            public void onActivated(Archetype archetype) {
                point(Point.RAW_OBSERVER);
            }

            @Override
            public void onDeactivated(Archetype archetype) {
                point(Point.RAW_OBSERVER);
            }
        };
        world.forEachArchetype(archetype -> archetype.addEntityObserver(raw));
        world.observe(Entity.WORLD, ArchetypeCreated.class, event -> {
            event.archetype().addEntityObserver(raw); // before the point: every archetype gets it
            point(Point.ARCHETYPE_CREATED);
        });
        world.observe(Entity.WORLD, Ping.class, event -> point(Point.EMIT));
        world.observe(Entity.WORLD, Ping.class, event -> pings++);
        grouped = world.newQuery(QueryDescriptor.builder().name("grouped").includeAny(POSITION, LEVEL, HEALTH)
                .groupBy(archetype -> {
                    point(Point.GROUP_BY);
                    return archetype.id() % 3;
                }).build());
        world.observe(Entity.WORLD, OnSpawn.class, event -> {
            spawnEvents++;
            if (firstSpawn == 0) {
                firstSpawn = event.entity();
                if (spawnInputs != null) {
                    recordEdges(event.entity(), spawnInputs);
                    spawnInputs = null;
                }
            }
            spawnedByObserver = event.entity();
            if (awaitingQueueSpawn) { // the first OnSpawn of a queue's spawn() is its own
                awaitingQueueSpawn = false;
                queueSpawned = event.entity();
            }
            saw(event.entity());
            point(Point.ON_SPAWN);
        });
        world.observe(Entity.WORLD, OnDespawn.class, event -> {
            despawning = event.entity();
            point(Point.ON_DESPAWN);
        });
        positions = world.newQuery(QueryDescriptor.builder().name("positions").include(POSITION)
                .onEntitiesAdded((archetype, from, to) -> track(trackedPositions, archetype, from, to, true))
                .onEntitiesRemoved((archetype, from, to) -> track(trackedPositions, archetype, from, to, false))
                .build());
        world.newQuery(QueryDescriptor.builder().name("faulty").include(HEALTH)
                .onEntitiesAdded((archetype, from, to) -> faultyMembership(Point.ADDED, archetype, from, to))
                .onEntitiesRemoved((archetype, from, to) -> faultyMembership(Point.REMOVED, archetype, from, to))
                .build());
        levels = world.newQuery(QueryDescriptor.builder().name("levels").include(LEVEL)
                .onEntitiesAdded((archetype, from, to) -> track(trackedLevels, archetype, from, to, true))
                .onEntitiesRemoved((archetype, from, to) -> track(trackedLevels, archetype, from, to, false))
                .build());
        marked = world.newQuery(QueryDescriptor.builder().name("reactive").include(MARKED).exclude(ECHO)
                .onEntitiesAdded((archetype, from, to) -> {
                    for (int row = from; row < to; row++) {
                        if (archetype.getValue(row, LEVEL) instanceof Integer level && level % 3 == 0) {
                            world.spawn(ECHO, LEVEL.of(level + 1)); // staged: a further wave of this commit
                        }
                    }
                    point(Point.REACTIVE);
                }).build());
        world.addSystem(SystemConfig.named("stress.fault.spawner").phase(Phases.UPDATE).commitAfter()
                .run((dt, w) -> {
                    long id = w.spawn(POSITION, HEALTH.of(dt));
                    saw(id);
                    point(Point.SYSTEM_BODY);
                }));
        world.addSystem(SystemConfig.named("stress.fault.reaper").phase(Phases.POST_UPDATE)
                .runIf((dt, w, name) -> {
                    point(Point.RUN_CONDITION);
                    return true;
                })
                .run((dt, w) -> {
                    for (Archetype archetype : marked.archetypes()) {
                        if (archetype.count() > 0) {
                            w.despawn(archetype.entity(0));
                            return;
                        }
                    }
                }));
        if (points.contains(Point.STATE_OBSERVER)) {
            world.createState(GAME, GAME_POLICY);
            world.createState(MENU, MENU_POLICY);
            world.observe(Entity.WORLD, StateEnter.class, event -> stateEvent());
            world.observe(Entity.WORLD, StateExit.class, event -> stateEvent());
            world.observe(Entity.WORLD, StateBlur.class, event -> stateEvent());
            world.observe(Entity.WORLD, StateFocus.class, event -> stateEvent());
        }
        if (points.contains(Point.BUNDLE_FACTORY)) {
            crate = world.newBundle("stress.fault.Crate", BundleDefinition.required(POSITION)
                    .with(LEVEL, () -> {
                        point(Point.BUNDLE_FACTORY);
                        return 4 + step % 5;
                    })
                    .with(HEALTH, () -> {
                        point(Point.BUNDLE_FACTORY);
                        return 50.0 + step;
                    }));
        }
        if (points.contains(Point.KERNEL)) {
            kernels = new ParallelKernelRunner(WORKERS, CHUNK_ROWS);
        }
        if (points.contains(Point.PARALLEL_BODY)) {
            installParallelSystems();
        }
    }

    /** The entity of the last {@code OnDespawn} delivered, and of the first {@code OnSpawn}, in this operation. */
    private long despawning;
    private long firstSpawn;
    /** Set while a queue's {@code spawn()} runs until its OnSpawn arrives, which names {@link #queueSpawned}. */
    private boolean awaitingQueueSpawn;
    private long queueSpawned;
    /** The run's spawn queues, by their place in {@link #QUEUE_SHAPES}; made in the run's world as first needed. */
    private final SpawnQueue[] queues = new SpawnQueue[QUEUE_SHAPES.size()];
    /** The operation running, and the entity it names ({@code spawn} and {@code despawn}; else 0). */
    private String opKind;
    private long opEntity;

    private void track(Set<Long> members, Archetype archetype, int from, int to, boolean added) {
        for (int row = from; row < to; row++) {
            if (added) {
                members.add(archetype.entity(row));
            } else {
                members.remove(archetype.entity(row));
            }
        }
    }

    private void stateEvent() {
        stateEvents++;
        point(Point.STATE_OBSERVER);
    }

    private void faultyMembership(Point point, Archetype archetype, int from, int to) {
        if (armed == point && countdown == 1 && step != suppressedStep) {
            List<Long> rows = new ArrayList<>();
            for (int row = from; row < to; row++) {
                rows.add(archetype.entity(row));
            }
            facts.add((point == Point.ADDED ? "published " : "stayed ") + archetype.id() + " " + rows);
        }
        point(point);
    }

    /** A callback point: throws when armed for it and its countdown runs out. */
    void point(Point point) {
        if (armed != point) {
            return;
        }
        if (--countdown > 0) {
            return;
        }
        armed = null;
        if (step == suppressedStep) {
            return; // the replay's fault-free publication
        }
        fired.merge(point, 1, Integer::sum);
        if (step == DEBUG_STEP && suppressedStep < 0) {
            new Throwable("fault at " + point).printStackTrace(System.out);
        }
        if (suppressedStep < 0) {
            atFault = dump(); // what was published when the callback failed
            seenAtFault = seen.size();
            stateEventsAtFault = stateEvents;
            stackAtFault = world.listStates();
        }
        InjectedFault fault = new InjectedFault(point, step);
        if (point == Point.NATIVE_ACCESSOR) { // a staged row written by the drain, or a set that writes through
            fault.inPublication = !opKind.equals("side world") && StackWalker.getInstance().walk(frames -> frames
                    .anyMatch(frame -> frame.getClassName().endsWith(".CommitDrain")
                            && frame.getMethodName().equals("runWave")));
        }
        throw fault;
    }

    /** The world as it was when the last fault was thrown, and how many ids had been handed out by then. */
    private WorldDump atFault;
    private int seenAtFault;

    /** Points that run only inside a publication: a fault there must leave exactly what was published. */
    private static final Set<Point> IN_PUBLICATION = Set.of(Point.ADDED, Point.REMOVED, Point.REACTIVE,
            Point.BATCH_INITIALIZER, Point.BATCH_WRITER, Point.RAW_OBSERVER, Point.RECORD_CONSTRUCTOR,
            Point.RECORD_ACCESSOR, Point.QUEUE_DEFAULT);

    private void saw(long id) {
        if (seenSet.add(id)) {
            seen.add(id);
        }
    }

    // ---------------------------------------------------------------- operations

    private void operate() {
        int roll = random.nextInt(100);
        if (laterOperations && random.nextInt(8) == 0) {
            roll = 92 + random.nextInt(8); // the later points' operations, more often than their share of the roll
        }
        Point point = null;
        if (random.nextInt(100) < 40) {
            if (random.nextInt(4) == 0) { // one fault in four: the engine's own allocation
                point = random.nextBoolean() ? Point.NATIVE_ALLOCATION : Point.HEAP_GROWTH;
            } else {
                List<Point> likely = likelyPoints(roll);
                point = random.nextBoolean() ? likely.get(random.nextInt(likely.size()))
                        : callbackPoints.get(random.nextInt(callbackPoints.size()));
            }
            armed = point;
            countdown = random.nextInt(1, 4);
            if (suppressedStep < 0) {
                armedCount++;
            }
        }
        facts.clear();
        spawnedByObserver = 0;
        despawning = 0;
        firstSpawn = 0;
        awaitingQueueSpawn = false;
        queueSpawned = 0;
        opKind = "";
        opEntity = 0;
        promisedStack = null;
        transitionPushed = null;
        transitionLeaving = null;
        transitionOther = null;
        stateEvents = 0;
        stateEventsAtFault = -1;
        stackAtFault = null;
        allocationInTransition = false;
        spawnInputs = null;
        bundleSpawned.clear();
        WorldDump before = point != null && suppressedStep < 0 ? dump() : null;
        opBefore = before;
        AllocationFaults.Kind allocation = point == Point.NATIVE_ALLOCATION ? AllocationFaults.Kind.NATIVE
                : point == Point.HEAP_GROWTH ? AllocationFaults.Kind.HEAP : null;
        if (allocation != null) {
            armed = null; // not a callback point: the engine's own allocation throws
            int k = random.nextInt(1, 9);
            if (step != suppressedStep) {
                AllocationFaults.failAt(allocation, k);
            }
        }
        try {
            apply(roll);
        } catch (InjectedFault fault) {
            AllocationFaults.disarm();
            recover(fault, before);
        } catch (OutOfMemoryError oom) {
            AllocationFaults.disarm();
            if (allocation == null || !AllocationFaults.isInjected(oom)) {
                throw oom;
            }
            fired.merge(point, 1, Integer::sum);
            if (suppressedStep < 0) {
                atFault = dump(); // what the failed operation left, before the recovery
                seenAtFault = seen.size();
                allocationInTransition = opKind.equals("transition");
            }
            note("  " + oom.getMessage() + " thrown " + AllocationSweep.frames(oom));
            InjectedFault fault = new InjectedFault(point, step);
            // (a side world's publication is not this world's: its failure leaves this world as before)
            fault.inPublication = !opKind.equals("side world") && java.util.Arrays.stream(oom.getStackTrace())
                    .anyMatch(frame -> frame.getClassName().endsWith(".CommitDrain")
                            && frame.getMethodName().equals("runWave"));
            recover(fault, before);
        } finally {
            if (allocation != null) {
                AllocationFaults.disarm();
            }
        }
        armed = null;
        if (step == DEBUG_STEP && (suppressedStep < 0 || suppressedStep == step)) {
            System.out.println((suppressedStep < 0 ? "run" : "fault-free replay") + " after #" + step + ":\n"
                    + dump().text());
        }
    }

    /** The points where user code runs (the rest are the engine's allocations). */
    private static final List<Point> CALLBACK_POINTS = java.util.Arrays.stream(Point.values())
            .filter(p -> p != Point.NATIVE_ALLOCATION && p != Point.HEAP_GROWTH).toList();

    /** The callback points an operation of this roll reaches most often (see {@link #apply}), of those armed. */
    private List<Point> likelyPoints(int roll) {
        List<Point> likely = new ArrayList<>(reachedBy(roll));
        likely.retainAll(points);
        return likely;
    }

    /** Whether the operation a roll at or above 92 stands for is run (its point is armed), else a commit. */
    private boolean runs(int roll) {
        return switch (roll) {
            case 92, 93 -> points.contains(Point.STATE_OBSERVER);
            case 94, 95 -> points.contains(Point.BUNDLE_FACTORY);
            case 96, 97 -> points.contains(Point.KERNEL);
            case 98 -> points.contains(Point.PIPELINE_FACTORY);
            case 99 -> points.contains(Point.RECORD_ACCESSOR);
            default -> false;
        };
    }

    private List<Point> reachedBy(int roll) {
        if (roll >= 92 && runs(roll)) {
            return switch (roll) {
                case 92, 93 -> List.of(Point.STATE_OBSERVER, Point.STATE_OBSERVER, Point.STATE_OBSERVER,
                        Point.STATE_OBSERVER, Point.STATE_OBSERVER, Point.STATE_OBSERVER, Point.ADDED, Point.REMOVED,
                        Point.REMOVED, Point.ON_DESPAWN, Point.RAW_OBSERVER, Point.ARCHETYPE_CREATED);
                case 94, 95 -> List.of(Point.BUNDLE_FACTORY, Point.BUNDLE_FACTORY, Point.ON_SPAWN, Point.ADDED);
                case 96, 97 -> List.of(Point.KERNEL, Point.KERNEL, Point.ADDED, Point.RAW_OBSERVER);
                case 98 -> List.of(Point.PIPELINE_FACTORY);
                default -> List.of(Point.RECORD_ACCESSOR);
            };
        }
        if (roll < 22) { // (QUEUE_DEFAULT: a queue's spawns on the instant path; the list keeps it only when armed)
            return List.of(Point.ON_SPAWN, Point.ADDED, Point.REACTIVE, Point.DEFAULT_FACTORY, Point.ARCHETYPE_CREATED,
                    Point.GROUP_BY, Point.RAW_OBSERVER, Point.NATIVE_ACCESSOR, Point.QUEUE_DEFAULT);
        }
        if (roll < 44) {
            return List.of(Point.ADDED, Point.REMOVED, Point.REACTIVE, Point.DEFAULT_FACTORY, Point.ARCHETYPE_CREATED,
                    Point.GROUP_BY, Point.RAW_OBSERVER, Point.NATIVE_ACCESSOR);
        }
        if (roll < 56) {
            return List.of(Point.ON_DESPAWN, Point.ON_DESPAWN_AT_ENTITY, Point.REMOVED, Point.RAW_OBSERVER);
        }
        if (roll < 64) {
            return List.of(Point.BATCH_INITIALIZER, Point.ADDED, Point.REACTIVE, Point.ARCHETYPE_CREATED);
        }
        if (roll < 69) {
            return List.of(Point.BATCH_WRITER, Point.ADDED, Point.REMOVED);
        }
        if (roll < 72) {
            return List.of(Point.ON_DESPAWN, Point.ON_DESPAWN_AT_ENTITY, Point.REMOVED);
        }
        if (roll < 82) {
            return List.of(Point.SYSTEM_BODY, Point.RUN_CONDITION, Point.ON_SPAWN, Point.ON_DESPAWN, Point.ADDED,
                    Point.PARALLEL_BODY);
        }
        if (roll < 85) {
            return List.of(Point.RECORD_CONSTRUCTOR, Point.RECORD_ACCESSOR, Point.ADDED, Point.RAW_OBSERVER);
        }
        if (roll < 88) {
            return List.of(Point.EMIT);
        }
        if (roll < 92) {
            return List.of(Point.VISITOR, Point.ON_SPAWN, Point.ON_DESPAWN, Point.ADDED);
        }
        return List.of(Point.ADDED, Point.REMOVED, Point.REACTIVE, Point.ON_DESPAWN, Point.ON_DESPAWN_AT_ENTITY,
                Point.BATCH_INITIALIZER, Point.BATCH_WRITER, Point.DEFAULT_FACTORY, Point.RAW_OBSERVER,
                Point.QUEUE_DEFAULT); // (a commit publishes a queue's staged spawns: QUEUE_DEFAULT kept when armed)
    }

    /** One operation: the roll picks its kind. */
    private void apply(int roll) {
        long live = seen.isEmpty() ? 0 : pickLive();
        if (roll < 22 || live == 0 && roll < 56) {
            // (no draw for older streams); a queue's default armed here fires only where the spawns publish at once
            if (points.contains(Point.QUEUE_DEFAULT) && (random.nextInt(4) == 0
                    || armed == Point.QUEUE_DEFAULT && instant && random.nextBoolean())) {
                spawnThroughQueue();
                return;
            }
            Input[] inputs = randomInputs();
            note("spawn " + ModelRun.describe(inputs));
            opKind = "spawn";
            spawnInputs = inputs; // the call's own OnSpawn records their edges, before it may throw
            long id = world.spawn(inputs);
            note("  -> " + Entity.toString(id));
            saw(id);
            maybeObserve(id);
            return;
        }
        if (roll < 36) {
            long id = live;
            Input input = randomInput();
            note("set " + Entity.toString(id) + " " + ModelRun.describe(input));
            recordEdges(id, input);
            world.set(id, input);
            return;
        }
        if (roll < 44) {
            long id = live;
            Component<?> component = pickComponent();
            note("remove " + Entity.toString(id) + " " + component.name());
            world.remove(id, component);
            return;
        }
        if (roll < 56) {
            long id = random.nextBoolean() ? pickParentOrObserved(live) : live;
            note("despawn " + Entity.toString(id));
            opKind = "despawn";
            opEntity = id;
            world.despawn(id);
            return;
        }
        if (roll < 64) {
            batchSpawn();
            return;
        }
        if (roll < 69) {
            note("batchSet levels writer");
            world.batchSet(levels, LEVEL, (archetype, from, to) -> {
                IntColumn column = archetype.getMut(LEVEL);
                for (int row = from; row < to; row++) {
                    column.set(row, column.get(row) + 1);
                }
                point(Point.BATCH_WRITER);
            });
            return;
        }
        if (roll < 72) {
            note("batchDespawn reactive");
            world.batchDespawn(marked);
            return;
        }
        if (roll < 82 && !world.hasPendingChanges()) {
            // (with work pending, the commit below comes first: each operation then publishes its own work only,
            // which the fault-free comparison relies on)
            note("update");
            healerAsked = 0;
            parallelFailed = -1;
            if (armed == Point.PARALLEL_BODY) {
                armed = null; // no point() call: the chosen body throws on its worker
                int system = random.nextInt(2);
                if (step != suppressedStep) {
                    parallelFailing = system;
                    note("  armed: parallel system " + system);
                }
            }
            try {
                world.update(1 / 60.0); // closes scopes left open (documented): the staged path opens its own again
            } catch (InjectedFault fault) {
                if (fault.point == Point.PARALLEL_BODY) {
                    parallelFailed = parallelFailing;
                    fired.merge(Point.PARALLEL_BODY, 1, Integer::sum);
                    if (suppressedStep < 0) {
                        atFault = dump(); // the requests of the systems before the failing one, applied
                        seenAtFault = seen.size();
                    }
                }
                throw fault;
            } finally {
                parallelFailing = -1;
            }
            if (!instant) {
                world.defer();
            }
            return;
        }
        // A batch set and a visit, like an update, run on a settled world only (with work pending the commit below
        // comes first): the fault-free comparison needs each to publish its own work, not work staged before it.
        boolean settled = !world.hasPendingChanges();
        if (roll >= 82 && roll < 85 && settled) {
            Charge value = charge(random.nextInt(100));
            note("batchSet positions " + value);
            world.batchSet(positions, CHARGE.of(value)); // the drain copies the record per entity
            return;
        }
        if (roll >= 85 && roll < 88) {
            emit();
            return;
        }
        if (roll >= 88 && roll < 92 && settled) {
            visit();
            return;
        }
        // The later points' operations (runs(roll)); a transition, a bundle's spawns, a kernel pass and a save, like
        // a batch set, run on a settled world only, so that each publishes its own work
        if (roll >= 92 && runs(roll)) {
            if (roll < 94 && settled) {
                transition();
                return;
            }
            if (roll >= 94 && roll < 96 && settled) {
                bundleSpawns();
                return;
            }
            if (roll >= 96 && roll < 98 && settled) {
                kernel();
                return;
            }
            if (roll == 98) {
                sideWorld();
                return;
            }
            if (roll == 99 && settled && world.scopeDepth() == 0) { // a save is refused inside a scope
                save();
                return;
            }
        }
        note("commit");
        opKind = "commit";
        world.commit();
        if (!instant) {
            world.defer();
        }
    }

    /** A {@link Charge} the run makes itself: its constructor is no fault point here. */
    private Charge charge(int level) {
        building = true;
        try {
            return new Charge(level);
        } finally {
            building = false;
        }
    }

    /** Emits a {@link Ping}: the second observer must hear it even when the first throws. */
    private void emit() {
        note("emit ping");
        long heard = pings;
        try {
            world.emit(Entity.WORLD, new Ping(step));
        } finally {
            check(pings == heard + 1, "emit: the second observer heard " + (pings - heard) + " pings of one, "
                    + "though only the first observer threw");
        }
    }

    /**
     * Visits {@code levels}: the visitor spawns, despawns and sets (each staged in the visit's scope) on up to six
     * rows, a callback point after each. A throw ends the visit's scope; the staged work waits for {@code unwind()}
     * (docs/queries.md, "Iteration is a scope"), which {@link #recover} checks.
     */
    private void visit() {
        note("forEach levels visitor");
        opKind = "visit";
        visitStaged.clear();
        int[] visited = {0};
        levels.forEach((archetype, count) -> {
            for (int row = 0; row < count && visited[0] < 6; row++, visited[0]++) {
                long id = archetype.entity(row);
                switch (visited[0] % 3) {
                    case 0 -> {
                        long spawned = world.spawn(LEVEL.of(7), POSITION);
                        saw(spawned);
                        note("  visit: spawn -> " + Entity.toString(spawned));
                        visitStaged.add("spawn " + spawned);
                    }
                    case 1 -> {
                        double health = 1000 + step * 10 + visited[0];
                        note("  visit: set " + Entity.toString(id) + " health " + health);
                        world.set(id, HEALTH.of(health));
                        visitStaged.add("health " + id + " " + health);
                    }
                    default -> {
                        note("  visit: despawn " + Entity.toString(id));
                        world.despawn(id);
                        visitStaged.add("despawn " + id);
                    }
                }
                point(Point.VISITOR);
            }
        });
    }

    /** The documented rule for a visit that threw: its scope ended, its staged work waited, unwind() published it. */
    private void checkVisitBeforeUnwind() {
        check(world.scopeDepth() == (instant ? 0 : 1), "a forEach whose visitor threw must end its scope: depth "
                + world.scopeDepth());
        if (!visitStaged.isEmpty()) {
            check(world.hasPendingChanges(), "the work a throwing visitor staged " + visitStaged + " must wait for "
                    + "unwind(), but nothing is pending");
        }
    }

    private void checkVisitAfterUnwind() {
        for (String staged : visitStaged) {
            String[] parts = staged.split(" ");
            long id = Long.parseLong(parts[1]);
            switch (parts[0]) {
                case "spawn" -> check(world.isAlive(id) && world.has(id, LEVEL),
                        "the visitor's staged spawn of " + Entity.toString(id) + " must be published by unwind()");
                case "despawn" -> check(!world.isAlive(id),
                        "the visitor's staged despawn of " + Entity.toString(id) + " must be published by unwind()");
                default -> check(!world.isAlive(id) || world.has(id, HEALTH)
                        && world.get(id, HEALTH) == Double.parseDouble(parts[2]), "the visitor's staged set of "
                        + Entity.toString(id) + " health " + parts[2] + " must be published by unwind()");
            }
        }
    }

    /**
     * Pushes a state that is not on the stack, or pops the top one. Once a transition has begun it completes,
     * whatever throws inside it (a state observer, a policy operation's publication): {@link #recover} checks the
     * stack it promises (docs/states.md, "When an observer or an operation throws").
     */
    private void transition() {
        List<String> stack = world.listStates();
        opKind = "transition";
        boolean push = stack.isEmpty() || stack.size() == 1 && random.nextBoolean();
        if (armed == Point.STATE_OBSERVER) { // a push or a pop delivers one event, or two with a state below
            int events = push && stack.isEmpty() || !push && stack.size() == 1 ? 1 : 2;
            countdown = Math.min(countdown, events);
        }
        if (push) {
            String name = stack.contains(GAME) ? MENU : stack.contains(MENU) ? GAME : random.nextBoolean() ? GAME : MENU;
            transitionPushed = name;
            transitionOther = stack.isEmpty() ? null : stack.getLast();
            note("pushState " + name + " onto " + stack);
            List<String> promised = new ArrayList<>(stack);
            promised.add(name);
            promisedStack = List.copyOf(promised);
            world.pushState(name);
        } else {
            transitionLeaving = stack.getLast();
            transitionOther = stack.size() > 1 ? stack.get(stack.size() - 2) : null;
            note("popState " + stack);
            promisedStack = List.copyOf(stack.subList(0, stack.size() - 1));
            world.popState();
        }
        check(world.listStates().equals(promisedStack), "the stack after a transition is " + world.listStates()
                + ", not " + promisedStack);
    }

    /**
     * Spawns one to three entities through the bundle, whose two value factories are callback points; a spawn may
     * pass its level, which replaces that default (its factory does not run). A factory runs before its spawn, so
     * one that throws leaves nothing behind (docs/bundles.md): no {@code OnSpawn}, no entity, while the spawns
     * before it in the operation stand.
     */
    private void bundleSpawns() {
        int count = random.nextInt(1, 4);
        opKind = "bundle";
        entitiesBeforeBundle = world.entityCount();
        for (int i = 0; i < count; i++) {
            List<Input> inputs = new ArrayList<>(List.of(ModelComponents.randomInput(POSITION, random)));
            if (random.nextInt(3) == 0) {
                inputs.add(LEVEL.of(random.nextInt(9)));
            }
            Input[] given = inputs.toArray(new Input[0]);
            note("bundle spawn " + crate.name() + " " + ModelRun.describe(given));
            long events = spawnEvents;
            long id;
            try {
                id = crate.spawn(given);
            } catch (InjectedFault fault) {
                if (fault.point == Point.BUNDLE_FACTORY) {
                    check(spawnEvents == events, "a bundle spawn whose factory threw delivered OnSpawn");
                }
                throw fault;
            }
            note("  -> " + Entity.toString(id));
            saw(id);
            bundleSpawned.add(id);
        }
    }

    /** After {@code unwind()}: the spawns before the one whose factory threw are there, and nothing else is. */
    private void checkBundleAfterUnwind() {
        check(world.entityCount() == entitiesBeforeBundle + bundleSpawned.size(), "a bundle spawn whose factory "
                + "threw must leave nothing behind: " + world.entityCount() + " entities, " + entitiesBeforeBundle
                + " before the operation and " + bundleSpawned.size() + " spawned before the fault");
        for (long id : bundleSpawned) {
            check(world.isAlive(id) && world.has(id, POSITION) && world.has(id, HEALTH), "the bundle spawn of "
                    + Entity.toString(id) + ", before the one whose factory threw, must stand");
        }
    }

    /**
     * Runs {@link Nudge} over {@code positions} on the parallel runner (64-row chunks on two workers). When the
     * kernel is armed, the chunk holding a random row stops at that row and throws; then, as docs/parallel.md
     * says: the failure reaches this thread, the rows chunks wrote keep their values, every archetype where a
     * chunk started is marked dirty (and no other), and no request of any chunk is applied.
     */
    private void kernel() {
        note("parallel kernel over positions: x += 1, health = x where x is a multiple of 5");
        opKind = "kernel";
        world.clearDirty(); // the marks after the pass are the runner's own
        Archetype targeted = null;
        int targetRow = -1;
        if (armed == Point.KERNEL) {
            armed = null; // no point() call: the chunk holding a random row throws
            int rows = 0;
            for (Archetype archetype : positions.archetypes()) {
                rows += archetype.count();
            }
            if (rows > 0) {
                int pick = random.nextInt(rows);
                for (Archetype archetype : positions.archetypes()) {
                    if (pick < archetype.count()) {
                        targeted = archetype;
                        targetRow = pick;
                        break;
                    }
                    pick -= archetype.count();
                }
            }
        }
        Map<Long, Float> xs = new HashMap<>();
        if (targeted != null && suppressedStep < 0) {
            for (Archetype archetype : positions.archetypes()) {
                FloatColumn column = archetype.get(X);
                for (int row = 0; row < archetype.count(); row++) {
                    xs.put(archetype.entity(row), column.get(row));
                }
            }
            note("  armed: the chunk holding row " + targetRow + " of archetype " + targeted.id() + " ("
                    + targeted.count() + " rows)");
        }
        int depth = world.scopeDepth();
        nudge.target = targeted == null || step == suppressedStep ? 0
                : targeted.get(X).segment().address() + (long) targetRow * Float.BYTES;
        nudge.caller = Thread.currentThread();
        nudge.step = step;
        nudge.onWorker = false;
        try {
            kernels.run(world, positions, nudge, 1f);
        } catch (InjectedFault fault) {
            if (fault.point != Point.KERNEL) {
                throw fault; // a callback of the requests' publication
            }
            fired.merge(Point.KERNEL, 1, Integer::sum);
            kernelFaultsOnWorkers += nudge.onWorker ? 1 : 0;
            note("  thrown on " + (nudge.onWorker ? "a worker thread" : "the calling thread"));
            if (suppressedStep < 0) {
                atFault = dump();
                seenAtFault = seen.size();
                checkKernelFault(targeted, targetRow, xs, depth);
            }
            throw fault;
        } finally {
            nudge.target = 0;
        }
    }

    /** The documented outcome of a failed parallel pass (see {@link #kernel}), checked before {@code unwind()}. */
    private void checkKernelFault(Archetype targeted, int targetRow, Map<Long, Float> xs, int depth) {
        check(world.scopeDepth() == depth && !world.hasPendingChanges(), "a kernel pass that failed must apply "
                + "none of its requests: scope depth " + world.scopeDepth() + " (was " + depth + "), pending "
                + world.hasPendingChanges());
        for (Archetype archetype : positions.archetypes()) {
            FloatColumn column = archetype.get(X);
            int written = 0;
            for (int row = 0; row < archetype.count(); row++) {
                long id = archetype.entity(row);
                Float was = xs.get(id);
                check(was != null, "the kernel pass moved " + Entity.toString(id) + " into archetype "
                        + archetype.id());
                float is = column.get(row);
                boolean ran = Float.floatToRawIntBits(is) != Float.floatToRawIntBits(was);
                check(!ran || is == was + 1f, Entity.toString(id) + " x=" + is + " after the failed pass, "
                        + "but it was " + was + " and the kernel adds 1");
                written += ran ? 1 : 0;
                if (archetype == targeted && was + 1f != was && row <= targetRow) {
                    check(ran == row < targetRow, "row " + row + " of archetype " + archetype.id() + " (the "
                            + "failing chunk stops at row " + targetRow + ") was " + (ran ? "" : "not ")
                            + "written: the rows before the failing one all ran, that one did not");
                }
            }
            boolean marked = archetype.isComponentDirty(POSITION);
            check(written == 0 || marked, "archetype " + archetype.id() + " has " + written + " rows the failed "
                    + "pass wrote, but " + POSITION.name() + " is not marked dirty");
            check(!marked || written > 0 || archetype == targeted, "archetype " + archetype.id() + " is marked "
                    + "dirty although no chunk started there");
        }
        check(targeted.isComponentDirty(POSITION), "the failing chunk started in archetype " + targeted.id()
                + " (it may have written), but " + POSITION.name() + " is not marked dirty there");
        checkValuesAsBefore("after a failed kernel pass (no request may be applied)", POSITION.name());
    }

    /** Every entity holds what it held before the operation, except {@code except} (a component name, or null). */
    private void checkValuesAsBefore(String when, String except) {
        Map<Long, SortedMap<String, String>> now = dump().values();
        Set<Long> ids = new TreeSet<>(now.keySet());
        ids.addAll(opBefore.values().keySet());
        for (long id : ids) {
            SortedMap<String, String> is = now.get(id) == null ? null : new TreeMap<>(now.get(id));
            SortedMap<String, String> was = opBefore.values().get(id) == null ? null
                    : new TreeMap<>(opBefore.values().get(id));
            if (except != null && is != null && was != null) {
                is.remove(except);
                was.remove(except);
            }
            check(java.util.Objects.equals(is, was), when + ", " + Entity.toString(id) + " is " + is
                    + " but was " + was);
        }
    }

    /**
     * The kernel {@link #kernel} runs: adds 1 (dt) to each row's x and asks, for a row whose new x is a multiple of
     * 5, to set its health to it; the chunk holding the cell at address {@link #target} stops at that row and
     * throws (after its rows before it were written and their requests recorded). Runs on the workers.
     */
    private final class Nudge implements CommandKernel {
        private final KernelColumns columns = KernelColumns.of(List.of(X), List.of(), WritePolicy.ALWAYS);
        volatile long target;
        volatile Thread caller;
        volatile int step;
        volatile boolean onWorker;

        @Override
        public KernelColumns columns() {
            return columns;
        }

        @Override
        public boolean run(MemorySegment[] segments, int count, float dt, ChunkCommands commands) {
            MemorySegment x = segments[0];
            long first = x.address();
            long t = target;
            boolean failing = t != 0 && t >= first && t < first + (long) count * Float.BYTES;
            int end = failing ? (int) ((t - first) / Float.BYTES) : count;
            for (int row = 0; row < end; row++) {
                float value = x.getAtIndex(ValueLayout.JAVA_FLOAT, row) + dt;
                x.setAtIndex(ValueLayout.JAVA_FLOAT, row, value);
                if (value == Math.rint(value) && (long) value % 5 == 0) {
                    commands.set(row, HEALTH, value);
                }
            }
            if (failing) {
                onWorker = Thread.currentThread() != caller;
                throw new InjectedFault(Point.KERNEL, step);
            }
            return true;
        }
    }

    /**
     * Creates a side world whose pipeline factory spawns into it (the world is usable there) and returns a pipeline
     * that the builtin systems then register through: the factory, after each spawn, and the pipeline's
     * registrations are the callback point. A creation that throws must hold no native memory afterwards (the world
     * the factory saw is closed), must leave this world alone, and the same config must then make a world.
     */
    private void sideWorld() {
        note("side world through a pipeline factory");
        opKind = "side world";
        long held = World.nativeBytesHeldByOpenWorlds();
        World[] seenByFactory = new World[1];
        WorldConfig config = WorldConfig.defaults().maxEntities(1 << 10).pipelineFactory((side, scope) -> {
            seenByFactory[0] = side;
            side.spawn(POSITION, LEVEL.of(1));
            point(Point.PIPELINE_FACTORY);
            side.spawn(HEALTH.of(2.0));
            point(Point.PIPELINE_FACTORY);
            return new HookedPipeline(new Scheduler(side, scope), () -> {
                if (creatingSideWorld) {
                    point(Point.PIPELINE_FACTORY);
                }
            });
        });
        try {
            useSideWorld(config);
        } catch (InjectedFault | OutOfMemoryError failure) {
            check(World.nativeBytesHeldByOpenWorlds() == held, "a side world whose creation or use failed ("
                    + failure.getMessage() + ") still holds " + (World.nativeBytesHeldByOpenWorlds() - held)
                    + " native bytes");
            check(seenByFactory[0] == null || seenByFactory[0].isClosed(), "the world a failed pipeline factory "
                    + "saw must be closed");
            if (suppressedStep < 0) {
                checkValuesAsBefore("after a side world failed", null);
            }
            note("  " + failure.getMessage() + "; the same config again");
            useSideWorld(config); // the fault fired: it makes a world now
            check(World.nativeBytesHeldByOpenWorlds() == held, "a side world closed but holds native memory");
            throw failure;
        }
        check(World.nativeBytesHeldByOpenWorlds() == held, "a side world closed but holds native memory");
    }

    private void useSideWorld(WorldConfig config) {
        sideWorlds++;
        World side;
        creatingSideWorld = true;
        try {
            side = World.create(config);
        } finally {
            creatingSideWorld = false;
        }
        try (side) {
            check(side.entityCount() == 2, "the side world's factory spawned two entities, it has "
                    + side.entityCount());
            side.update(1 / 60.0);
            side.spawn(POSITION, HEALTH.of(3.0));
        }
    }

    /**
     * Saves the world (a table, or binary into a reused buffer): the save reads every {@link Charge} through its
     * accessor. A save changes nothing (docs/snapshots.md), so one that throws must leave the world exactly as it
     * was, reserve no more native memory, and the world must save again. The codec hands an accessor's exception
     * on wrapped in an {@code IllegalStateException} naming the record component; the fault is its cause.
     */
    private void save() {
        boolean binary = random.nextBoolean();
        note("saveSnapshot " + (binary ? "binary into a reused buffer" : "table"));
        opKind = "save";
        long reserved = world.nativeBytesReserved();
        try {
            world.saveSnapshot(binary ? SnapshotOptions.binary().buffer(snapshotBuffer()) : SnapshotOptions.defaults());
        } catch (RuntimeException | OutOfMemoryError thrown) {
            Throwable failure = thrown;
            if (thrown instanceof IllegalStateException && thrown.getCause() instanceof InjectedFault fault) {
                check(thrown.getMessage().startsWith("reading " + Charge.class.getName() + ".level: "), "a save "
                        + "whose record accessor threw says " + thrown.getMessage());
                failure = fault;
            }
            if (!(failure instanceof InjectedFault) && !(failure instanceof OutOfMemoryError)) {
                throw thrown;
            }
            note("  the save threw " + thrown);
            if (suppressedStep < 0) {
                check(world.nativeBytesReserved() == reserved, "a save that failed left the world reserving "
                        + (world.nativeBytesReserved() - reserved) + " more native bytes");
                check(world.scopeDepth() == 0 && !world.hasPendingChanges(), "a save that failed left a scope or "
                        + "pending work");
                checkValuesAsBefore("after a failed save", null);
            }
            world.saveSnapshot(SnapshotOptions.defaults()); // the world saves again
            if (failure instanceof InjectedFault fault) {
                throw fault;
            }
            throw (OutOfMemoryError) failure;
        }
    }

    private SnapshotBuffer snapshotBuffer() {
        if (snapshotBuffer == null) {
            snapshotBuffer = new SnapshotBuffer();
        }
        return snapshotBuffer;
    }

    /** A pipeline that forwards every call, running a hook before each registration. */
    private static final class HookedPipeline implements Pipeline {
        private final Pipeline inner;
        private final Runnable beforeAdd;

        HookedPipeline(Pipeline inner, Runnable beforeAdd) {
            this.inner = inner;
            this.beforeAdd = beforeAdd;
        }

        @Override
        public void update(double dt) {
            inner.update(dt);
        }

        @Override
        public void run(PhaseSelection selection, double dt) {
            inner.run(selection, dt);
        }

        @Override
        public String addSystem(SystemConfig config) {
            beforeAdd.run();
            return inner.addSystem(config);
        }

        @Override
        public boolean removeSystem(String name) {
            return inner.removeSystem(name);
        }

        @Override
        public boolean replaceSystemBody(String name, SystemBody body) {
            return inner.replaceSystemBody(name, body);
        }

        @Override
        public boolean setSystemEnabled(String name, boolean enabled) {
            return inner.setSystemEnabled(name, enabled);
        }

        @Override
        public List<SystemInfo> listSystems() {
            return inner.listSystems();
        }

        @Override
        public int systemCount() {
            return inner.systemCount();
        }

        @Override
        public void registerPhase(PhaseDefinition definition) {
            inner.registerPhase(definition);
        }

        @Override
        public List<Phase> leafPhases() {
            return inner.leafPhases();
        }

        @Override
        public void restoreFixedAccumulator(double seconds) {
            inner.restoreFixedAccumulator(seconds);
        }

        @Override
        public void enablePhase(PhaseSelection selection) {
            inner.enablePhase(selection);
        }

        @Override
        public void disablePhase(PhaseSelection selection) {
            inner.disablePhase(selection);
        }

        @Override
        public boolean isPhaseEnabled(Phase phase) {
            return inner.isPhaseEnabled(phase);
        }

        @Override
        public void enqueueCommit() {
            inner.enqueueCommit();
        }

        @Override
        public FixedTiming fixedTiming() {
            return inner.fixedTiming();
        }

        @Override
        public long fixedStepCount() {
            return inner.fixedStepCount();
        }

        @Override
        public double fixedTimeDropped() {
            return inner.fixedTimeDropped();
        }

        @Override
        public long fixedStepsDropped() {
            return inner.fixedStepsDropped();
        }
    }

    private void batchSpawn() {
        int count = random.nextInt(1, 12);
        if (points.contains(Point.KERNEL)) {
            count *= 3; // enough rows that a kernel pass over them makes several units, which run on the workers
        }
        List<Input> inputs = new ArrayList<>(List.of(LEVEL.of(random.nextInt(9)), POSITION));
        if (random.nextBoolean()) {
            inputs.add(MARKED);
        }
        if (random.nextInt(3) == 0) {
            inputs.add(FUSE);
        }
        note("batchSpawn " + count + " " + ModelRun.describe(inputs.toArray(new Input[0])));
        BatchIds ids = world.batchSpawn(count, inputs, (archetype, from, to) -> {
            IntColumn column = archetype.getMut(LEVEL);
            for (int row = from; row < to; row++) {
                column.set(row, row);
            }
            if (armed == Point.BATCH_INITIALIZER && countdown == 1 && step != suppressedStep) {
                List<Long> placed = new ArrayList<>();
                for (int row = from; row < to; row++) {
                    placed.add(archetype.entity(row));
                }
                facts.add("unplaced " + placed);
            }
            point(Point.BATCH_INITIALIZER);
        });
        for (long id : ids.toArray()) {
            saw(id);
        }
    }

    /**
     * Spawns up to 199 entities through one of the run's spawn queues, writing each one's position with the
     * queue's {@code set} calls after its {@code spawn()}. On the staged path the spawns stay in the scope with the
     * rest of its work until a commit (past the staged rows' first chunk when the count is large); on the instant
     * path each is published before its call returns.
     */
    private void spawnThroughQueue() {
        int shape = random.nextInt(QUEUE_SHAPES.size());
        int count = random.nextInt(6) == 0 ? random.nextInt(65, 200) : random.nextInt(1, 48);
        note("queueSpawn " + count + " " + ModelRun.describe(QUEUE_SHAPES.get(shape).toArray(new Input[0])));
        opKind = "queue spawn";
        if (queues[shape] == null) {
            queues[shape] = world.spawnQueue(QUEUE_SHAPES.get(shape)); // (a fault here leaves no queue: made again)
        }
        SpawnQueue queue = queues[shape];
        for (int i = 0; i < count; i++) {
            awaitingQueueSpawn = true;
            long id;
            try {
                id = queue.spawn();
            } finally {
                awaitingQueueSpawn = false; // (a spawn that failed before its OnSpawn names no entity)
            }
            if (suppressedStep < 0) {
                queueSpawnCount++;
            }
            queue.set(X, random.nextInt(-50, 50)).set(Y, random.nextInt(-50, 50));
            if (i == 0) {
                note("  -> " + Entity.toString(id) + (count > 1 ? " ..." : ""));
                maybeObserve(id);
            }
        }
    }

    /** One spawn in eight gets an {@code OnDespawn} observer at its own address, a callback point too. */
    private void maybeObserve(long id) {
        if (random.nextInt(4) == 0) {
            note("  observe " + Entity.toString(id));
            world.observe(id, OnDespawn.class, event -> {
                despawning = event.entity();
                point(Point.ON_DESPAWN_AT_ENTITY);
            });
        }
    }

    private Input[] randomInputs() {
        List<Input> inputs = new ArrayList<>();
        for (int n = random.nextInt(0, 4); n > 0; n--) {
            inputs.add(randomInput());
        }
        return inputs.toArray(new Input[0]);
    }

    private Input randomInput() {
        int roll = random.nextInt(20);
        // a bare Fuse makes the engine call its default factory: more often while that point is armed, which
        // otherwise fired once or twice in 120 seeds (and on some bases not at all)
        if (roll == 0 || armed == Point.DEFAULT_FACTORY && roll < 5) {
            return FUSE;
        }
        if (roll < 6 && !seen.isEmpty()) {
            long target = pickLive();
            if (target != 0) {
                BaseRelationship<?> relationship = List.of(CHILD_OF, FOLLOWS, WATCHES, HELD_BY, CHILD_OF, HELD_BY)
                        .get(random.nextInt(6));
                return ModelComponents.edge(relationship, target, random);
            }
        }
        if (roll == 5) {
            return KEY.of("key-" + random.nextInt(1_000_000)); // unique enough; a clash is a rejection
        }
        return ModelComponents.randomInput(pickComponent(), random);
    }

    private Component<?> pickComponent() {
        return ModelComponents.ALL.get(random.nextInt(ModelComponents.ALL.size()));
    }

    /**
     * A live entity whose despawn reaches more callback points: one with an observer at its address, or the
     * target of a cascading edge; {@code fallback} when there is none.
     */
    private long pickParentOrObserved(long fallback) {
        int start = random.nextInt(seen.size());
        for (int i = 0; i < seen.size(); i++) {
            long id = seen.get((start + i) % seen.size());
            if (world.isAlive(id) && (world.hasObservers(id, OnDespawn.class)
                    || world.relationshipSources(CHILD_OF, id).length > 0
                    || world.relationshipSources(HELD_BY, id).length > 0)) {
                return id;
            }
        }
        return fallback;
    }

    /** A seen id that is alive or staged now (so calls on it are legal), else a live row's id. */
    private long pickLive() {
        for (int tries = 0; tries < 8; tries++) {
            long id = seen.get(random.nextInt(seen.size()));
            if (world.isAlive(id)) {
                return id;
            }
        }
        for (int i = seen.size() - 1; i >= 0; i--) {
            if (world.isAlive(seen.get(i))) {
                return seen.get(i);
            }
        }
        return 0;
    }

    // ---------------------------------------------------------------- recovery and checks

    private void recover(InjectedFault fault, WorldDump before) {
        note("  fault: " + fault.getMessage());
        boolean despawnFault = fault.point == Point.ON_DESPAWN || fault.point == Point.ON_DESPAWN_AT_ENTITY;
        if (despawnFault && (opKind.equals("despawn") && despawning != opEntity || opKind.equals("commit"))) {
            cascadeFaults++; // no call despawned this entity: a cascade did, inside the publication
        }
        if (opKind.equals("queue spawn") && suppressedStep < 0) {
            queueFaults++;
        }
        armed = null;
        // the call's own observers run before anything is published: its work stays staged for unwind()
        long spawned = fault.point == Point.ON_SPAWN && opKind.equals("spawn") && spawnedByObserver == firstSpawn
                ? spawnedByObserver : 0;
        long despawned = despawnFault && opKind.equals("despawn") && despawning == opEntity ? despawning : 0;
        // a queue's spawn() whose own OnSpawn observer threw: staged, published by unwind() as the queue's shape
        // starts it (the set calls after the spawn never ran), everything else as without the fault
        long queueStaged = fault.point == Point.ON_SPAWN && opKind.equals("queue spawn")
                && spawnedByObserver == queueSpawned ? queueSpawned : 0;
        List<String> pending = List.copyOf(facts);
        boolean visitFault = fault.point == Point.VISITOR && suppressedStep < 0;
        if (visitFault) {
            checkVisitBeforeUnwind();
        }
        // a transition that began runs to its end whatever throws in it, its observers or its operations
        boolean transitionFault = opKind.equals("transition");
        if (transitionFault && suppressedStep < 0) {
            check(world.listStates().equals(promisedStack), "a transition completes whatever throws in it "
                    + "(docs/states.md): after a fault at " + fault.point + " the stack is " + world.listStates()
                    + ", the transition promised " + promisedStack);
        }
        try {
            world.unwind(); // the documented recovery: closes every scope and publishes what is staged
        } catch (RuntimeException e) {
            throw mismatch("unwind() after " + fault.point + " threw " + e, e);
        }
        if (suppressedStep < 0) {
            checkInvariants("after " + fault.point);
            checkFacts(pending);
            if (visitFault) {
                checkVisitAfterUnwind();
            }
            if (fault.point == Point.BUNDLE_FACTORY && opKind.equals("bundle")) {
                checkBundleAfterUnwind();
            }
            // a record accessor runs in a publication when a batch set copies, not when a save encodes
            boolean published = IN_PUBLICATION.contains(fault.point) && !opKind.equals("save")
                    || fault.inPublication;
            if (transitionFault) {
                compareTransition(fault.point, before);
            } else if (published) {
                comparePublished(fault.point);
            } else if (queueStaged != 0) {
                FaultRun replay = faultFree();
                checkQueueSpawnAsStarted(queueStaged, replay.replayDump);
                compareWithFaultFree(fault.point, before, 0, replay, queueStaged);
            } else {
                compareWithFaultFree(fault.point, before, spawned != 0 ? spawned : despawned, faultFree(), 0);
            }
        }
        if (!instant) {
            world.defer();
        }
    }

    private void checkInvariants(String when) {
        if (suppressedStep >= 0) {
            return;
        }
        List<WorldInvariants.Tracked> queries = List.of(new WorldInvariants.Tracked(positions, trackedPositions),
                new WorldInvariants.Tracked(levels, trackedLevels), new WorldInvariants.Tracked(marked, null),
                new WorldInvariants.Tracked(grouped, null));
        List<String> violations = WorldInvariants.check(world, seen, queries, List.of(), OBSERVED);
        if (!violations.isEmpty()) {
            throw mismatch(when + ": " + String.join("; ", violations), null);
        }
        checks++;
    }

    /** The facts a membership or initializer fault implies (see {@link #faultyMembership}, {@link #batchSpawn}). */
    private void checkFacts(List<String> pending) {
        for (String fact : pending) {
            String[] parts = fact.split(" ", 2);
            if (parts[0].equals("unplaced")) {
                for (long id : parseIds(parts[1])) {
                    check(!world.isAlive(id), "the batch whose initializer threw placed " + Entity.toString(id));
                }
                continue;
            }
            String[] rest = parts[1].split(" ", 2);
            int archetype = Integer.parseInt(rest[0]);
            for (long id : parseIds(rest[1])) {
                boolean there = world.isAlive(id) && world.archetypeOf(id).id() == archetype;
                // a settlement the failed publication left over, re-run by unwind(), may move it or despawn it
                WorldDump now = dump();
                SortedMap<String, String> then = atFault.values().get(id);
                boolean settled = then != null && (owesCascade(id, then, now)
                        || deadEdgesDroppedOnly(then, now.values().get(id), now));
                check(there || settled, fact + ": "
                        + Entity.toString(id) + (parts[0].equals("published") ? " was published before its "
                        + "callback threw: it must stay" : " never left, since its removal callback threw")
                        + " (now " + (world.isAlive(id) ? "in archetype " + world.archetypeOf(id).id() : "dead")
                        + ")\n  at the fault: " + atFault.entities().get(id) + "\n  now:          "
                        + now.entities().get(id));
            }
        }
    }

    private static List<Long> parseIds(String list) {
        List<Long> ids = new ArrayList<>();
        String body = list.substring(1, list.length() - 1).trim();
        if (!body.isEmpty()) {
            for (String id : body.split(", ")) {
                ids.add(Long.parseLong(id));
            }
        }
        return ids;
    }

    /**
     * A fault inside a publication: what was published when the callback threw stays, everything else staged was
     * discarded, so after {@code unwind()} every entity is as it was at the fault, with two exceptions, both
     * checked against the fault-free run: the sparse edges of rows already published, which their segment had
     * not flushed yet when the callback ran, and the settlement of targets that died before the fault (edge
     * removals and cascade despawns), which the failed publication left to the next one, the one unwind() runs.
     */
    private void comparePublished(Point point) {
        WorldDump now = dump();
        if (now.values().equals(atFault.values())) {
            return;
        }
        WorldDump faultFree = null;
        Set<Long> ids = new TreeSet<>(now.values().keySet());
        ids.addAll(atFault.values().keySet());
        for (long id : ids) {
            SortedMap<String, String> is = now.values().get(id);
            SortedMap<String, String> was = atFault.values().get(id);
            if (java.util.Objects.equals(is, was)) {
                continue;
            }
            if (faultFree == null) {
                faultFree = faultFree().replayDump;
            }
            SortedMap<String, String> full = faultFree.values().get(id);
            String where = "after a fault at " + point + " in a publication, " + Entity.toString(id) + " ";
            if (is == null) {
                // a cascading edge that stood at the fault, to a target dead now, despawns its source when the
                // next publication settles it, even where the fault-free run kept the source alive: the work of the
                // same commit that would have moved the edge away (seed 293323112879754640: a set of a new HeldBy
                // target behind the old target's despawn) was discarded with the rest of the unpublished wave
                check(was != null && owesCascade(id, was, now), where + "is dead but was " + was
                        + " when the callback threw, and no settlement of a dead target explains it (published "
                        + "work must stay)");
                continue;
            }
            check(was != null, where + "is " + is + " but did not exist when the callback threw (unpublished work "
                    + "must be discarded)");
            Set<String> names = new TreeSet<>(is.keySet());
            names.addAll(was.keySet());
            for (String name : names) {
                String value = is.get(name);
                if (java.util.Objects.equals(value, was.get(name))) {
                    continue;
                }
                boolean asFaultFree = full != null && java.util.Objects.equals(value, full.get(name));
                boolean settledAway = heldEdgeToDead(was, now) && dropsEdgesOnly(was.get(name), value);
                // a row published before the fault keeps its sparse edges, flushed after the callback threw; the
                // fault-free run cannot show them when later work of the same commit (discarded here) despawned it
                boolean flushedLate = full == null && was.get(name) != null
                        && edgesFrom(value, was.get(name), edgesGiven.getOrDefault(id, Set.of()));
                check(isRelational(name) && (asFaultFree || settledAway || flushedLate), where
                        + name + "=" + value + " but at the fault=" + was.get(name) + " and fault-free="
                        + (full == null ? "dead" : full.get(name)) + " (published work must stay, unpublished work "
                        + "must be discarded)");
            }
        }
    }

    /**
     * Whether an entity alive in {@code now} differs from {@code then} only by pairs to targets dead in {@code now}
     * (the settlement of a dead target drops a dense pair, which moves the entity to the archetype without it; seed
     * -6550310274349077613: a batch despawn cut short by a removal callback, whose despawned members were the
     * targets of a survivor's {@code Follows}).
     */
    private static boolean deadEdgesDroppedOnly(SortedMap<String, String> then, SortedMap<String, String> is,
            WorldDump now) {
        if (is == null || !then.keySet().containsAll(is.keySet())) {
            return false;
        }
        boolean dropped = false;
        for (String name : then.keySet()) {
            if (is.containsKey(name)) {
                if (!isRelational(name) && !java.util.Objects.equals(is.get(name), then.get(name))) {
                    return false;
                }
                continue;
            }
            int open = name.lastIndexOf('(');
            if (open < 0 || !name.endsWith(")")) {
                if (isRelational(name)) {
                    continue; // the relationship's marker, gone with its last edge
                }
                return false;
            }
            String target = name.substring(open + 1, name.length() - 1);
            if (now.values().keySet().stream().anyMatch(id -> Entity.toString(id).equals(target))) {
                return false;
            }
            dropped = true;
        }
        return dropped;
    }

    /**
     * Whether {@code after} is {@code before} less some edges: absent, or an edge list each of whose edges was
     * listed before (what settling edges to dead targets does, and nothing more).
     */
    private static boolean dropsEdgesOnly(String before, String after) {
        if (after == null) {
            return true;
        }
        if (before == null || !after.startsWith("[") || !before.startsWith("[")) {
            return false;
        }
        List<String> was = List.of(before.substring(1, before.length() - 1).split(", "));
        for (String edge : after.substring(1, after.length() - 1).split(", ")) {
            if (!edge.isEmpty() && !was.contains(edge)) {
                return false;
            }
        }
        return true;
    }

    /** Records the edges among an entity's inputs (see {@link #edgesGiven}, {@link #cascadesGiven}). */
    private void recordEdges(long id, Input... inputs) {
        for (Input input : inputs) {
            if (input instanceof dev.jtecs.component.RelationshipValue edge) {
                edgesGiven.computeIfAbsent(id, k -> new HashSet<>()).add(String.valueOf(edge));
                if (edge.relationship().isCascadeDelete()) {
                    cascadesGiven.computeIfAbsent(id, k -> new ArrayList<>()).add(edge);
                }
            }
        }
    }

    /**
     * Whether an entity owes the despawn of a cascade: it held an edge to a target dead in {@code now}, or (a sparse
     * edge its segment had not flushed when the callback threw, so the dump could not show it) the run gave it a
     * cascading edge to a target dead now. The failed publication leaves that settlement to the next one.
     */
    private boolean owesCascade(long id, SortedMap<String, String> components, WorldDump now) {
        if (heldEdgeToDead(components, now, true)) {
            return true;
        }
        for (dev.jtecs.component.RelationshipValue edge : cascadesGiven.getOrDefault(id, List.of())) {
            if (components.containsKey(edge.relationship().name()) && !now.values().containsKey(edge.target())) {
                return true;
            }
        }
        return false;
    }

    /** Whether the edge list {@code after} holds only edges listed in {@code before} or in {@code given}. */
    private static boolean edgesFrom(String after, String before, Set<String> given) {
        if (after == null || !after.startsWith("[") || !before.startsWith("[")) {
            return false;
        }
        List<String> was = List.of(before.substring(1, before.length() - 1).split(", "));
        for (String edge : after.substring(1, after.length() - 1).split(", ")) {
            if (!edge.isEmpty() && !was.contains(edge) && !given.contains(edge)) {
                return false;
            }
        }
        return true;
    }

    /** Whether a component name is a relationship's marker or one of its pairs (whose names hold the target). */
    private static boolean isRelational(String name) {
        return Components.findByName(name) instanceof BaseRelationship<?> || name.endsWith(")");
    }

    /** Whether these components held an edge (a pair) to an entity that is not alive in {@code now}. */
    private static boolean heldEdgeToDead(SortedMap<String, String> components, WorldDump now) {
        return heldEdgeToDead(components, now, false);
    }

    /**
     * Whether these components held an edge to an entity that is not alive in {@code now}; with
     * {@code cascadingOnly}, only an edge of a relationship that despawns its sources with its target counts.
     */
    private static boolean heldEdgeToDead(SortedMap<String, String> components, WorldDump now,
            boolean cascadingOnly) {
        for (String name : components.keySet()) {
            int open = name.lastIndexOf('(');
            if (open > 0 && name.endsWith(")") && (!cascadingOnly
                    || Components.findByName(name.substring(0, open)) instanceof BaseRelationship<?> pair
                    && pair.isCascadeDelete())) {
                String target = name.substring(open + 1, name.length() - 1); // slot#generation
                boolean alive = now.values().keySet().stream().anyMatch(id -> Entity.toString(id).equals(target));
                if (!alive) {
                    return true;
                }
            }
        }
        for (Map.Entry<String, String> entry : components.entrySet()) { // sparse edges: name(target) in the list
            if (Components.findByName(entry.getKey()) instanceof BaseRelationship<?> r && r.isSparse()
                    && r.isCascadeDelete()) {
                for (String target : sparseTargets(entry.getKey(), entry.getValue())) {
                    if (now.values().keySet().stream().noneMatch(id -> Entity.toString(id).equals(target))) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** The targets ({@code slot#generation}) of a sparse relationship's edge list as the dump prints it. */
    static List<String> sparseTargets(String relationship, String edges) {
        List<String> targets = new ArrayList<>();
        String prefix = relationship + "(";
        for (int at = edges.indexOf(prefix); at >= 0; at = edges.indexOf(prefix, at + 1)) {
            java.util.regex.Matcher ref = ENTITY_REF.matcher(edges);
            if (ref.find(at + prefix.length()) && ref.start() == at + prefix.length()) {
                targets.add(ref.group());
            }
        }
        return targets;
    }

    private static final java.util.regex.Pattern ENTITY_REF = java.util.regex.Pattern.compile("(\\d+)#(\\d+)");

    /**
     * Whether a relationship the entity no longer has held, before or at the fault, only edges to entities that
     * are dead now: a publication cut short can discard the entity's own despawn while its targets' despawns
     * stand, and a live entity keeps no edge to a dead target (the settlement drops it), so losing those edges is
     * the documented outcome (seed -6348472116997127758: a menu popped while a membership callback threw).
     */
    private static boolean edgesToTheDead(WorldDump now, List<SortedMap<String, String>> earlier, String component) {
        for (SortedMap<String, String> state : earlier) {
            String value = state == null ? null : state.get(component);
            if (value == null) {
                continue;
            }
            java.util.regex.Matcher ref = ENTITY_REF.matcher(component + " " + value); // a pair names its target
            boolean any = false;
            boolean allDead = true;
            while (ref.find()) {
                any = true;
                long target = Entity.pack(Integer.parseInt(ref.group(1)), Integer.parseInt(ref.group(2)));
                allDead &= now.values().get(target) == null;
            }
            if (any && allDead) {
                return true;
            }
        }
        return false;
    }

    /**
     * A queue's spawn whose own {@code OnSpawn} observer threw: after {@code unwind()} the entity is alive at the
     * queue's starting position (its {@code set} calls never ran) and otherwise as the fault-free run has it.
     */
    private void checkQueueSpawnAsStarted(long id, WorldDump faultFree) {
        queueSpawnsStarted++;
        check(world.isAlive(id), "the queue spawn of " + Entity.toString(id) + " whose OnSpawn observer threw must "
                + "be published by unwind()");
        ModelComponents.Position position = world.get(id, POSITION);
        check(position.x() == QUEUE_START.x() && position.y() == QUEUE_START.y(), "the queue spawn of "
                + Entity.toString(id) + " whose OnSpawn observer threw starts at the queue's position, not "
                + position);
        SortedMap<String, String> is = new TreeMap<>(dump().values().get(id));
        SortedMap<String, String> full = faultFree.values().get(id);
        check(full != null, "the fault-free run has no " + Entity.toString(id));
        SortedMap<String, String> expected = new TreeMap<>(full);
        is.remove(POSITION.name());
        expected.remove(POSITION.name());
        check(is.equals(expected), "the queue spawn of " + Entity.toString(id) + " whose OnSpawn observer threw is "
                + is + " beside its position, fault-free " + expected);
    }

    /**
     * A fault that may strike outside a publication (an observer of the call itself, a system, a run condition, a
     * default factory, archetype creation): replays the run with this fault suppressed and compares entity by
     * entity, component by component: each must be as before the operation, as when the callback threw, or as
     * the fault-free run left it (work that stayed staged and {@code unwind()} published), or as the run left it
     * had this operation done nothing (work staged before it, which {@code unwind()} published without it: a query
     * batch that failed while capturing, on the staged path), never anything else. The entity {@code exempt}
     * (when not 0) is left out: the caller checks it on its own ({@link #checkQueueSpawnAsStarted}).
     */
    private void compareWithFaultFree(Point point, WorldDump before, long staged, FaultRun replay, long exempt) {
        WorldDump faultFree = replay.replayDump;
        WorldDump now = dump();
        WorldDump mid = atFault;
        WorldDump[] without = new WorldDump[1]; // replayed when the other three do not explain a value
        // Ids handed out before the fault name the same entities in both runs; later ones need not (the fault-free
        // run goes on with the call the fault cut short, and allocates ids this run gives to others), so entities
        // created after the fault are left to the invariants.
        Set<Long> known = new HashSet<>(seen.subList(0, seenAtFault));
        if (staged != 0) { // the call's own observer threw: its work stayed staged, and unwind() published it
            check(java.util.Objects.equals(now.values().get(staged), faultFree.values().get(staged)), "the call "
                    + "whose observer threw at " + point + " must be published by unwind() as without the fault: "
                    + Entity.toString(staged) + " is " + now.values().get(staged) + ", fault-free "
                    + faultFree.values().get(staged));
        }
        Set<Long> ids = new TreeSet<>(now.values().keySet());
        ids.addAll(before.values().keySet());
        ids.addAll(faultFree.values().keySet());
        ids.retainAll(known);
        ids.remove(exempt); // checked on its own (checkQueueSpawnAsStarted)
        for (long id : ids) {
            SortedMap<String, String> was = before.values().get(id);
            SortedMap<String, String> then = mid.values().get(id);
            SortedMap<String, String> full = faultFree.values().get(id);
            SortedMap<String, String> is = now.values().get(id);
            if (is == null) {
                // as in a publication (comparePublished): a cascading edge that stood at the fault, to a target dead
                // now, despawns its source at the next publication even where the fault-free run spared it; the
                // work of the same commit that moved the edge away was discarded with the unpublished rest of the
                // wave (seed -3720417193289334674: an OnSpawn fault in a commit that despawned 2#0 and re-targeted
                // its child 4#0's cascading DenseChildOf edge to 4#0 itself)
                check(was == null || then == null || full == null
                        || byLaterStep(null, null, java.util.Arrays.asList(was, then, full))
                        || owesCascade(id, then, now)
                        || withoutOperation(without).values().get(id) == null, "after a fault at " + point + ", "
                        + Entity.toString(id) + " is dead but was alive before, at the fault, without the fault and "
                        + "without the operation");
                continue;
            }
            check(was != null || then != null || full != null || withoutOperation(without).values().get(id) != null,
                    "after a fault at " + point + ", " + Entity.toString(id) + " is alive but existed neither "
                    + "before, at the fault, without the fault nor without the operation: " + is);
            Set<String> components = new LinkedHashSet<>(is.keySet());
            for (SortedMap<String, String> other : java.util.Arrays.asList(was, then, full)) {
                if (other != null) {
                    components.addAll(other.keySet());
                }
            }
            for (String component : components) {
                String value = is.get(component);
                boolean legal = false;
                for (SortedMap<String, String> other : java.util.Arrays.asList(was, then, full)) {
                    legal |= other != null && java.util.Objects.equals(other.get(component), value);
                }
                legal |= byLaterStep(component, value, java.util.Arrays.asList(is, was, then, full));
                legal |= value == null && edgesToTheDead(now, java.util.Arrays.asList(was, then), component);
                // the request of a parallel system before the failing one applies (staged, published by unwind()),
                // where in the fault-free run later systems may have changed the entity again
                legal |= point == Point.PARALLEL_BODY && parallelFailed == 1 && id == healerAsked
                        && component.equals(HEALTH.name()) && value != null && value.startsWith(HEALED + "/");
                // a row the failed wave had published keeps the sparse edges it was given, which its segment had not
                // flushed when the callback threw and the failure path flushed after it; the fault-free run need not
                // show them, when later work of that wave (discarded here) despawned a target and so the entity
                // (seed -2608578306275277215: an OnSpawn fault, the cascading HeldBy edge of a new entity)
                legal |= then != null && then.get(component) != null && isRelational(component)
                        && edgesFrom(value, then.get(component), edgesGiven.getOrDefault(id, Set.of()));
                SortedMap<String, String> skipped = legal ? null : withoutOperation(without).values().get(id);
                legal |= skipped != null && java.util.Objects.equals(skipped.get(component), value);
                check(legal, "after a fault at " + point + ", " + Entity.toString(id) + " " + component + "="
                        + value + " but before=" + (was == null ? "dead" : was.get(component)) + ", at the fault="
                        + (then == null ? "dead" : then.get(component)) + ", fault-free="
                        + (full == null ? "dead" : full.get(component)) + ", without the operation="
                        + (skipped == null ? "dead" : skipped.get(component)) + "\n  now:        "
                        + now.entities().get(id) + "\n  fault-free: " + faultFree.entities().get(id));
            }
        }
    }

    /**
     * A fault in a transition (which completed all the same, see {@link #recover}): the stack must be the fault-free
     * run's. An observer's exception is only held while the remaining steps run, so after one the world must be
     * exactly the fault-free one; a fault in a policy operation's publication cuts that publication short (what it
     * had published stays, the rest is discarded) and the later steps run, so every entity must be as before, as at
     * the fault, or as without the fault.
     */
    private void compareTransition(Point point, WorldDump before) {
        FaultRun replay = faultFree();
        check(world.listStates().equals(replay.finalStack), "after a fault at " + point + " in a transition the "
                + "stack is " + world.listStates() + ", without the fault " + replay.finalStack);
        if (point != Point.STATE_OBSERVER) {
            laterSteps = laterStepsOfFault();
            try {
                compareWithFaultFree(point, before, 0, replay, 0);
            } finally {
                laterSteps = Map.of();
            }
            return;
        }
        WorldDump now = dump();
        Set<Long> ids = new TreeSet<>(now.values().keySet());
        ids.addAll(replay.replayDump.values().keySet());
        for (long id : ids) {
            check(java.util.Objects.equals(now.values().get(id), replay.replayDump.values().get(id)), "a state "
                    + "observer's exception is held until the transition ends, so the world must be as without it: "
                    + Entity.toString(id) + " is " + now.values().get(id) + ", fault-free "
                    + replay.replayDump.values().get(id));
        }
    }

    /**
     * The policy operations the transition ran in full after the step a fault struck in, by state: a fault in a
     * push's blur operation (before {@code StateBlur}) leaves the pushed state's enter operation to come, one in a
     * pop's exit operation (while the leaving state is still on the stack) the uncovered state's focus operation.
     * They reach every entity of their state, including those that the cut-short step's discarded work (a despawn,
     * and the cascade it would have run) left alive although the fault-free run has them dead.
     */
    private Map<String, StateOperation> laterStepsOfFault() {
        if (allocationInTransition) {
            // Where in the transition the allocation failed is not observable from here (no callback ran): in the
            // first policy operation, the second one still ran in full; in the second, it was cut short, and each
            // entity is as before it or as it leaves it. Either way the second operation explains a value.
            String later = transitionPushed != null ? transitionPushed : transitionOther;
            if (later == null) {
                return Map.of();
            }
            return Map.of(later, transitionPushed != null ? policyOf(later).onEnter() : policyOf(later).onFocus());
        }
        if (transitionPushed != null) {
            return transitionOther != null && stateEventsAtFault == 0
                    ? Map.of(transitionPushed, policyOf(transitionPushed).onEnter()) : Map.of();
        }
        return transitionOther != null && stackAtFault != null && stackAtFault.contains(transitionLeaving)
                ? Map.of(transitionOther, policyOf(transitionOther).onFocus()) : Map.of();
    }

    private static StatePolicy policyOf(String state) {
        return state.equals(GAME) ? GAME_POLICY : MENU_POLICY;
    }

    /**
     * Whether a later step of the transition (see {@link #laterStepsOfFault}) explains a value: its operation on an
     * entity carrying its state's tag in one of {@code versions} ({@code component} null: the entity is dead).
     */
    private boolean byLaterStep(String component, String value, List<SortedMap<String, String>> versions) {
        for (Map.Entry<String, StateOperation> later : laterSteps.entrySet()) {
            String tag = "state:" + later.getKey();
            if (versions.stream().noneMatch(v -> v != null && v.containsKey(tag))) {
                continue;
            }
            String paused = dev.jtecs.builtin.Paused.COMPONENT.name();
            String disabled = dev.jtecs.builtin.Disabled.COMPONENT.name();
            boolean explained = switch (later.getValue()) {
                case PAUSE -> paused.equals(component) && "true".equals(value);
                case RESUME -> paused.equals(component) && value == null;
                case DISABLE -> disabled.equals(component) && "true".equals(value);
                case ENABLE -> disabled.equals(component) && value == null;
                case DESPAWN -> component == null;
                case NONE -> false;
            };
            if (explained) {
                return true;
            }
        }
        return false;
    }

    private WorldDump dump() {
        return WorldDump.of(world, List.of(positions, levels, marked), List.of());
    }

    // ---------------------------------------------------------------- failures

    private void note(String entry) {
        if (suppressedStep >= 0) {
            return;
        }
        if (log.size() == LOG_TAIL) {
            log.removeFirst();
        }
        log.addLast("#" + step + " " + entry);
    }

    private void check(boolean condition, String message) {
        if (!condition) {
            throw mismatch(message, null);
        }
    }

    private ModelMismatch mismatch(String message, Throwable cause) {
        ModelMismatch mismatch = new ModelMismatch(seed, step, (instant ? "[instant] " : "[staged] ") + message,
                List.copyOf(log));
        if (cause != null) {
            mismatch.initCause(cause);
        }
        return mismatch;
    }

    /** The seed of this run. */
    public long seed() {
        return seed;
    }

}
