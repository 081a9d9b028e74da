package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.PairComponent;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.component.Relationships;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples of {@code docs/relationships.md}. */
class RelationshipsGuideTest {
    static final ScalarComponent.OfInt RANK = Components.scalar("docs.rel.Rank", 0);
    static final TagComponent SHIP = Components.tag("docs.rel.Ship");
    /** Non-exclusive: an entity may like any number of others. */
    static final Relationship LIKES = Relationships.register("docs.rel.Likes");
    /** Exclusive: a body orbits one other at a time. */
    static final Relationship ORBITS = Relationships.register("docs.rel.Orbits", o -> o.exclusive());
    /** Requires {@code RANK.of(1)}, added with an entity's first edge. */
    static final Relationship MEMBER_OF =
            Relationships.register("docs.rel.MemberOf", o -> o.requires(RANK.of(1)));

    /** The targets of an entity's edges of one relationship, in the order the world reports them. */
    static List<Long> targets(World world, long id, Relationship relationship) {
        List<Long> targets = new ArrayList<>();
        world.forEachRelationship(id, relationship, edge -> targets.add(edge.target()));
        return targets;
    }

    // ---------------------------------------------------------------- declaring and adding

    @Test
    void edgesAreInputs() {
        try (World world = World.create()) {
            // begin-example
            long ann = world.spawn();
            long bob = world.spawn();
            long cid = world.spawn(LIKES.to(bob), LIKES.to(ann)); // two edges, in any order

            assertTrue(world.has(cid, LIKES));  // has at least one edge
            assertFalse(world.has(ann, LIKES)); // edges go one way: ann likes nobody
            RelationshipValue first = world.get(cid, LIKES);
            assertEquals(LIKES.to(ann), first); // the first edge in target order
            assertEquals(ann, first.target());
            assertEquals(List.of(ann, bob), targets(world, cid, LIKES));

            world.set(ann, LIKES.to(cid)); // set adds an edge to an existing entity
            assertEquals(cid, world.get(ann, LIKES).target());
            // end-example
        }
    }

    @Test
    void theRelationshipItselfIsNoInput() {
        try (World world = World.create()) {
            // begin-example
            long ann = world.spawn(SHIP);
            long gone = world.spawn();
            world.despawn(gone);

            assertThrows(IllegalArgumentException.class, () -> world.spawn(LIKES)); // likes whom?
            assertThrows(IllegalArgumentException.class, () -> world.set(ann, LIKES));
            assertThrows(IllegalArgumentException.class, () -> world.spawn(LIKES.to(gone))); // a dead target
            assertThrows(IllegalArgumentException.class, () -> LIKES.to(0)); // not an entity id
            assertThrows(IllegalStateException.class, // same name, other options
                    () -> Relationships.register("docs.rel.Likes", o -> o.exclusive()));
            assertSame(LIKES, Relationships.register("docs.rel.Likes")); // same options: the same definition
            assertEquals(1, world.entityCount()); // only ann: the refused calls left nothing behind
            // end-example
        }
    }

    // ---------------------------------------------------------------- storage

    @Test
    void everyTargetSetIsASignature() {
        try (World world = World.create()) {
            // begin-example
            long ann = world.spawn();
            long bob = world.spawn();
            long x = world.spawn(SHIP, LIKES.to(ann));
            long y = world.spawn(SHIP, LIKES.to(ann));
            long z = world.spawn(SHIP, LIKES.to(bob));
            assertSame(world.archetypeOf(x), world.archetypeOf(y)); // same targets: same archetype
            assertNotSame(world.archetypeOf(x), world.archetypeOf(z)); // another target: another one

            List<String> signature = new ArrayList<>();
            for (Component<?> component : world.archetypeOf(x).components()) {
                if (component instanceof PairComponent pair) {
                    assertTrue(pair.id() >= Components.FIRST_PAIR_ID); // allocated by this world
                    assertEquals(ann, pair.target());
                    signature.add("pair " + pair.relationship().name() + " -> " + Entity.toString(pair.target()));
                } else {
                    signature.add(component.name());
                }
            }
            assertEquals(List.of("docs.rel.Ship", "docs.rel.Likes", "pair docs.rel.Likes -> 1#0"), signature);
            // end-example
        }
    }

