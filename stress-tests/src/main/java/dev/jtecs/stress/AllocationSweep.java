package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.CHILD_OF;
import static dev.jtecs.stress.ModelComponents.HELD_BY;
import static dev.jtecs.stress.ModelComponents.LABEL;
import static dev.jtecs.stress.ModelComponents.LEVEL;
import static dev.jtecs.stress.ModelComponents.MARKED;
import static dev.jtecs.stress.ModelComponents.POSITION;
import static dev.jtecs.stress.ModelComponents.STATS;
import static dev.jtecs.stress.ModelComponents.VELOCITY;

import dev.jtecs.entity.internal.AllocationFaults;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.snapshot.Snapshot;
import dev.jtecs.snapshot.SnapshotOptions;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Every allocation of a fixed script, made to fail in turn: for each step of the script, each kind of allocation
 * ({@linkplain AllocationFaults.Kind native buffers and heap-array growths}) and every k from 1 to the number of
 * allocations of that kind the step makes, a fresh world runs the steps before it, the k-th allocation of the step
 * fails with {@link OutOfMemoryError}, and then:
 *
 * <ul>
 *   <li>after {@code unwind()}, the {@link WorldInvariants} hold (rows, indexes, keys, edges, query membership as
 *       the engine and as the membership callbacks report it);
 *   <li>every entity is, as a whole, as before the step or as the step leaves it without the fault (a step of
 *       several calls stops at the one that failed; what a failed commit had published stays, and the rest stays
 *       staged until {@code unwind()} publishes it): never a mix inside one entity, never anything else; a
 *       snapshot load that fails once its checks passed may instead leave the world empty, as documented;
 *   <li>the world keeps working: the rest of the script runs on it, and its end state is checked again.
 * </ul>
 *
 * <p>The script covers what allocates: spawns one at a time and in batches, tag and data-component moves, staged
 * work published by a commit, despawns, relationship edges and a cascade, a whole-archetype move by a query batch,
 * compaction, a binary snapshot saved and loaded, and the instant calls nobody hears, which are published without
 * being staged (spawns, a new value, reparentings, despawns), and reparentings in a scope, each queued alone.
 */
public final class AllocationSweep {
    /** What one sweep did. */
    public record Result(long faults, long steps, long checks) {}

    private static final class Script {
        final World world;
        final List<Long> ids = new ArrayList<>();
        final Set<Long> positions = new TreeSet<>();
        final Query positionQuery;
        final Query marked;
        final List<Long> unheard = new ArrayList<>(); // in an archetype no query watches: instant calls go short
        final List<Long> holders = new ArrayList<>();
        final List<Long> held = new ArrayList<>();

        Script(World world) {
            this.world = world;
            positionQuery = world.newQuery(QueryDescriptor.builder().name("positions").include(POSITION)
                    .onEntitiesAdded((archetype, from, to) -> {
                        for (int row = from; row < to; row++) {
                            positions.add(archetype.entity(row));
                        }
                    })
                    .onEntitiesRemoved((archetype, from, to) -> {
                        for (int row = from; row < to; row++) {
                            positions.remove(archetype.entity(row));
                        }
                    }).build());
            marked = world.newQuery(QueryDescriptor.builder().name("marked").include(MARKED).build());
        }

        long id(int i) {
            return ids.get(i % ids.size());
        }
    }

