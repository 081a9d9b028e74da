package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.Disabled;
import dev.jtecs.builtin.Paused;
import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryCursor;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The examples of {@code docs/queries.md}. */
class QueriesGuideTest {
    record Position(float x, float y) {}

    record Velocity(float dx, float dy) {}

    static final NativeComponent<Position> POSITION =
            Components.registerNative(Position.class, o -> o.name("docs.queries.Position"));
    static final NativeComponent<Velocity> VELOCITY =
            Components.registerNative(Velocity.class, o -> o.name("docs.queries.Velocity"));
    static final FloatField X = POSITION.floatField("x");
    static final FloatField DX = VELOCITY.floatField("dx");
    static final TagComponent ENEMY = Components.tag("docs.queries.Enemy");
    static final TagComponent FROZEN = Components.tag("docs.queries.Frozen");

    @Test
    void movingEntities() {
        try (World world = World.create()) {
            // begin-example
            long a = world.spawn(POSITION.of(new Position(0, 0)), VELOCITY.of(new Velocity(2, 0)));
            long b = world.spawn(POSITION.of(new Position(5, 0)), VELOCITY.of(new Velocity(1, 0)), ENEMY);
            world.spawn(POSITION.of(new Position(9, 9))); // no velocity: not matched

            Query moving = world.newQuery(QueryDescriptor.builder()
                    .include(POSITION, VELOCITY).exclude(FROZEN).build());
            moving.forEach((archetype, count) -> {
                FloatColumn x = archetype.getMut(X);   // marks Position dirty in this archetype
                FloatColumn dx = archetype.get(DX);    // read only
                for (int row = 0; row < count; row++) {
                    x.set(row, x.get(row) + dx.get(row));
                }
            });
            assertEquals(2, moving.count());
            assertEquals(2f, world.get(a, POSITION).x());
            assertEquals(6f, world.get(b, POSITION).x());
            // end-example
        }
    }

    @Test
    void stateFilters() {
        try (World world = World.create()) {
            // begin-example
            world.spawn(POSITION);
            world.spawn(POSITION, Disabled.COMPONENT);
            world.spawn(POSITION, Paused.COMPONENT);

            assertEquals(2, world.newQuery(QueryDescriptor.builder().include(POSITION).build()).count());
            assertEquals(1, world.newQuery(QueryDescriptor.builder().include(POSITION).logic().build()).count());
            assertEquals(2, world.newQuery(QueryDescriptor.builder().include(POSITION).render().build()).count());
            assertEquals(1, world.newQuery(QueryDescriptor.builder()
                    .include(POSITION, Disabled.COMPONENT).build()).count()); // asked for explicitly
            // end-example
        }
    }

    @Test
    void persistentAndTemporary() {
        try (World world = World.create()) {
            // begin-example
            world.spawn(POSITION);
            Query persistent = world.newQuery(QueryDescriptor.builder().include(POSITION).build());
            Query snapshot = world.newQuery(QueryDescriptor.builder().include(POSITION).temp().build());

            world.spawn(POSITION, ENEMY); // a new archetype appears
            assertEquals(2, persistent.archetypes().size()); // adopted as it was registered
            assertEquals(1, snapshot.archetypes().size());   // frozen at construction
            // end-example
        }
    }

    @Test
    void iterationIsAScope() {
        try (World world = World.create()) {
            // begin-example
            long id = world.spawn(POSITION);
            Query query = world.newQuery(QueryDescriptor.builder().include(POSITION).build());
            query.forEach((archetype, count) -> {
                world.set(id, ENEMY);                 // a structural change while iterating...
                assertFalse(world.has(id, ENEMY));    // ...is staged
            });
            assertTrue(world.has(id, ENEMY));         // and published when the iteration ends

            try (QueryCursor cursor = query.cursor()) {   // closes its scope even on an early exit
                while (cursor.next()) {
                    if (cursor.count() > 0) {
                        break;
                    }
                }
            }
            assertEquals(0, world.scopeDepth());
            // end-example
        }
    }

    @Test
    void groups() {
        try (World world = World.create()) {
            // begin-example
            Query byKind = world.newQuery(QueryDescriptor.builder().include(POSITION)
                    .groupBy(archetype -> archetype.has(ENEMY) ? 0 : 1) // called once per archetype
                    .build());
            world.spawn(POSITION);
            world.spawn(POSITION, ENEMY);
            world.spawn(POSITION, ENEMY);

            List<Integer> visited = new ArrayList<>();
            byKind.forEach((archetype, count) -> visited.add(byKind.getGroup(archetype).getAsInt()));
            assertEquals(List.of(0, 1), visited);              // ascending group order
            assertArrayEquals(new int[] {0, 1}, byKind.groups());
            assertEquals(2, byKind.getGroupCount(0));
            try (QueryCursor enemies = byKind.group(0)) {
                assertTrue(enemies.next());
                assertEquals(2, enemies.count());
            }
            // end-example
        }
    }

    @Test
    void membershipCallbacks() {
        try (World world = World.create()) {
            // begin-example
            List<String> log = new ArrayList<>();
            long early = world.spawn(POSITION.of(new Position(1, 0)), ENEMY);
            world.newQuery(QueryDescriptor.builder().include(POSITION, ENEMY).exclude(FROZEN)
                    .onEntitiesAdded((archetype, from, to) -> log.add("added " + (to - from)))
                    .onEntitiesRemoved((archetype, from, to) ->
                            log.add("removed x=" + archetype.getValue(from, POSITION).x()))
                    .build());
            assertEquals(List.of("added 1"), log);   // the members it starts with

            long late = world.spawn(POSITION, ENEMY);   // enters: added
            world.set(late, VELOCITY);                  // moves between two matching archetypes: nothing
            world.set(early, FROZEN);                   // an excluded component arrives: removed
            assertEquals(List.of("added 1", "added 1", "removed x=1.0"), log);
            // end-example
        }
    }

    @Test
    void worldDirtyQueue() {
        try (World world = World.create()) {
            // begin-example
            long a = world.spawn(POSITION);
            long b = world.spawn(VELOCITY);
            world.clearDirty();                       // a consumer synced everything

            world.set(b, VELOCITY.of(new Velocity(1, 1)));
            world.despawn(a);
            List<Archetype> dirty = world.dirtyArchetypes(); // first-dirtied order
            assertTrue(dirty.get(0).has(VELOCITY));
            assertEquals(0, dirty.get(1).count());    // emptied archetypes are reported too
            world.clearDirty();
            assertEquals(List.of(), world.dirtyArchetypes());
            // end-example
        }
    }

    @Test
    void visitTheDirtyQueueEveryFrame() {
        try (World world = World.create()) {
            long a = world.spawn(POSITION);
            long b = world.spawn(VELOCITY);
            world.clearDirty();
            // begin-example
            List<Archetype> uploaded = new ArrayList<>();
            Consumer<Archetype> upload = archetype -> {      // made once, reused every frame
                uploaded.add(archetype);                       // (a renderer would copy dirty columns here)
                archetype.clearDirtyComponents();
            };
            world.set(b, VELOCITY.of(new Velocity(1, 1)));
            world.despawn(a);
            world.forEachDirtyArchetype(upload);              // the same archetypes, same order, no list
            assertEquals(2, uploaded.size());
            assertTrue(uploaded.get(0).has(VELOCITY));
            world.forEachDirtyArchetype(upload);              // each cleared itself: nothing is dirty now
            assertEquals(2, uploaded.size());
            // end-example
        }
    }
}
