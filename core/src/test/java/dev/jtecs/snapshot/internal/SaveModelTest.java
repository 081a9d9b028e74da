package dev.jtecs.snapshot.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.ChildOf;
import dev.jtecs.builtin.Transform2D;
import dev.jtecs.component.Components;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.snapshot.OnSnapshotSave;
import dev.jtecs.snapshot.Snapshot;
import dev.jtecs.snapshot.SnapshotOptions;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a save selects and how it orders it: the component table by name, pairs and sparse relationships by
 * that table, the layer and descriptor filters and the observers' exclusions, and the cascading sources that go
 * with the entities a save leaves out (transitively, dense and sparse, transient ones aside).
 */
class SaveModelTest {
    static final ScalarComponent.OfInt HP = Components.scalar("savemodel.Hp", 0);
    static final TagComponent MARK = Components.tag("savemodel.Mark");
    static final TagComponent OTHER = Components.tag("savemodel.Other");
    static final TagComponent KEPT = Components.tag("savemodel.Kept");
    static final TagComponent DROPPED = Components.tag("savemodel.Dropped");
    // registered in the reverse of their names' order: the table sorts them by name
    static final Relationship Z_DENSE = Relationships.register("savemodel.z.Dense");
    static final Relationship A_DENSE = Relationships.register("savemodel.a.Dense");
    static final Relationship Z_SPARSE = Relationships.register("savemodel.z.Sparse", o -> o.sparse());
    static final Relationship A_SPARSE = Relationships.register("savemodel.a.Sparse", o -> o.sparse());
    static final Relationship CASCADE = Relationships.register("savemodel.Cascade",
            o -> o.exclusive().reverseIndex().cascadeDelete());
    static final Relationship LOOSE_CASCADE = Relationships.register("savemodel.LooseCascade",
            o -> o.exclusive().reverseIndex().cascadeDelete().transient_(true));
    static final Relationship LOOSE_SPARSE_CASCADE = Relationships.register("savemodel.LooseSparseCascade",
            o -> o.sparse().exclusive().reverseIndex().cascadeDelete().transient_(true));

    private static List<String> names(Map<String, Object> root) {
        List<String> names = new ArrayList<>();
        for (Object entry : (List<?>) root.get("componentTable")) {
            names.add((String) ((Map<?, ?>) entry).get("name"));
        }
        return names;
    }

    private static Map<?, ?> frameOf(Map<String, Object> root, long id) {
        for (Object frame : (List<?>) root.get("archetypes")) {
            if (((List<?>) ((Map<?, ?>) frame).get("ids")).contains(Long.toString(id))) {
                return (Map<?, ?>) frame;
            }
        }
        throw new AssertionError("no frame holds " + Entity.toString(id));
    }

    private static List<Long> sparseTargets(World world, long source, Relationship relationship) {
        List<Long> out = new ArrayList<>();
        world.forEachRelationship(source, relationship, edge -> out.add(edge.target()));
        return out;
    }