    @Test
    void queriesMatchAnyEdge() {
        try (World world = World.create()) {
            // begin-example
            long ann = world.spawn();
            long bob = world.spawn();
            world.spawn(SHIP, LIKES.to(ann));
            world.spawn(SHIP, LIKES.to(ann), LIKES.to(bob));
            world.spawn(SHIP, LIKES.to(bob));
            world.spawn(SHIP);

            Query fans = world.newQuery(QueryDescriptor.builder().include(LIKES).build());
            assertEquals(3, fans.count()); // any edge of LIKES, whatever its target
            Query loners = world.newQuery(QueryDescriptor.builder().include(SHIP).exclude(LIKES).build());
            assertEquals(1, loners.count());

            List<String> seen = new ArrayList<>();
            fans.forEach((archetype, count) -> {
                List<Long> liked = new ArrayList<>(); // read once: every row has these edges
                archetype.forEachRelationship(LIKES, 0, edge -> liked.add(edge.target()));
                seen.add(count + " like " + liked);
            });
            assertEquals(List.of("1 like [" + ann + "]", "1 like [" + ann + ", " + bob + "]",
                    "1 like [" + bob + "]"), seen);
            // end-example
        }
    }

    // ---------------------------------------------------------------- exclusivity

    @Test
    void settingAnEdgeAgainChangesNothing() {
        try (World world = World.create()) {
            // begin-example
            long ann = world.spawn();
            long bob = world.spawn();
            long cid = world.spawn(LIKES.to(ann));
            Archetype before = world.archetypeOf(cid);

            world.set(cid, LIKES.to(ann)); // already there
            assertSame(before, world.archetypeOf(cid)); // no move
            world.set(cid, LIKES.to(bob)); // a new target joins the others
            assertEquals(List.of(ann, bob), targets(world, cid, LIKES));
            // end-example
        }
    }

    @Test
    void anExclusiveRelationshipKeepsTheLastEdge() {
        try (World world = World.create()) {
            // begin-example
            long sun = world.spawn();
            long earth = world.spawn();
            long mars = world.spawn();

            long moon = world.spawn(ORBITS.to(sun), ORBITS.to(earth)); // within one spawn...
            assertEquals(List.of(earth), targets(world, moon, ORBITS)); // ...the last edge wins
            world.set(moon, ORBITS.to(mars));
            assertEquals(List.of(mars), targets(world, moon, ORBITS)); // earth is gone

            world.defer();
            world.set(moon, ORBITS.to(sun));
            world.set(moon, ORBITS.to(earth));
            world.commit();
            assertEquals(List.of(earth), targets(world, moon, ORBITS)); // in a scope as well
            // end-example
        }
    }

    // ---------------------------------------------------------------- removing

    @Test
    void removingEdges() {
        try (World world = World.create()) {
            // begin-example
            long ann = world.spawn();
            long bob = world.spawn();
            long cid = world.spawn(SHIP, LIKES.to(ann), LIKES.to(bob));

            world.remove(cid, LIKES.to(ann)); // one edge
            assertEquals(List.of(bob), targets(world, cid, LIKES));
            world.remove(cid, LIKES.to(bob)); // the last one: the marker goes with it
            assertFalse(world.has(cid, LIKES));
            assertNull(world.get(cid, LIKES));
            assertTrue(world.has(cid, SHIP)); // other components stay

            world.set(cid, LIKES.to(ann));
            world.set(cid, LIKES.to(bob));
            world.remove(cid, LIKES); // every edge at once
            assertEquals(List.of(), targets(world, cid, LIKES));
            world.remove(cid, LIKES.to(ann)); // an edge it lacks: nothing happens
            // end-example
        }
    }

    @Test
    void stagedEdgesFollowCallOrder() {
        try (World world = World.create()) {
            // begin-example
            long ann = world.spawn();
            long bob = world.spawn();

            world.defer();
            long cid = world.spawn(LIKES.to(ann));
            world.set(cid, LIKES.to(bob));
            world.remove(cid, LIKES.to(ann));
            assertNull(world.get(cid, LIKES)); // staged: reads see nothing yet
            world.commit();
            assertEquals(List.of(bob), targets(world, cid, LIKES));

            world.defer();
            world.remove(cid, LIKES);   // all edges, then...
            world.set(cid, LIKES.to(ann)); // ...a new one: it stays
            assertEquals(bob, world.get(cid, LIKES).target()); // published state until the commit
            world.commit();
            assertEquals(List.of(ann), targets(world, cid, LIKES));
            // end-example
        }
    }

