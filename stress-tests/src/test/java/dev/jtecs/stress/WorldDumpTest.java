package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.CHILD_OF;
import static dev.jtecs.stress.ModelComponents.DISABLED;
import static dev.jtecs.stress.ModelComponents.HEALTH;
import static dev.jtecs.stress.ModelComponents.KEY;
import static dev.jtecs.stress.ModelComponents.LEVEL;
import static dev.jtecs.stress.ModelComponents.POSITION;
import static dev.jtecs.stress.ModelComponents.WATCHES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.entity.Entity;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.stress.ModelComponents.Position;
import dev.jtecs.world.World;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class WorldDumpTest {
    /** A small world with values, an edge of each storage, a key, a disabled entity and a query. */
    private static World build(List<Query> queries) {
        World world = World.create();
        long a = world.spawn(POSITION.of(new Position(1, 2)), HEALTH.of(3.0));
        world.spawn(CHILD_OF.to(a), LEVEL.of(2));
        world.spawn(WATCHES.to(a), DISABLED);
        long keyed = world.spawn(POSITION);
        world.set(keyed, KEY.of("k"));
        queries.add(world.newQuery(QueryDescriptor.builder().include(POSITION).build()));
        return world;
    }

    private static String dumpAfter(Consumer<World> change) {
        List<Query> queries = new java.util.ArrayList<>();
        try (World world = build(queries)) {
            change.accept(world);
            return WorldDump.of(world, queries, List.of("k", "missing")).text();
        }
    }

    @Test
    void theSameOperationsGiveTheSameText() {
        assertEquals(dumpAfter(w -> { }), dumpAfter(w -> { }));
    }

    @Test
    void listsEveryPartOfTheState() {
        String text = dumpAfter(w -> { });
        assertTrue(text.startsWith("world entities=4 "), text);
        assertTrue(text.contains("stress.Position=Position[x=1.0, y=2.0]"), text);
        assertTrue(text.contains("stress.Health=3.0/"), "doubles carry their bits: " + text);
        assertTrue(text.contains("ChildOf -> [") || text.contains("ChildOf ->"), text);
        assertTrue(text.contains("stress.Watches -> ["), "sparse edges too: " + text);
        assertTrue(text.contains("key 'k' -> 4#0") && text.contains("key 'missing' -> world(0)"), text);
        assertTrue(text.contains("sources ") && text.contains(" <- [2#0]"), "the reverse index: " + text);
        assertTrue(text.contains("query 0 ") && text.contains("members=[1#0, 4#0]"), text);
        assertTrue(text.contains("| Disabled=true"), "disabled entities are listed: " + text);
        assertTrue(text.contains("dirty="), text);
    }

    @Test
    void everyKindOfChangeShows() {
        String base = dumpAfter(w -> { });
        assertNotEquals(base, dumpAfter(w -> w.set(Entity.pack(1, 0), HEALTH.of(4.0))), "a value");
        assertNotEquals(base, dumpAfter(w -> w.clearDirty()), "dirty bits");
        assertNotEquals(base, dumpAfter(w -> w.despawn(Entity.pack(2, 0))), "an entity");
        assertNotEquals(base, dumpAfter(w -> w.remove(Entity.pack(3, 0), WATCHES)), "a sparse edge");
        assertNotEquals(base, dumpAfter(w -> w.addSystem(dev.jtecs.schedule.SystemConfig.named("s")
                .run((dt, x) -> { }))), "a system");
        assertNotEquals(base, dumpAfter(w -> w.defer()), "an open scope");
    }

    @Test
    void takingADumpPublishesNothing() {
        List<Query> queries = new java.util.ArrayList<>();
        try (World world = build(queries)) {
            world.defer();
            long staged = world.spawn(POSITION);
            world.commit(); // closes the scope: published
            world.observe(0, dev.jtecs.event.OnSpawn.class, event -> {
                throw new IllegalStateException("leaves the spawn staged");
            });
            try {
                world.spawn(LEVEL);
            } catch (IllegalStateException expected) {
                // the spawn is staged at depth 0, waiting for the next publication
            }
            assertTrue(world.hasPendingChanges());
            WorldDump first = WorldDump.of(world, queries, List.of());
            assertTrue(world.hasPendingChanges(), "the dump's reads opened no scope");
            assertEquals(first, WorldDump.of(world, queries, List.of()));
            assertFalse(first.entities().isEmpty());
            assertTrue(first.entities().containsKey(staged));
        }
    }
}