    @Test
    void theComponentTableIsSortedByNameAndFramesListPairsAndSparseRelationshipsInItsOrder() {
        try (World world = World.create(); World copy = World.create()) {
            long t1 = world.spawn(MARK);
            long t2 = world.spawn(MARK);
            long source = world.spawn(Z_DENSE.to(t2), Z_SPARSE.to(t1)); // pairs come into being in this order
            world.set(source, Z_DENSE.to(t1));
            world.set(source, A_DENSE.to(t2));
            world.set(source, A_SPARSE.to(t2));
            Map<String, Object> root = world.saveSnapshot().table();
            List<String> names = names(root);
            List<String> sorted = new ArrayList<>(names);
            sorted.sort(null);
            assertEquals(sorted, names);
            int a = names.indexOf("savemodel.a.Dense");
            int z = names.indexOf("savemodel.z.Dense");
            Map<?, ?> frame = frameOf(root, source);
            assertEquals(List.of(Map.of("relationship", a, "target", Long.toString(t2)),
                    Map.of("relationship", z, "target", Long.toString(t1)),
                    Map.of("relationship", z, "target", Long.toString(t2))), frame.get("pairs"));
            List<Object> sparse = new ArrayList<>();
            for (Object entry : (List<?>) frame.get("sparse")) {
                sparse.add(((Map<?, ?>) entry).get("relationship"));
            }
            assertEquals(List.of(names.indexOf("savemodel.a.Sparse"), names.indexOf("savemodel.z.Sparse")), sparse);
            List<Object> components = new ArrayList<>((List<?>) frame.get("components"));
            List<Object> ascending = new ArrayList<>(components);
            ascending.sort(null);
            assertEquals(ascending, components, "a frame's components by table index");
            assertFalse(components.contains(a), "a dense marker follows its pairs, it is not listed");
            assertTrue(components.contains(names.indexOf("savemodel.a.Sparse")), "a sparse marker is listed");

            copy.loadSnapshot(root);
            assertTrue(copy.has(source, Z_DENSE.targeting(t1)));
            assertTrue(copy.has(source, Z_DENSE.targeting(t2)));
            assertTrue(copy.has(source, A_DENSE.targeting(t2)));
            assertEquals(List.of(t2), sparseTargets(copy, source, A_SPARSE));
        }
    }

    @Test
    void theLayerFilterSavesTheListedLayersRowByRow() {
        try (World world = World.create(); World copy = World.create()) {
            int[] layers = {0, 1, 5, 31, 64, 7, 0};
            long[] ids = new long[layers.length];
            for (int i = 0; i < layers.length; i++) {
                ids[i] = world.spawn(HP.of(i), Transform2D.COMPONENT.of(new Transform2D(i, 0, 0, layers[i], 0, 1, 1)));
            }
            long free = world.spawn(HP.of(100)); // no Transform2D: always saved
            long none = world.spawn(Transform2D.COMPONENT.of(new Transform2D(0, 0, 0, 9, 0, 1, 1)), MARK);
            Map<String, Object> root = world.saveSnapshot(SnapshotOptions.table().layers(0, 5, 31)).table();
            assertEquals(5L, root.get("entityCount"));
            assertEquals(2, root.get("archetypeCount"), "a table none of whose rows pass is left out");
            copy.loadSnapshot(root);
            for (int i = 0; i < layers.length; i++) {
                boolean saved = layers[i] == 0 || layers[i] == 5 || layers[i] == 31;
                assertEquals(saved, copy.isAlive(ids[i]), "layer " + layers[i]);
                if (saved) {
                    assertEquals(i, copy.get(ids[i], HP), "the value of the row saved, not of the first row");
                    assertEquals(layers[i], copy.get(ids[i], Transform2D.COMPONENT).layer());
                }
            }
            assertEquals(100, copy.get(free, HP));
            assertFalse(copy.isAlive(none));
        }
    }

    @Test
    void aDescriptorAndTheObserversExclusionsLeaveOutArchetypesAndTheEdgesToTheirEntities() {
        try (World world = World.create(); World copy = World.create()) {
            for (int i = 0; i < 130; i++) {
                world.spawn(HP.of(i)); // the saved slots span three words of the saved-slot bit set
            }
            long left = world.spawn(OTHER);
            long kept = world.spawn(MARK);
            long source = world.spawn(MARK, HP.of(7), Z_DENSE.to(left), A_SPARSE.to(left));
            world.set(source, Z_DENSE.to(kept));
            long high = world.spawn(MARK, A_DENSE.to(source));
            Map<String, Object> root = world.saveSnapshot(SnapshotOptions.table()
                    .filter(QueryDescriptor.builder().includeAny(MARK, HP).build())).table();
            copy.loadSnapshot(root);
            assertFalse(copy.isAlive(left));
            assertTrue(copy.isAlive(source));
            assertEquals(7, copy.get(source, HP));
            assertFalse(copy.has(source, Z_DENSE.targeting(left)), "the edge to an entity left out goes too");
            assertTrue(copy.has(source, Z_DENSE.targeting(kept)));
            assertTrue(copy.has(high, A_DENSE.targeting(source)));
            assertEquals(133, copy.entityCount());

            world.observe(Entity.WORLD, OnSnapshotSave.class, event -> {
                event.exclude(HP);
                event.exclude(A_DENSE.targeting(source));
            });
            try (World part = World.create()) {
                part.loadSnapshot(world.saveSnapshot());
                assertTrue(part.isAlive(left));
                assertTrue(part.isAlive(kept));
                assertFalse(part.isAlive(source), "it holds an excluded component");
                assertFalse(part.isAlive(high), "it holds the excluded pair");
                assertEquals(2, part.entityCount());
            }
        }
    }