    // ---------------------------------------------------------------- reading

    @Test
    void edgesAreReportedInTargetOrder() {
        try (World world = World.create()) {
            // begin-example
            long old = world.spawn();
            long bob = world.spawn(); // slot 2, generation 0
            world.despawn(old);
            long ann = world.spawn(); // slot 1 again, generation 1: a greater id than bob's
            assertEquals(Entity.pack(1, 1), ann);

            long cid = world.spawn(SHIP, LIKES.to(ann), LIKES.to(bob));
            assertEquals(LIKES.to(bob), world.getFirstRelationship(cid, LIKES)); // the smallest target id
            assertEquals(List.of(bob, ann), targets(world, cid, LIKES));

            Archetype archetype = world.archetypeOf(cid);
            int row = world.rowOf(cid);
            assertEquals(LIKES.to(bob), archetype.getFirstRelationship(LIKES, row));
            List<RelationshipValue> edges = new ArrayList<>();
            archetype.forEachRelationship(LIKES, row, edges::add);
            assertEquals(List.of(LIKES.to(bob), LIKES.to(ann)), edges);
            assertNull(archetype.getFirstRelationship(ORBITS, row)); // no edge of that relationship
            // end-example
        }
    }

    // ---------------------------------------------------------------- requirements

    @Test
    void requirementsComeWithTheFirstEdge() {
        try (World world = World.create()) {
            // begin-example
            long guild = world.spawn();
            long league = world.spawn();
            long ann = world.spawn(MEMBER_OF.to(guild)); // the first edge brings Rank(1)
            assertEquals(1, world.get(ann, RANK));

            world.remove(ann, RANK);
            world.set(ann, MEMBER_OF.to(league)); // a second edge: the marker was there already
            assertFalse(world.has(ann, RANK));

            world.remove(ann, MEMBER_OF);
            world.set(ann, MEMBER_OF.to(guild)); // a first edge again
            assertEquals(1, world.get(ann, RANK));

            long bob = world.spawn(MEMBER_OF.to(guild), RANK.of(7)); // an explicit input wins
            assertEquals(7, world.get(bob, RANK));
            // end-example
        }
    }

    // ---------------------------------------------------------------- targets that come and go

    @Test
    void despawningATargetRemovesItsEdges() {
        try (World world = World.create()) {
            // begin-example
            long sun = world.spawn();
            long earth = world.spawn();
            long ann = world.spawn(LIKES.to(sun));
            long bob = world.spawn(LIKES.to(sun), LIKES.to(earth));
            long moon = world.spawn(ORBITS.to(sun));

            world.defer();
            world.despawn(sun);
            assertTrue(world.has(ann, LIKES)); // nothing is published yet
            world.commit(); // the despawn and the edge removals land in this one commit

            assertTrue(world.isAlive(ann)); // sources survive...
            assertFalse(world.has(ann, LIKES)); // ...without the edge
            assertEquals(List.of(earth), targets(world, bob, LIKES));
            assertFalse(world.has(moon, ORBITS));
            // end-example
        }
    }

    @Test
    void aTargetMayBeStagedInTheSameScope() {
        try (World world = World.create()) {
            // begin-example
            world.defer();
            long sun = world.spawn();               // staged, not alive yet...
            long moon = world.spawn(ORBITS.to(sun)); // ...but a valid target
            world.commit();
            assertEquals(sun, world.get(moon, ORBITS).target());
            // end-example
        }
    }

    @Test
    void batchCallsRefuseEdges() {
        try (World world = World.create()) {
            // begin-example
            long sun = world.spawn(SHIP);
            Query ships = world.newQuery(QueryDescriptor.builder().include(SHIP).build());

            assertThrows(IllegalArgumentException.class, () -> world.batchSpawn(10, List.of(ORBITS.to(sun))));
            assertThrows(IllegalArgumentException.class, () -> world.batchSet(ships, ORBITS.to(sun)));
            assertThrows(IllegalArgumentException.class, () -> world.batchRemove(ships, ORBITS));
            assertEquals(1, world.entityCount()); // nothing changed
            // end-example
        }
    }
}
