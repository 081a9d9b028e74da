package dev.jtecs.relation.internal;

import dev.jtecs.component.Components;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.RelationshipDefinition;
import dev.jtecs.component.Relationships;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import java.util.ArrayList;
import java.util.List;
import dev.jtecs.testing.FaultAttempt;
import dev.jtecs.world.World;

/** The relationships and components the relationship tests share (registered once per process), and helpers. */
final class RelationFixtures {
    private RelationFixtures() {}

    static final ScalarComponent.OfInt LOYALTY = Components.scalar("test.rel.Loyalty", 5);
    static final Relationship FOLLOWS = Relationships.register("test.rel.Follows", o -> o.requires(LOYALTY));
    static final Relationship PARENT = Relationships.register("test.rel.Parent", o -> o.exclusive());
    static final TagComponent MARK = Components.tag("test.rel.Mark");

    static final Relationship KNOWS = Relationships.register("test.rel.Knows", o -> o.reverseIndex());


    static final Relationship LIKES = Relationships.register("test.rel.Likes", o -> o.sparse().reverseIndex());
    static final Relationship OWNER = Relationships.register("test.rel.Owner", o -> o.sparse().exclusive()
            .reverseIndex());
    static final Relationship HOLDS = Relationships.register("test.rel.Holds", o -> o.sparse().exclusive()
            .reverseIndex().cascadeDelete());

    static final long ANCHOR = Entity.pack(40, 0);
    static final TagComponent ANCHORED = Components.tag("test.rel.Anchored", o -> o.requires(PARENT.to(ANCHOR)));
    static final TagComponent OWNED = Components.tag("test.rel.Owned", o -> o.requires(OWNER.to(ANCHOR)));

    record Spring(long target, float stiffness) {}

    record Bond(long target, String label) {}

    record Debt(long target, int amount) {}

    static final RelationshipDefinition<Spring> SPRING = Relationships.register(Spring.class,
            o -> o.name("test.rel.Spring").reverseIndex());
    static final RelationshipDefinition<Spring> TETHER = Relationships.register(Spring.class,
            o -> o.name("test.rel.Tether").exclusive());
    static final RelationshipDefinition<Bond> BOND = Relationships.register(Bond.class, o -> o.name("test.rel.Bond"));
    static final RelationshipDefinition<Debt> DEBT = Relationships.register(Debt.class,
            o -> o.name("test.rel.Debt").sparse().reverseIndex());
    static final TagComponent SPRUNG = Components.tag("test.rel.Sprung",
            o -> o.requires(SPRING.of(new Spring(ANCHOR, 7f)), DEBT.of(new Debt(ANCHOR, 70))));

    static final Relationship WATCH = Relationships.register("test.rel.Watch", o -> o.sparse().reverseIndex());
    static final Relationship HOLD = Relationships.register("test.rel.Hold",
            o -> o.sparse().exclusive().reverseIndex().cascadeDelete());

    /**
     * Commits {@code world}'s open scope with the {@code k}-th heap growth of the commit failing; says whether the
     * commit failed with it, went through after it was let go, or made fewer growths ({@link FaultAttempt}).
     */
    static FaultAttempt.Outcome commitFailingAtHeapGrowth(World world, int k) {
        return FaultAttempt.run(dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP, k, world::commit);
    }

    /**
     * A step of a twin-world test that despawns {@code id} in both worlds: the ids still alive stay in
     * {@code alive} (a cascade may take more than {@code id}), and each of them is alive in the twin too.
     */
    static void despawnInBoth(World world, World twin, long id, List<Long> alive, String where) {
        world.despawn(id);
        twin.despawn(id);
        alive.removeIf(each -> !world.isAlive(each));
        for (long each : alive) {
            org.junit.jupiter.api.Assertions.assertTrue(twin.isAlive(each), where);
        }
    }

    /** Every hundredth step of a twin-world test, the two worlds' whole states, which must be equal. */
    static void assertSameStateEvery100(World expected, World actual, int step, String where) {
        if (step % 100 == 99) {
            org.junit.jupiter.api.Assertions.assertEquals(dev.jtecs.testing.WorldState.of(expected),
                    dev.jtecs.testing.WorldState.of(actual), where);
        }
    }

    static List<Long> targets(World world, long id, Relationship relationship) {
        List<Long> out = new ArrayList<>();
        world.forEachRelationship(id, relationship, edge -> out.add(edge.target()));
        return out;
    }

    /** A relations layer over a mutation model of its own, as the world builds them, without a world; close it. */
    static final class Layer implements AutoCloseable {
        final dev.jtecs.storage.internal.NativeMemory memory = new dev.jtecs.storage.internal.NativeMemory();
        final dev.jtecs.storage.internal.ArchetypeRegistry registry =
                new dev.jtecs.storage.internal.ArchetypeRegistry(memory);
        final dev.jtecs.entity.internal.EntityIndex index;
        final Relations relations;
        final dev.jtecs.mutation.internal.MutationModel model;

        Layer(int maxEntities) {
            index = new dev.jtecs.entity.internal.EntityIndex(maxEntities);
            relations = new Relations(index, registry);
            model = new dev.jtecs.mutation.internal.MutationModel(index, registry,
                    new dev.jtecs.event.internal.ObserverRegistry(), () -> null, null, relations);
            relations.bind(model);
        }

        /** The table the entity {@code id} is published in. */
        dev.jtecs.storage.internal.Table tableOf(long id) {
            return registry.ofStore(index.storeOf(Entity.slot(id)));
        }

        @Override
        public void close() {
            registry.close();
            memory.close();
        }
    }

    /** Every row of every archetype with its components, and the live count: equal dumps, equal worlds. */
    static String dump(World world) {
        StringBuilder sb = new StringBuilder();
        world.forEachArchetype(a -> {
            for (int row = 0; row < a.count(); row++) {
                sb.append(Entity.toString(a.entity(row))).append(a.components()).append(';');
            }
        });
        return sb + " alive=" + world.entityCount();
    }
}