    private static final List<Consumer<Script>> STEPS = List.of(
            s -> { // spawns one at a time, published at once
                for (int i = 0; i < 80; i++) {
                    s.ids.add(s.world.spawn(POSITION.of(new ModelComponents.Position(i, -i)),
                            VELOCITY.of(new ModelComponents.Velocity(1, i))));
                }
            },
            s -> { // a batch
                for (long id : s.world.batchSpawn(300, List.of(POSITION, LEVEL.of(7))).toArray()) {
                    s.ids.add(id);
                }
            },
            s -> { // a tag on, one entity at a time
                for (int i = 0; i < 60; i++) {
                    s.world.set(s.id(i * 5), MARKED);
                }
            },
            s -> { // and off again for some (each step touches an entity once: see the class doc)
                for (int i = 0; i < 20; i++) {
                    s.world.remove(s.id(i * 5), MARKED);
                }
            },
            s -> { // staged data-component moves, published by one commit
                s.world.defer();
                for (int i = 0; i < 70; i++) {
                    s.world.set(s.id(100 + i), VELOCITY.of(new ModelComponents.Velocity(i, 0)));
                }
                for (int i = 0; i < 30; i++) {
                    s.world.remove(s.id(200 + i), POSITION);
                }
                s.world.commit();
            },
            s -> { // children under a few parents, staged
                s.world.defer();
                for (int i = 0; i < 40; i++) {
                    s.ids.add(s.world.spawn(POSITION, CHILD_OF.to(s.id(i % 4))));
                }
                s.world.commit();
            },
            s -> { // despawns one at a time, a cascade among them
                for (int i = 0; i < 30; i++) {
                    long id = s.id(7 * i + 1);
                    if (s.world.isAlive(id)) {
                        s.world.despawn(id);
                    }
                }
                if (s.world.isAlive(s.id(0))) {
                    s.world.despawn(s.id(0)); // a parent: its children go too
                }
            },
            s -> s.world.batchSet(s.positionQuery, LABEL.of(new ModelComponents.Label("swept", List.of("a")))),
            s -> s.world.batchDespawn(s.marked),
            s -> s.world.compact(),
            s -> { // a binary snapshot, saved and loaded back
                Snapshot saved = s.world.saveSnapshot(SnapshotOptions.binary());
                s.world.loadSnapshot(saved);
            },
            s -> { // and the world still takes a spawn burst afterwards
                for (long id : s.world.batchSpawn(100, List.of(POSITION, MARKED)).toArray()) {
                    s.ids.add(id);
                }
            },
            s -> { // spawns nobody hears, into an archetype no query watches: placed at once after the first
                for (int i = 0; i < 60; i++) {
                    long id = s.world.spawn(LEVEL.of(i), MARKED);
                    s.ids.add(id);
                    s.unheard.add(id);
                }
            },
            s -> { // a new value of a plain record each (generated accessors), moved at once after the first
                for (int i = 0; i < s.unheard.size(); i++) {
                    s.world.set(s.unheard.get(i), STATS.of(new ModelComponents.Stats((byte) i, true, (short) i,
                            'x', i, i, i, i)));
                }
            },
            s -> { // a sparse hierarchy, one call at a time
                for (int i = 0; i < 3; i++) {
                    s.holders.add(s.world.spawn(LEVEL.of(100 + i)));
                }
                for (int i = 0; i < 40; i++) {
                    long id = s.world.spawn(LEVEL.of(i), HELD_BY.to(s.holders.get(0)));
                    s.ids.add(id);
                    s.held.add(id);
                }
            },
            s -> { // reparentings, each written into the edge store at once (the marker is there)
                for (int i = 0; i < s.held.size(); i++) {
                    s.world.set(s.held.get(i), HELD_BY.to(s.holders.get(1 + i % 2)));
                }
            },
            s -> { // reparentings in a scope, each queued alone (the marker is there), then the commit
                s.world.defer();
                for (int i = 0; i < s.held.size(); i++) {
                    s.world.set(s.held.get(i), HELD_BY.to(s.holders.get(2 - i % 2)));
                }
                s.world.commit();
            },
            s -> { // despawns nobody hears, one at a time, no edge involved
                for (long id : s.unheard) {
                    s.world.despawn(id);
                }
            });

    /** The step that loads a snapshot: a load that fails after its checks leaves the world empty instead. */
    private static final int LOAD_STEP = 10;

    private AllocationSweep() {}

    /** The number of steps in the script. */
    public static int steps() {
        return STEPS.size();
    }

    /** Sweeps every step, every kind and every k. */
    public static Result run() {
        long faults = 0;
        long steps = 0;
        long checks = 0;
        for (int step = 0; step < STEPS.size(); step++) {
            for (AllocationFaults.Kind kind : AllocationFaults.Kind.values()) {
                long reached = allocations(step, kind);
                for (long k = 1; k <= reached; k++) {
                    checks += failAt(step, kind, k);
                    faults++;
                }
                steps++;
            }
        }
        return new Result(faults, steps, checks);
    }

