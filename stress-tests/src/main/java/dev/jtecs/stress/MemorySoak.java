package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.CHILD_OF;
import static dev.jtecs.stress.ModelComponents.LABEL;
import static dev.jtecs.stress.ModelComponents.LEVEL;
import static dev.jtecs.stress.ModelComponents.MARKED;
import static dev.jtecs.stress.ModelComponents.POSITION;
import static dev.jtecs.stress.ModelComponents.STATS;
import static dev.jtecs.stress.ModelComponents.WATCHES;

import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.IntColumn;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Memory measurements of a world: a bounded soak of seeded churn (single and batch spawns, moves, edges with
 * cascades, single and batch despawns, compaction), sampled at the end of each round, and the heap cost of
 * entities whose components are all native.
 *
 * <p>Every soak round starts and ends with the same live entities (a few pinned parents), so a world that reuses
 * what it frees ends each round with the same native bytes, once its archetypes are all there, and the same heap
 * (measured after a full collection); one that leaks per entity, per archetype or per edge grows round after
 * round.
 */
public final class MemorySoak {
    /**
     * One round: its peak population and native bytes reserved then, and what it left behind at the end (every
     * churned entity despawned, everything published, compacted): entities, archetypes, native bytes reserved
     * and held, heap in use after a full collection.
     */
    public record Round(int round, int peakEntities, long peakNativeReserved, int entities, int archetypes,
            long nativeReserved, long nativeFootprint, long heapAfterGc) {}

    /**
     * The components shapes are drawn from: a native record, a wide native record, a managed value, a scalar and
     * a tag. Few enough that every (shape, parent, sparse marker) archetype exists after the first rounds: the
     * archetype count then stops growing, and the plateau shows.
     */
    private static final List<Component<?>> SHAPES = List.of(POSITION, STATS, LABEL, LEVEL, MARKED);

    /**
     * Dense edges point at a few pinned parents and at one doomed parent per round: every dense edge target is a
     * pair, and each (shape, parent) an archetype, so parents without number would measure fragmentation (which
     * {@code compact()} answers only for dead targets) rather than leaks.
     */
    private static final int PARENTS = 4;

    private MemorySoak() {}

    /**
     * Runs {@code rounds} rounds; each spawns {@code population} entities (half singly, half in batches), moves,
     * links and re-links a tenth of them, despawns a parent some of them were linked to (a cascade), despawns the
     * rest (the marked ones in a batch, the others one by one) and compacts. A few pinned parents stay throughout.
     * The world is closed at the end.
     */
    public static List<Round> soak(long seed, int rounds, int population) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Round> samples = new ArrayList<>();
        try (World world = World.create(WorldConfig.defaults().maxEntities(population * 4))) {
            Query marked = world.newQuery(QueryDescriptor.builder().include(MARKED).build());
            long[] parents = new long[PARENTS];
            for (int i = 0; i < PARENTS; i++) {
                parents[i] = world.spawn(LEVEL.of(i)); // never despawned, never in the live list
            }
            List<Long> live = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                grow(world, random, live, population);
                long doomed = world.spawn(POSITION); // this round's cascade: its children die with it
                churn(world, random, live, parents, doomed);
                int peak = world.entityCount();
                long peakReserved = world.nativeBytesReserved();
                world.despawn(doomed);
                shrink(world, random, live, marked, PARENTS);
                world.compact(); // prunes the doomed parent's archetypes, shrinks the emptied ones
                samples.add(new Round(round, peak, peakReserved, world.entityCount(), world.archetypeCount(),
                        world.nativeBytesReserved(), world.nativeFootprintBytes(), heapAfterGc()));
            }
        }
        return samples;
    }

    private static void grow(World world, SplittableRandom random, List<Long> live, int population) {
        for (int i = 0; i < population / 2; i++) {
            live.add(world.spawn(shape(random)));
        }
        int remaining = population - population / 2;
        while (remaining > 0) {
            int count = Math.min(remaining, random.nextInt(1, 2000));
            List<Input> inputs = List.of(shape(random));
            for (long id : world.batchSpawn(count, inputs, (archetype, from, to) -> {
                if (archetype.has(LEVEL)) {
                    IntColumn level = archetype.getMut(LEVEL);
                    for (int row = from; row < to; row++) {
                        level.set(row, row);
                    }
                }
            }).toArray()) {
                live.add(id);
            }
            remaining -= count;
        }
    }

    private static Input[] shape(SplittableRandom random) {
        List<Input> inputs = new ArrayList<>();
        for (Component<?> component : SHAPES) {
            if (random.nextInt(3) == 0) {
                inputs.add(ModelComponents.randomInput(component, random));
            }
        }
        if (inputs.isEmpty()) {
            inputs.add(POSITION);
        }
        return inputs.toArray(new Input[0]);
    }

    /**
     * Moves, links and re-links a tenth of the live entities, in one deferred scope: dense edges to the pinned
     * parents and to the doomed one, sparse edges to anyone.
     */
    private static void churn(World world, SplittableRandom random, List<Long> live, long[] parents, long doomed) {
        world.defer();
        for (int i = live.size() / 10; i > 0; i--) {
            long id = live.get(random.nextInt(live.size()));
            long other = random.nextInt(8) == 0 ? doomed : parents[random.nextInt(parents.length)];
            switch (random.nextInt(5)) {
                case 0 -> world.set(id, ModelComponents.randomInput(SHAPES.get(random.nextInt(SHAPES.size())),
                        random));
                case 1 -> world.remove(id, SHAPES.get(random.nextInt(SHAPES.size())));
                case 2 -> {
                    if (id != other) {
                        world.set(id, CHILD_OF.to(other)); // a cascade when the parent goes
                    }
                }
                case 3 -> world.set(id, WATCHES.to(live.get(random.nextInt(live.size()))));
                default -> world.remove(id, WATCHES);
            }
        }
        world.commit();
    }

    /** Despawns down to {@code population}: the marked entities in one batch, then the rest one by one. */
    private static void shrink(World world, SplittableRandom random, List<Long> live, Query marked, int population) {
        world.batchDespawn(marked);
        live.removeIf(id -> !world.isAlive(id)); // cascades and the batch took some
        while (world.entityCount() > population) {
            int index = random.nextInt(live.size());
            long id = live.get(index);
            live.set(index, live.get(live.size() - 1));
            live.remove(live.size() - 1);
            if (world.isAlive(id)) {
                world.despawn(id);
            }
        }
        live.removeIf(id -> !world.isAlive(id));
    }

    /**
     * Heap bytes in use after full collections: the least of several, each after {@code System.gc()}, so
     * garbage a collection left (or a concurrent allocation by the test harness) does not count.
     */
    public static long heapAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            least = Math.min(least, memory.getHeapMemoryUsage().getUsed());
        }
        return least;
    }

    /**
     * The heap cost of {@code count} entities spawned in one batch with {@code inputs}: heap after collection
     * with the entities alive minus heap after collection with the world empty, per entity. The world is closed
     * at the end.
     */
    public static double heapBytesPerEntity(int count, List<Input> inputs) {
        try (World world = World.create(WorldConfig.defaults().maxEntities(count + 1))) {
            world.spawn(inputs.toArray(new Input[0])); // the archetype and its first buffers exist before the baseline
            long before = heapAfterGc();
            world.batchSpawn(count, inputs);
            long after = heapAfterGc();
            if (world.entityCount() != count + 1) {
                throw new IllegalStateException("expected " + (count + 1) + " entities, found " + world.entityCount());
            }
            return (after - before) / (double) count;
        }
    }
}
