package dev.jtecs.bench.jmh;

import dev.jtecs.builtin.ChildOf;
import dev.jtecs.builtin.RelativeTransform2D;
import dev.jtecs.builtin.Transform2D;
import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.component.ComponentLayout;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.PrimitiveKind;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Memory per entity of the {@code transforms} forest ({@link Forest#transformsShaped}: trees 4 deep, 3 children
 * per inner node), built as {@link TransformsBenchmark} builds it: each root with a {@link Transform2D}, the children
 * of each parent from one {@code batchSpawn} holding {@code ChildOf.COMPONENT.to(parent)} and a
 * {@link RelativeTransform2D}, then one {@code update} that composes every child's {@code Transform2D}.
 *
 * <p>Reported per entity: the world's heap (heap in use after full collections with the world open, less the same
 * once it is closed and dropped), after a second, still frame (the steady state: the first frame's gather of the
 * hierarchy's order keeps a scratch of about 29 bytes per child, given back by the next frame that finds the order
 * current) and, in parentheses, after the first frame; its native bytes held from the system
 * ({@link World#nativeFootprintBytes()}) and the part of them its buffers use ({@link World#nativeBytesReserved()}:
 * the rest is slab memory the allocator keeps for reuse, such as the smaller buffers a column outgrew); and its
 * column bytes (each archetype's rows times the bytes of a row: the id and every native field). The same forest
 * is measured twice, with {@code ChildOf} edges ({@code childOf}) and with the children as plain entities of the same
 * components and no edge at all ({@code noEdges}), so the difference is what the hierarchy costs beyond its
 * columns.
 *
 * <p>Run: {@code java -cp bench/target/jtecs.jar dev.jtecs.bench.jmh.HierarchyFootprint [entities]} (default
 * 100,000, a multiple of 40). Heap figures come from {@code System.gc()} and are exact only to a few bytes per
 * entity; the least of several readings is taken.
 */
public final class HierarchyFootprint {
    /** One measurement, per entity. */
    record PerEntity(String storage, int entities, double heapFirstFrame, double heap, double nativeBytes,
            double nativeReserved, double columnBytes) {
        double total() {
            return heap + nativeBytes;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%-8s %,9d entities: heap %6.1f B (first frame %6.1f B), native %6.1f B "
                    + "(buffers %6.1f B), total %6.1f B, columns %5.1f B (total = %.2fx columns; heap + buffers = %.2fx)",
                    storage, entities, heap, heapFirstFrame, nativeBytes, nativeReserved, total(), columnBytes,
                    total() / columnBytes, (heap + nativeReserved) / columnBytes);
        }
    }

    private HierarchyFootprint() {}

    public static void main(String[] args) {
        int entities = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        for (boolean edges : new boolean[] {true, false}) {
            System.out.println(measure(entities, edges));
        }
    }

    /** Builds the forest (with {@code ChildOf} edges or without), measures it and closes the world. */
    static PerEntity measure(int entities, boolean withEdges) {
        Forest forest = Forest.transformsShaped(entities);
        long before = heapAfterCollections();
        World world = World.create(WorldConfig.defaults().maxEntities(entities + 1));
        spawn(world, forest, withEdges);
        world.update(0); // composes, gathering the hierarchy's order
        long firstFrame = heapAfterCollections();
        world.update(0); // a still frame: the order is current, and its gather's scratch goes back
        long withWorld = heapAfterCollections();
        long nativeBytes = world.nativeFootprintBytes();
        long nativeReserved = world.nativeBytesReserved();
        long columns = columnBytes(world);
        world.close();
        world = null;
        long after = heapAfterCollections();
        long heap = withWorld - Math.max(before, after);
        long heapFirstFrame = firstFrame - Math.max(before, after);
        return new PerEntity(withEdges ? "childOf" : "noEdges", entities, (double) heapFirstFrame / entities,
                (double) heap / entities,
                (double) nativeBytes / entities, (double) nativeReserved / entities, (double) columns / entities);
    }

    private static void spawn(World world, Forest forest, boolean withEdges) {
        long[] ids = new long[forest.nodes()];
        for (int i = 0; i < forest.nodes(); i++) {
            if (forest.parent[i] < 0) {
                ids[i] = world.spawn(Transform2D.COMPONENT.of(new Transform2D(i, -i, 0, 0, 0.5f, 1, 1)));
            }
        }
        for (int p = 0; p < forest.nodes(); p++) {
            int count = forest.childCount[p];
            if (count == 0) {
                continue;
            }
            List<Input> components = new ArrayList<>();
            components.add(RelativeTransform2D.COMPONENT);
            components.add(Transform2D.COMPONENT);
            if (withEdges) {
                components.add(ChildOf.COMPONENT.to(ids[p]));
            }
            long[] batch = world.batchSpawn(count, components, (archetype, fromRow, toRow) -> {
                for (int row = fromRow; row < toRow; row++) {
                    archetype.set(row, RelativeTransform2D.COMPONENT.of(
                            new RelativeTransform2D(row, 1, 0, 0.1f, 1, 1, 0, 0)));
                }
            }).toArray();
            System.arraycopy(batch, 0, ids, forest.firstChild[p], count);
        }
    }

    /** The bytes of every row of every archetype: its id and each native field. */
    static long columnBytes(World world) {
        long[] total = {0};
        world.forEachArchetype(archetype -> total[0] += (long) archetype.count() * rowBytes(archetype));
        return total[0];
    }

    private static int rowBytes(Archetype archetype) {
        int bytes = Long.BYTES; // the entity id
        for (Component<?> component : archetype.components()) {
            if (component instanceof NativeComponent<?> n) {
                ComponentLayout layout = n.layout();
                for (PrimitiveKind kind : layout.fieldKinds()) {
                    bytes += kind.byteSize();
                }
            }
        }
        return bytes;
    }

    /** Heap in use after full collections: the least of several readings, each after {@code System.gc()}. */
    static long heapAfterCollections() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            least = Math.min(least, memory.getHeapMemoryUsage().getUsed());
        }
        return least;
    }
}