    /** How many allocations of {@code kind} step {@code step} makes without a fault. */
    static long allocations(int step, AllocationFaults.Kind kind) {
        try (World world = newWorld()) {
            Script script = new Script(world);
            for (int i = 0; i < step; i++) {
                STEPS.get(i).accept(script);
            }
            AllocationFaults.disarm();
            STEPS.get(step).accept(script);
            return AllocationFaults.seen(kind);
        } finally {
            AllocationFaults.disarm();
        }
    }

    /** Runs the script with the {@code k}-th allocation of {@code kind} in step {@code step} failing; checks. */
    static int failAt(int step, AllocationFaults.Kind kind, long k) {
        String where = "step " + step + ", " + kind + " allocation #" + k;
        WorldDump faultFree;
        try (World world = newWorld()) {
            Script script = new Script(world);
            for (int i = 0; i <= step; i++) {
                STEPS.get(i).accept(script);
            }
            faultFree = WorldDump.of(world);
        }
        try (World world = newWorld()) {
            Script script = new Script(world);
            for (int i = 0; i < step; i++) {
                STEPS.get(i).accept(script);
            }
            WorldDump before = WorldDump.of(world);
            AllocationFaults.failAt(kind, k);
            try {
                STEPS.get(step).accept(script);
                if (AllocationFaults.armed(kind)) {
                    throw new ModelMismatch(0, step, where + ": no fault was injected", List.of());
                }
                // fired and absorbed: a table's views, made after its buffers moved, are made again when next
                // asked for; the step completed, and the checks below hold it to the fault-free world
                where += " (absorbed)";
            } catch (OutOfMemoryError expected) {
                if (!AllocationFaults.isInjected(expected)) {
                    throw expected;
                }
                where += " (thrown " + frames(expected) + ")";
            } finally {
                AllocationFaults.disarm();
            }
            try {
                world.unwind();
            } catch (RuntimeException e) {
                throw mismatch(where, "unwind() threw " + e);
            }
            check(world, script, where + ", after unwind()");
            WorldDump after = WorldDump.of(world);
            Set<Long> entities = new TreeSet<>(after.values().keySet());
            entities.addAll(before.values().keySet());
            entities.addAll(faultFree.values().keySet());
            boolean emptiedByLoad = step == LOAD_STEP && after.values().isEmpty(); // the documented outcome
            for (long id : emptiedByLoad ? Set.<Long>of() : entities) {
                var is = after.values().get(id);
                if (!java.util.Objects.equals(is, before.values().get(id))
                        && !java.util.Objects.equals(is, faultFree.values().get(id))) {
                    throw mismatch(where, dev.jtecs.entity.Entity.toString(id) + " is " + is + ", but before the "
                            + "step " + before.values().get(id) + " and without the fault "
                            + faultFree.values().get(id));
                }
            }
            for (int i = step + 1; i < STEPS.size(); i++) { // and it keeps working
                STEPS.get(i).accept(script);
            }
            world.unwind();
            check(world, script, where + ", at the end of the script");
            return 2;
        }
    }

    /** Where an injected fault was thrown: the engine's frames below the allocation check. */
    static String frames(Throwable fault) {
        StringBuilder sb = new StringBuilder();
        int shown = 0;
        for (StackTraceElement frame : fault.getStackTrace()) {
            if (frame.getClassName().startsWith("dev.jtecs.entity.internal.AllocationFaults")) {
                continue;
            }
            if (shown++ == 8 || frame.getClassName().startsWith("dev.jtecs.stress")) {
                break;
            }
            sb.append(shown == 1 ? "at " : " < ").append(frame.getClassName().substring(
                    frame.getClassName().lastIndexOf('.') + 1)).append('.').append(frame.getMethodName())
                    .append(':').append(frame.getLineNumber());
        }
        return sb.toString();
    }

    private static World newWorld() {
        return World.create(WorldConfig.defaults().maxEntities(1 << 12));
    }

    private static void check(World world, Script script, String where) {
        List<String> violations = WorldInvariants.check(world, script.ids,
                List.of(new WorldInvariants.Tracked(script.positionQuery, script.positions),
                        new WorldInvariants.Tracked(script.marked, null)), List.of(), List.of());
        if (!violations.isEmpty()) {
            throw mismatch(where, String.join("; ", violations));
        }
    }

    private static ModelMismatch mismatch(String where, String message) {
        return new ModelMismatch(0, 0, where + ": " + message, List.of());
    }
}