    @Test
    void theCascadingSourcesOfEntitiesLeftOutGoTooTransitivelyAndTransientOnesStay() {
        try (World world = World.create(); World copy = World.create()) {
            for (int i = 0; i < 70; i++) {
                world.spawn(HP.of(i));
            }
            long in = world.spawn(Transform2D.COMPONENT.of(new Transform2D(0, 0, 0, 0, 0, 1, 1)));
            long out = world.spawn(Transform2D.COMPONENT.of(new Transform2D(0, 0, 0, 3, 0, 1, 1)));
            // one table: a child of the saved parent stays, a child of the left-out one goes
            long childIn = world.spawn(MARK, ChildOf.COMPONENT.to(in));
            long childOut = world.spawn(MARK, ChildOf.COMPONENT.to(out));
            long childIn2 = world.spawn(MARK, ChildOf.COMPONENT.to(in));
            // a later table, read first: its entity's parent is only found to go in the first pass
            long grandchild = world.spawn(OTHER, ChildOf.COMPONENT.to(childOut));
            long denseIn = world.spawn(KEPT, CASCADE.to(in));
            long denseOut = world.spawn(DROPPED, CASCADE.to(out));
            long denseOutChild = world.spawn(DROPPED, CASCADE.to(denseOut), HP.of(1));
            long loose = world.spawn(KEPT, LOOSE_CASCADE.to(out), LOOSE_SPARSE_CASCADE.to(out), HP.of(2));
            Snapshot saved = world.saveSnapshot(SnapshotOptions.table().layers(0));
            copy.loadSnapshot(saved);
            for (long id : new long[] {in, childIn, childIn2, denseIn, loose}) {
                assertTrue(copy.isAlive(id), Entity.toString(id));
            }
            for (long id : new long[] {out, childOut, grandchild, denseOut, denseOutChild}) {
                assertFalse(copy.isAlive(id), Entity.toString(id));
            }
            assertEquals(List.of(in), sparseTargets(copy, childIn, ChildOf.COMPONENT));
            assertEquals(2, copy.get(loose, HP));
            assertFalse(copy.has(loose, LOOSE_CASCADE), "a transient relationship is not saved");
            assertTrue(copy.has(denseIn, CASCADE.targeting(in)));
            assertEquals(70 + 5, copy.entityCount());
        }
    }

    @Test
    void aChildInTheFirstFrameSavedGoesWithItsParent() {
        try (World world = World.create(); World copy = World.create()) {
            long parent = world.spawn(); // no component: the descriptor leaves it out
            long child = world.spawn(MARK, ChildOf.COMPONENT.to(parent));
            long other = world.spawn(MARK, HP.of(3));
            Map<String, Object> root = world.saveSnapshot(SnapshotOptions.table()
                    .filter(QueryDescriptor.builder().include(MARK).build())).table();
            assertEquals(1L, root.get("entityCount"), "the child's frame comes first and is dropped whole");
            copy.loadSnapshot(root);
            assertFalse(copy.isAlive(parent));
            assertFalse(copy.isAlive(child));
            assertEquals(3, copy.get(other, HP));
        }
    }
}
