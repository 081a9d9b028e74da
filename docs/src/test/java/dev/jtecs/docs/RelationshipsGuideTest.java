package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.ChildOf;
import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.PairComponent;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.RelationshipDefinition;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.component.Relationships;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.component.TargetSelector;
import dev.jtecs.entity.Entity;
import dev.jtecs.event.OnDespawn;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.ObjectColumn;
import dev.jtecs.mutation.BatchIds;
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
    /** Non-exclusive, with a reverse index: who knows whom, in both directions. */
    static final Relationship KNOWS = Relationships.register("docs.rel.Knows", o -> o.reverseIndex());
    /** The built-in parent relationship: exclusive, reverse-indexed, cascading. */
    static final Relationship CHILD_OF = ChildOf.COMPONENT;
    /** Sparse and reverse-indexed: a sentry watches any number of entities, each its own. */
    static final Relationship WATCHES =
            Relationships.register("docs.rel.Watches", o -> o.sparse().reverseIndex());
    /** Sparse, exclusive, reverse-indexed and cascading: an item is held by one container and dies with it. */
    static final Relationship HELD_BY = Relationships.register("docs.rel.HeldBy",
            o -> o.sparse().exclusive().reverseIndex().cascadeDelete());
    /** A well-known id that the requirements below name; a world that wants them creates it with spawnAt. */
    static final long HQ = Entity.pack(100, 0);
    /** Requires the dense edge {@code MEMBER_OF.to(HQ)}. */
    static final TagComponent RECRUIT = Components.tag("docs.rel.Recruit", o -> o.requires(MEMBER_OF.to(HQ)));
    /** Requires the sparse edge {@code WATCHES.to(HQ)}. */
    static final TagComponent SENTRY = Components.tag("docs.rel.Sentry", o -> o.requires(WATCHES.to(HQ)));
    /** Requires the sparse, cascading edge {@code HELD_BY.to(HQ)}. */
    static final TagComponent STOWED = Components.tag("docs.rel.Stowed", o -> o.requires(HELD_BY.to(HQ)));

    /** A spring between two bodies: a primitive-only record, so its payload is stored natively. */
    record Spring(long target, float stiffness, float rest) {}

    /** A pact between factions: its terms are a string, so the record is stored by reference. */
    record Pact(long target, String terms) {}

    /** A debt owed to a creditor: sparse, since every debtor may owe a different set of creditors. */
    record Loan(long target, int amount) {}

    static final RelationshipDefinition<Spring> SPRING = Relationships.register(Spring.class,
            o -> o.name("docs.rel.Spring").reverseIndex());
    static final RelationshipDefinition<Pact> PACT = Relationships.register(Pact.class, o -> o.name("docs.rel.Pact"));
    static final RelationshipDefinition<Loan> LOAN = Relationships.register(Loan.class,
            o -> o.name("docs.rel.Loan").sparse());

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
    void anEdgeCanBeSetWithoutItsValue() {
        try (World world = World.create()) {
            // begin-example
            long ann = world.spawn();
            long bob = world.spawn();
            long cid = world.spawn(CHILD_OF.to(ann));

            world.set(cid, CHILD_OF, bob); // the edge CHILD_OF.to(bob) adds, with no value made: a reparenting
            assertEquals(bob, world.get(cid, CHILD_OF).target());
            assertArrayEquals(new long[] {cid}, world.relationshipSources(CHILD_OF, bob));

            world.set(ann, LIKES, bob); // any relationship without a payload, dense ones too
            assertEquals(List.of(bob), targets(world, ann, LIKES));
            assertThrows(IllegalArgumentException.class, () -> world.set(ann, LIKES, 0)); // not an entity id
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

    @Test
    void sparseEdgesLiveBesideTheArchetype() {
        try (World world = World.create()) {
            // begin-example
            long ann = world.spawn();
            long bob = world.spawn();
            long cid = world.spawn(SHIP, WATCHES.to(bob), WATCHES.to(ann));
            long dan = world.spawn(SHIP, WATCHES.to(bob));
            assertTrue(WATCHES.isSparse());
            assertSame(world.archetypeOf(cid), world.archetypeOf(dan)); // other targets, the same archetype

            List<String> signature = new ArrayList<>();
            for (Component<?> component : world.archetypeOf(cid).components()) {
                signature.add(component.name());
            }
            assertEquals(List.of("docs.rel.Ship", "docs.rel.Watches"), signature); // the marker, no pairs

            Archetype before = world.archetypeOf(cid);
            int row = world.rowOf(cid);
            int archetypes = world.archetypeCount();
            world.set(cid, WATCHES.to(dan)); // a new target: no move, no new archetype
            assertSame(before, world.archetypeOf(cid));
            assertEquals(row, world.rowOf(cid));
            assertEquals(archetypes, world.archetypeCount());

            assertTrue(world.has(cid, WATCHES)); // the same reads as for dense edges
            assertEquals(WATCHES.to(ann), world.get(cid, WATCHES));
            assertEquals(List.of(ann, bob, dan), targets(world, cid, WATCHES)); // in target order
            // end-example
        }
    }

    @Test
    void sparseEdgesAreReadRowByRow() {
        try (World world = World.create()) {
            // begin-example
            long ann = world.spawn();
            long bob = world.spawn();
            long cid = world.spawn(SHIP, WATCHES.to(ann));
            long dan = world.spawn(SHIP, WATCHES.to(ann), WATCHES.to(bob));
            world.spawn(SHIP);

            Query sentries = world.newQuery(QueryDescriptor.builder().include(WATCHES).build());
            assertEquals(2, sentries.count()); // the marker matches: any edge, whatever its target
            List<String> seen = new ArrayList<>();
            sentries.forEach((archetype, count) -> {
                for (int row = 0; row < count; row++) { // rows differ: read each one
                    List<Long> watched = new ArrayList<>();
                    archetype.forEachRelationship(WATCHES, row, edge -> watched.add(edge.target()));
                    seen.add(archetype.entity(row) + " watches " + watched);
                }
            });
            assertEquals(List.of(cid + " watches [" + ann + "]", dan + " watches [" + ann + ", " + bob + "]"), seen);

            assertThrows(IllegalArgumentException.class, () -> WATCHES.targeting(ann)); // no pair to select
            assertArrayEquals(new long[] {cid, dan}, world.relationshipSources(WATCHES, ann)); // ask this instead
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

            world.set(cid, LIKES, bob);
            world.remove(cid, LIKES, bob); // the same edge, no value made
            assertFalse(world.has(cid, LIKES));
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

    @Test
    void requiredEdgesComeWithTheirRequirer() {
        try (World world = World.create()) {
            // begin-example
            world.spawnAt(HQ); // the target the requirements name
            long post = world.spawn();

            long ann = world.spawn(RECRUIT);
            assertEquals(List.of(HQ), targets(world, ann, MEMBER_OF)); // a dense edge, as a pair
            assertEquals(1, world.get(ann, RANK)); // with MEMBER_OF's own requirement
            long bob = world.spawn(SENTRY);
            assertEquals(List.of(HQ), targets(world, bob, WATCHES)); // a sparse edge, in the store

            long cid = world.spawn(SENTRY, WATCHES.to(post)); // an edge given in the same call wins
            assertEquals(List.of(post), targets(world, cid, WATCHES));
            long dan = world.spawn(MEMBER_OF.to(post));
            world.set(dan, RECRUIT); // so does an edge the entity already holds
            assertEquals(List.of(post), targets(world, dan, MEMBER_OF));

            BatchIds guards = world.batchSpawn(3, List.of(SENTRY)); // bulk paths bring them too
            assertEquals(List.of(HQ), targets(world, guards.get(2), WATCHES));
            assertEquals(4, world.relationshipSources(WATCHES, HQ).length); // bob and the three guards
            // end-example
        }
    }

    @Test
    void onlyAnEdgeCanBeRequired() {
        // begin-example
        assertThrows(IllegalArgumentException.class, // an edge to whom?
                () -> Components.tag("docs.rel.BadRequirement", o -> o.requires(LIKES)));
        assertThrows(IllegalArgumentException.class, // a selector matches edges, it does not make one
                () -> Components.tag("docs.rel.BadRequirement", o -> o.requires(LIKES.targeting(HQ))));
        assertThrows(IllegalArgumentException.class,
                () -> Relationships.register("docs.rel.BadRequirement", o -> o.requires(ORBITS)));
        assertNull(Components.findByName("docs.rel.BadRequirement")); // nothing was registered
        // end-example
    }

    @Test
    void aRequiredEdgeNeedsALiveTarget() {
        try (World world = World.create()) {
            // begin-example
            assertFalse(world.isAlive(HQ)); // this world never made HQ

            long ann = world.spawn(RECRUIT);
            assertFalse(world.has(ann, MEMBER_OF)); // dense: the edge was dropped...
            assertEquals(1, world.get(ann, RANK)); // ...and what its marker required stays
            long bob = world.spawn(SENTRY);
            assertEquals(List.of(HQ), targets(world, bob, WATCHES)); // sparse: it points at nothing
            long cid = world.spawn(STOWED);
            assertFalse(world.isAlive(cid)); // cascading: the requirer went the way of its target
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
    void noEdgeOutlivesItsTarget() {
        try (World world = World.create()) {
            // begin-example
            long sun = world.spawn();
            long ann = world.spawn();
            world.defer();
            world.despawn(sun);
            world.set(ann, LIKES.to(sun)); // sun is still alive when this is called...
            long bob = world.spawn(LIKES.to(sun));
            world.commit();
            assertFalse(world.has(ann, LIKES)); // ...but the edge did not survive the commit
            assertTrue(world.isAlive(bob)); // spawned all the same, without the edge
            assertFalse(world.has(bob, LIKES));

            world.defer();
            long comet = world.spawn();
            world.set(ann, LIKES.to(comet));
            world.despawn(comet); // a staged spawn, cancelled: comet never lives
            world.commit();
            assertFalse(world.has(ann, LIKES));

            long planet = world.spawn();
            world.defer();
            world.despawn(planet);
            long moon = world.spawn(CHILD_OF.to(planet)); // a cascading edge to a dying parent...
            world.commit();
            assertFalse(world.isAlive(moon)); // ...takes the child along
            // end-example
        }
    }

    // ---------------------------------------------------------------- options

    @Test
    void cascadingNeedsExclusiveAndReverseIndex() {
        // begin-example
        assertThrows(IllegalArgumentException.class, () -> Relationships.register("docs.rel.BadCascade",
                o -> o.cascadeDelete().exclusive())); // no reverse index
        assertThrows(IllegalArgumentException.class, () -> Relationships.register("docs.rel.BadCascade",
                o -> o.cascadeDelete().reverseIndex())); // not exclusive

        assertTrue(KNOWS.hasReverseIndex());
        assertFalse(KNOWS.isExclusive());
        assertTrue(CHILD_OF.isExclusive() && CHILD_OF.hasReverseIndex() && CHILD_OF.isCascadeDelete());
        assertEquals("ChildOf", CHILD_OF.name());
        // end-example
    }

    // ---------------------------------------------------------------- selectors

    @Test
    void selectorsPickOneTarget() {
        try (World world = World.create()) {
            // begin-example
            long ann = world.spawn();
            long bob = world.spawn();
            Query fansOfAnn = world.newQuery(QueryDescriptor.builder().include(LIKES.targeting(ann)).build());
            assertEquals(0, fansOfAnn.count()); // no entity likes ann yet: the query waits

            world.spawn(SHIP, LIKES.to(ann));
            world.spawn(SHIP, LIKES.to(ann), LIKES.to(bob));
            world.spawn(SHIP, LIKES.to(bob));
            world.spawn(SHIP);
            assertEquals(2, fansOfAnn.count()); // persistent: it adopted the new archetypes

            Query notAnn = world.newQuery(QueryDescriptor.builder().include(SHIP)
                    .exclude(LIKES.targeting(ann)).build());
            assertEquals(2, notAnn.count()); // likes bob only, or nobody
            Query either = world.newQuery(QueryDescriptor.builder()
                    .includeAny(LIKES.targeting(ann), LIKES.targeting(bob)).build());
            assertEquals(3, either.count());
            // end-example
        }
    }

    @Test
    void selectorsOutsideQueries() {
        try (World world = World.create()) {
            // begin-example
            long ann = world.spawn();
            long bob = world.spawn();
            long cid = world.spawn(LIKES.to(ann), LIKES.to(bob));
            TargetSelector<RelationshipValue> likesAnn = LIKES.targeting(ann);
            assertEquals(likesAnn, LIKES.targeting(ann)); // equal by relationship and target

            assertTrue(world.has(cid, likesAnn));
            assertEquals(LIKES.to(ann), world.get(cid, likesAnn)); // a selector reads its edge, or null
            assertNull(world.get(ann, likesAnn));
            assertTrue(world.archetypeOf(cid).has(likesAnn));
            assertEquals(List.of(world.archetypeOf(cid)), world.findArchetypes(likesAnn));

            world.remove(cid, likesAnn); // removes that one edge
            assertEquals(List.of(bob), targets(world, cid, LIKES));

            assertThrows(IllegalArgumentException.class, () -> world.set(cid, likesAnn)); // not an input
            assertThrows(IllegalArgumentException.class, () -> LIKES.targeting(0)); // not an entity id
            // end-example
        }
    }

    @Test
    void oneSelectorServesEveryWorld() {
        try (World red = World.create(); World blue = World.create()) {
            // begin-example
            long redKing = red.spawn();
            long blueKing = blue.spawn();
            assertEquals(redKing, blueKing); // the same id, in two worlds

            blue.spawn(SHIP); // blue meets another pair first, so its pair ids differ from red's
            blue.spawn(LIKES.to(blue.spawn()));
            red.spawn(LIKES.to(redKing));
            blue.spawn(LIKES.to(blueKing));
            blue.spawn(LIKES.to(blueKing));

            QueryDescriptor fans = QueryDescriptor.builder().include(LIKES.targeting(redKing)).build();
            assertEquals(1, red.newQuery(fans).count());
            assertEquals(2, blue.newQuery(fans).count());
            // end-example
        }
    }

    // ---------------------------------------------------------------- reverse index and traversal

    @Test
    void sourcesNeedAReverseIndex() {
        try (World world = World.create()) {
            // begin-example
            long hub = world.spawn();
            long ann = world.spawn(KNOWS.to(hub));
            long bob = world.spawn(KNOWS.to(hub), SHIP); // another archetype
            world.spawn(KNOWS.to(ann));

            assertArrayEquals(new long[] {ann, bob}, world.relationshipSources(KNOWS, hub)); // ascending
            List<Long> seen = new ArrayList<>();
            world.targets(hub, KNOWS, seen::add); // the same sources, one at a time
            assertEquals(List.of(ann, bob), seen);

            world.defer();
            long cid = world.spawn(KNOWS.to(hub));
            assertEquals(2, world.relationshipSources(KNOWS, hub).length); // staged: not a source yet
            world.commit();
            assertArrayEquals(new long[] {ann, bob, cid}, world.relationshipSources(KNOWS, hub));

            assertThrows(IllegalArgumentException.class, // LIKES has no reverse index
                    () -> world.relationshipSources(LIKES, hub));
            // end-example
        }
    }

    @Test
    void traverseGoesDepthFirst() {
        try (World world = World.create()) {
            // begin-example
            long scene = world.spawn();
            long ship = world.spawn(CHILD_OF.to(scene));
            long light = world.spawn(CHILD_OF.to(scene));
            long hull = world.spawn(CHILD_OF.to(ship));
            long turret = world.spawn(CHILD_OF.to(ship));
            long barrel = world.spawn(CHILD_OF.to(hull));

            List<String> visits = new ArrayList<>();
            world.traverse(scene, CHILD_OF, (entity, depth) -> visits.add(entity + "@" + depth));
            assertEquals(List.of(ship + "@0", hull + "@1", barrel + "@2", turret + "@1", light + "@0"), visits);
            // end-example
        }
    }

    @Test
    void traverseVisitsEachEntityOnce() {
        try (World world = World.create()) {
            // begin-example
            long ann = world.spawn();
            long bob = world.spawn(KNOWS.to(ann));
            long cid = world.spawn(KNOWS.to(ann));
            long dan = world.spawn(KNOWS.to(bob), KNOWS.to(cid)); // reached twice
            world.set(ann, KNOWS.to(dan)); // a cycle back to the root

            List<Long> visits = new ArrayList<>();
            world.traverse(ann, KNOWS, (entity, depth) -> visits.add(entity));
            assertEquals(List.of(bob, dan, cid), visits); // dan once; the root not at all
            // end-example
        }
    }

    @Test
    void walkUpClimbsTheFirstEdge() {
        try (World world = World.create()) {
            // begin-example
            long core = world.spawn();
            long sun = world.spawn(ORBITS.to(core));
            long earth = world.spawn(ORBITS.to(sun));
            long moon = world.spawn(ORBITS.to(earth)); // ORBITS has no reverse index: walkUp needs none

            List<String> seen = new ArrayList<>();
            world.walkUp(moon, ORBITS, (ancestor, depth) -> seen.add(ancestor + "@" + depth));
            assertEquals(List.of(earth + "@1", sun + "@2", core + "@3"), seen);

            seen.clear();
            world.walkUp(moon, ORBITS, (ancestor, depth) -> {
                seen.add(ancestor + "@" + depth);
                return ancestor != sun; // stop at the sun
            });
            assertEquals(List.of(earth + "@1", sun + "@2"), seen);

            world.walkUp(moon, ORBITS, (ancestor, depth) -> true, 3); // exactly three levels: fine
            assertThrows(IllegalStateException.class, // a fourth level exists: too deep
                    () -> world.walkUp(moon, ORBITS, (ancestor, depth) -> true, 2));
            world.set(core, ORBITS.to(moon)); // a cycle
            assertThrows(IllegalStateException.class, () -> world.walkUp(moon, ORBITS, (ancestor, depth) -> true));
            assertEquals(100, World.DEFAULT_WALK_DEPTH);
            // end-example
        }
    }

    @Test
    void sparseEdgesAreWalkedLikeDenseOnes() {
        try (World world = World.create()) {
            // begin-example
            long crate = world.spawn();
            long bag = world.spawn(HELD_BY.to(crate));
            long coin = world.spawn(HELD_BY.to(bag));
            long gem = world.spawn(HELD_BY.to(crate));

            assertArrayEquals(new long[] {bag, gem}, world.relationshipSources(HELD_BY, crate));
            List<String> visits = new ArrayList<>();
            world.traverse(crate, HELD_BY, (entity, depth) -> visits.add(entity + "@" + depth));
            assertEquals(List.of(bag + "@0", coin + "@1", gem + "@0"), visits);
            List<String> up = new ArrayList<>();
            world.walkUp(coin, HELD_BY, (ancestor, depth) -> up.add(ancestor + "@" + depth));
            assertEquals(List.of(bag + "@1", crate + "@2"), up);
            // end-example
        }
    }

    // ---------------------------------------------------------------- cascades

    @Test
    void despawningAParentDespawnsItsSubtree() {
        try (World world = World.create()) {
            // begin-example
            long scene = world.spawn();
            long ship = world.spawn(CHILD_OF.to(scene));
            long hull = world.spawn(CHILD_OF.to(ship));
            long tail = hull;
            for (int level = 0; level < 200; level++) { // far deeper than the drain's 64 waves
                tail = world.spawn(CHILD_OF.to(tail));
            }
            long fan = world.spawn(LIKES.to(hull)); // not cascading: loses the edge, stays alive
            List<Long> despawned = new ArrayList<>();
            world.observe(Entity.WORLD, OnDespawn.class, event -> despawned.add(event.entity()));

            world.despawn(ship);
            assertEquals(202, despawned.size()); // ship, hull and the chain, each reported once
            assertFalse(world.isAlive(tail));
            assertTrue(world.isAlive(scene)); // the parent of the despawned entity is untouched
            assertTrue(world.isAlive(fan));
            assertFalse(world.has(fan, LIKES));
            assertEquals(0, world.relationshipSources(CHILD_OF, scene).length);
            // end-example
        }
    }

    @Test
    void aSubtreeIsTheOneFoundWhenItsDespawnIsStaged() {
        try (World world = World.create()) {
            // begin-example
            long scene = world.spawn();
            long ship = world.spawn(CHILD_OF.to(scene));
            long hull = world.spawn(CHILD_OF.to(ship));
            long tug = world.spawn(SHIP);
            Query fleet = world.newQuery(QueryDescriptor.builder().include(SHIP).build());

            world.defer();
            world.despawn(ship); // published first: hull, its subtree, is staged to die in a later wave
            world.batchSet(fleet, RANK.of(1)); // a query batch: what follows publishes after it
            long cabin = world.spawn(CHILD_OF.to(hull)); // hull is still alive: both edges land
            long crate = world.spawn(CHILD_OF.to(hull));
            world.batchSet(fleet, RANK.of(2));
            world.set(cabin, CHILD_OF.to(scene)); // re-targeted before hull dies
            world.commit();

            assertFalse(world.isAlive(hull));
            assertFalse(world.isAlive(crate)); // hull's child when hull died: it went too, a wave later
            assertTrue(world.isAlive(cabin)); // no longer hull's child by then: spared
            assertEquals(scene, world.get(cabin, CHILD_OF).target());
            assertTrue(world.isAlive(tug));
            // end-example
        }
    }

    // ---------------------------------------------------------------- batches

    @Test
    void batchSpawnTakesEdges() {
        try (World world = World.create()) {
            // begin-example
            long sun = world.spawn();
            long earth = world.spawn();
            long guild = world.spawn();

            BatchIds fans = world.batchSpawn(100, List.of(SHIP, LIKES.to(sun), LIKES.to(earth)));
            assertEquals(List.of(sun, earth), targets(world, fans.get(99), LIKES));
            BatchIds moons = world.batchSpawn(3, List.of(ORBITS.to(sun), ORBITS.to(earth)));
            assertEquals(List.of(earth), targets(world, moons.get(0), ORBITS)); // exclusive: the last one given
            BatchIds members = world.batchSpawn(2, List.of(MEMBER_OF.to(guild)));
            assertEquals(1, world.get(members.get(1), RANK)); // requirements come along

            long[] restored = {Entity.pack(500, 0), Entity.pack(501, 0)};
            world.batchSpawnAt(restored, List.of(CHILD_OF.to(guild)), null);
            assertArrayEquals(restored, world.relationshipSources(CHILD_OF, guild));
            // end-example
        }
    }

    @Test
    void queryBatchesSetAndRemoveEdges() {
        try (World world = World.create()) {
            // begin-example
            long sun = world.spawn();
            long earth = world.spawn();
            BatchIds ships = world.batchSpawn(10, List.of(SHIP, ORBITS.to(sun)));
            Query fleet = world.newQuery(QueryDescriptor.builder().include(SHIP).build());

            world.batchSet(fleet, LIKES.to(sun));
            world.batchSet(fleet, LIKES.to(earth)); // non-exclusive: joins the other edge
            assertEquals(List.of(sun, earth), targets(world, ships.get(3), LIKES));
            world.batchSet(fleet, ORBITS.to(earth)); // exclusive: replaces the edge to sun
            assertEquals(List.of(earth), targets(world, ships.get(3), ORBITS));

            world.batchRemove(fleet, LIKES.to(sun)); // one edge
            world.batchRemove(fleet, ORBITS.targeting(sun)); // one edge, by selector: none left to remove
            assertEquals(List.of(earth), targets(world, ships.get(3), LIKES));
            world.batchRemove(fleet, LIKES); // every edge of LIKES
            assertFalse(world.has(ships.get(3), LIKES));
            assertTrue(world.has(ships.get(3), ORBITS.targeting(earth)));
            // end-example
        }
    }

    @Test
    void batchCallsRefuseBareRelationships() {
        try (World world = World.create()) {
            // begin-example
            long sun = world.spawn(SHIP);
            long gone = world.spawn();
            world.despawn(gone);
            Query ships = world.newQuery(QueryDescriptor.builder().include(SHIP).build());

            assertThrows(IllegalArgumentException.class, () -> world.batchSpawn(10, List.of(ORBITS)));
            assertThrows(IllegalArgumentException.class, () -> world.batchSpawn(10, List.of(ORBITS.to(gone))));
            assertThrows(IllegalArgumentException.class, () -> world.batchSet(ships, ORBITS));
            assertThrows(IllegalArgumentException.class, // a writer cannot choose targets
                    () -> world.batchSet(ships, ORBITS, (archetype, fromRow, toRow) -> { }));
            assertThrows(IllegalArgumentException.class, () -> world.batchSet(ships, ORBITS.targeting(sun)));
            assertEquals(1, world.entityCount()); // nothing changed
            // end-example
        }
    }

    // ---------------------------------------------------------------- sparse edges and dying targets

    @Test
    void aSparseEdgeKeepsADeadTarget() {
        try (World world = World.create()) {
            // begin-example
            long sun = world.spawn();
            long earth = world.spawn();
            long probe = world.spawn(WATCHES.to(sun), WATCHES.to(earth));
            long fan = world.spawn(LIKES.to(sun)); // dense, for comparison

            world.despawn(sun);
            assertFalse(world.has(fan, LIKES)); // the dense edge went with its target
            assertEquals(List.of(sun, earth), targets(world, probe, WATCHES)); // the sparse one stays,
            assertFalse(world.isAlive(sun)); // pointing at a dead id
            assertArrayEquals(new long[] {probe}, world.relationshipSources(WATCHES, sun));
            List<Long> up = new ArrayList<>();
            world.walkUp(probe, WATCHES, (ancestor, depth) -> up.add(ancestor));
            assertEquals(List.of(sun), up); // walkUp reports the dead ancestor, and stops there

            List<Long> live = new ArrayList<>();
            world.forEachRelationship(probe, WATCHES, edge -> {
                if (world.isAlive(edge.target())) { // check before use
                    live.add(edge.target());
                }
            });
            assertEquals(List.of(earth), live);

            world.remove(probe, WATCHES.to(sun)); // removing it is up to the owner
            assertEquals(List.of(earth), targets(world, probe, WATCHES));
            long next = world.spawn(); // sun's slot, one generation up: not the old target
            assertEquals(Entity.slot(sun), Entity.slot(next));
            assertEquals(0, world.relationshipSources(WATCHES, next).length);
            // end-example
        }
    }

    @Test
    void sparseCascadesFollowTheStore() {
        try (World world = World.create()) {
            // begin-example
            long crate = world.spawn();
            long bag = world.spawn(HELD_BY.to(crate));
            long coin = world.spawn(HELD_BY.to(bag));
            long sentry = world.spawn(WATCHES.to(bag));

            world.despawn(crate);
            assertFalse(world.isAlive(bag)); // cascading: the whole subtree goes
            assertFalse(world.isAlive(coin));
            assertEquals(List.of(bag), targets(world, sentry, WATCHES)); // not cascading: the dead id stays

            long chest = world.spawn();
            world.defer();
            world.despawn(chest);
            long ring = world.spawn(HELD_BY.to(chest)); // lands on a target that died earlier in this commit
            long note = world.spawn(WATCHES.to(chest));
            world.commit();
            assertFalse(world.isAlive(ring)); // cascading: goes the way of its target
            assertEquals(List.of(chest), targets(world, note, WATCHES)); // not cascading: kept
            // end-example
        }
    }

    // ---------------------------------------------------------------- sparse writes and batches

    @Test
    void sparseWritesKeepCallOrderWithBatches() {
        try (World world = World.create()) {
            // begin-example
            long ann = world.spawn();
            long bob = world.spawn();
            BatchIds ships = world.batchSpawn(2, List.of(SHIP, WATCHES.to(ann)));
            Query fleet = world.newQuery(QueryDescriptor.builder().include(SHIP).build());

            world.defer();
            world.set(ships.get(0), WATCHES.to(bob)); // before the batch: the batch removes it
            world.batchRemove(fleet, WATCHES);        // every edge of every member
            world.set(ships.get(1), WATCHES.to(bob)); // after the batch: it stays
            assertEquals(List.of(ann), targets(world, ships.get(1), WATCHES)); // published state until the commit
            world.commit();

            assertEquals(List.of(), targets(world, ships.get(0), WATCHES));
            assertFalse(world.has(ships.get(0), WATCHES)); // the marker went with the last edge
            assertEquals(List.of(bob), targets(world, ships.get(1), WATCHES));
            // end-example
        }
    }

    @Test
    void sparseEdgesLandAfterTheMoves() {
        try (World world = World.create()) {
            // begin-example
            long ann = world.spawn();
            List<String> log = new ArrayList<>();
            world.newQuery(QueryDescriptor.builder().include(WATCHES)
                    .onEntitiesAdded((archetype, from, to) -> {
                        List<Long> watched = new ArrayList<>();
                        archetype.forEachRelationship(WATCHES, from, edge -> watched.add(edge.target()));
                        log.add("added, watching " + watched);
                    })
                    .build());

            long cid = world.spawn(WATCHES.to(ann));
            assertEquals(List.of("added, watching []"), log); // the marker came with the row, the edge after it
            assertEquals(List.of(ann), targets(world, cid, WATCHES)); // both are there once the call returns
            // end-example
        }
    }

    @Test
    void reparentingsToOneParentInOneScopeLandTogether() {
        try (World world = World.create()) {
            // begin-example
            long oldParent = world.spawn();
            long newParent = world.spawn();
            long[] children = world.batchSpawn(100, List.of(CHILD_OF.to(oldParent))).toArray(); // ascending ids

            world.defer();
            for (long child : children) {
                world.set(child, CHILD_OF.to(newParent)); // queued back to back: one run
            }
            world.commit(); // the run leaves one list and joins the other in one pass each

            assertArrayEquals(children, world.relationshipSources(CHILD_OF, newParent)); // ascending, as always
            assertEquals(0, world.relationshipSources(CHILD_OF, oldParent).length);
            // end-example
        }
    }

    @Test
    void aDespawnDropsStagedSparseWrites() {
        try (World world = World.create()) {
            // begin-example
            long ann = world.spawn();
            long cid = world.spawn(WATCHES.to(ann));

            world.defer();
            world.set(cid, WATCHES.to(world.spawn())); // staged...
            world.despawn(cid);                        // ...and dropped with its entity
            world.commit();
            assertEquals(0, world.relationshipSources(WATCHES, ann).length); // a dead source leaves the index

            long next = world.spawn(); // cid's slot again
            assertEquals(Entity.slot(cid), Entity.slot(next));
            assertFalse(world.has(next, WATCHES)); // a recycled slot starts without edges
            assertEquals(List.of(), targets(world, next, WATCHES));
            // end-example
        }
    }

    @Test
    void batchCallsTakeSparseEdges() {
        try (World world = World.create()) {
            // begin-example
            long ann = world.spawn();
            long bob = world.spawn();
            BatchIds ships = world.batchSpawn(100, List.of(SHIP, WATCHES.to(ann)));
            Query fleet = world.newQuery(QueryDescriptor.builder().include(SHIP).build());
            int archetypes = world.archetypeCount();

            world.batchSet(fleet, WATCHES.to(bob)); // every member has the marker already: no row moves
            assertEquals(List.of(ann, bob), targets(world, ships.get(99), WATCHES));
            world.batchRemove(fleet, WATCHES.to(ann)); // one edge
            assertEquals(List.of(bob), targets(world, ships.get(0), WATCHES));
            assertEquals(100, world.relationshipSources(WATCHES, bob).length);
            assertEquals(archetypes, world.archetypeCount());

            world.batchRemove(fleet, WATCHES); // every edge, and the marker
            assertFalse(world.has(ships.get(0), WATCHES));
            assertThrows(IllegalArgumentException.class, () -> world.batchSet(fleet, WATCHES)); // to whom?

            world.batchSet(fleet, WATCHES.to(ann));
            world.clearEntities(); // the edge store empties with the world
            assertEquals(0, world.relationshipSources(WATCHES, ann).length);
            // end-example
        }
    }

    // ---------------------------------------------------------------- compaction

    @Test
    void compactPrunesDeadTargetArchetypes() {
        try (World world = World.create()) {
            // begin-example
            long sun = world.spawn();
            world.spawn(SHIP, LIKES.to(sun));
            world.despawn(sun); // the ship moves out of the archetype with the pair (Likes, sun)

            List<Archetype> left = world.findArchetypes(LIKES.targeting(sun));
            assertEquals(1, left.size()); // the archetype stays, empty, though no entity can ever join it
            assertEquals(0, left.get(0).count());
            assertEquals(1, world.compact().pruned()); // compaction removes it
            assertEquals(0, world.findArchetypes(LIKES.targeting(sun)).size());
            // end-example
        }
    }

    // ---------------------------------------------------------------- payload relationships

    @Test
    void payloadEdgesAreRecords() {
        try (World world = World.create()) {
            // begin-example
            long anchor = world.spawn();
            long hook = world.spawn();
            long body = world.spawn(SPRING.of(new Spring(hook, 40f, 2f)), SPRING.of(new Spring(anchor, 10f, 1f)));

            assertEquals(new Spring(anchor, 10f, 1f), world.get(body, SPRING)); // the first edge, by target
            List<Spring> springs = new ArrayList<>();
            world.forEachRelationship(body, SPRING, springs::add); // records, in ascending target order
            assertEquals(List.of(new Spring(anchor, 10f, 1f), new Spring(hook, 40f, 2f)), springs);
            assertEquals(new Spring(hook, 40f, 2f), world.get(body, SPRING.targeting(hook)));

            world.set(body, SPRING.of(new Spring(hook, 55f, 2f))); // same target: the payload is replaced
            assertEquals(new Spring(hook, 55f, 2f), world.get(body, SPRING.targeting(hook)));
            world.set(body, SPRING.to(anchor)); // to(target): every other field zero
            assertEquals(new Spring(anchor, 0f, 0f), world.get(body, SPRING));
            world.remove(body, SPRING.to(hook)); // removal looks at the target only
            assertNull(world.get(body, SPRING.targeting(hook)));
            assertEquals(List.of(body), java.util.Arrays.stream(world.relationshipSources(SPRING, anchor)).boxed()
                    .toList());
            // end-example
        }
    }

    @Test
    void payloadColumns() {
        try (World world = World.create()) {
            // begin-example
            long hook = world.spawn();
            long body = world.spawn(SPRING.of(new Spring(hook, 40f, 2f)));
            Archetype archetype = world.archetypeOf(body);
            int row = world.rowOf(body);

            FloatField stiffness = SPRING.targeting(hook).floatField("stiffness");
            assertEquals(40f, archetype.get(stiffness).get(row)); // the pair's own off-heap column
            archetype.getMut(stiffness).set(row, 45f);              // getMut marks the pair's column dirty
            assertEquals(new Spring(hook, 45f, 2f), world.get(body, SPRING));

            assertThrows(IllegalArgumentException.class,
                    () -> SPRING.targeting(hook).longField("target")); // the world owns the target
            assertThrows(IllegalArgumentException.class,
                    () -> archetype.set(row, SPRING.of(new Spring(body, 1f, 1f)))); // edges change through set

            long faction = world.spawn();
            Pact pact = new Pact(faction, "no raids");
            long rival = world.spawn(PACT.of(pact));
            ObjectColumn<Pact> pacts = world.archetypeOf(rival).get(PACT.targeting(faction));
            assertSame(pact, pacts.get(world.rowOf(rival))); // by reference
            assertTrue(pacts.isReadOnly()); // a record names its target: replace it with world.set
            // end-example
        }
    }

    @Test
    void sparsePayloads() {
        try (World world = World.create()) {
            // begin-example
            long bank = world.spawn();
            long guild = world.spawn();
            long debtor = world.spawn(LOAN.of(new Loan(guild, 30)), LOAN.of(new Loan(bank, 100)));
            assertEquals(new Loan(bank, 100), world.get(debtor, LOAN));
            world.set(debtor, LOAN.of(new Loan(bank, 80))); // repaid a little: same target, new payload
            List<Loan> loans = new ArrayList<>();
            world.forEachRelationship(debtor, LOAN, loans::add);
            assertEquals(List.of(new Loan(bank, 80), new Loan(guild, 30)), loans);
            assertThrows(IllegalArgumentException.class, () -> LOAN.targeting(bank)); // sparse: no selector
            // end-example
        }
    }
}
