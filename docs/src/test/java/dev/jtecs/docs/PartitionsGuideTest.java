package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.event.ArchetypeCreated;
import dev.jtecs.mutation.PartitionConflictException;
import dev.jtecs.mutation.PartitionConflicts;
import dev.jtecs.mutation.PartitionDimension;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.EntityObserver;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples of {@code docs/partitions.md}. */
class PartitionsGuideTest {
    static final ScalarComponent.OfInt HUNGER = Components.scalar("docs.partitions.Hunger", 0);
    static final TagComponent SWIMMING = Components.tag("docs.partitions.Swimming");
    static final TagComponent FLEEING = Components.tag("docs.partitions.Fleeing");
    static final TagComponent RESTING = Components.tag("docs.partitions.Resting");
    static final TagComponent SCHOOLED = Components.tag("docs.partitions.Schooled");
    static final TagComponent GLOWING = Components.tag("docs.partitions.Glowing");
    static final PartitionDimension MOTION = PartitionDimension.variants("fish.motion", SWIMMING, FLEEING, RESTING);
    static final PartitionDimension SCHOOL = PartitionDimension.presence("fish.school", SCHOOLED);
    static final PartitionDimension GLOW = PartitionDimension.presence("fish.glow", GLOWING);

    @Test
    void dimensionsAreValues() {
        // begin-example
        PartitionDimension motion = PartitionDimension.variants("fish.motion", SWIMMING, FLEEING, RESTING);
        PartitionDimension school = PartitionDimension.presence("fish.school", SCHOOLED);
        assertEquals(3, motion.arity());
        assertEquals(2, motion.valueOf(FLEEING)); // declaration order, counting from 1
        assertTrue(school.isPresence());
        assertThrows(IllegalArgumentException.class,
                () -> PartitionDimension.variants("fish.lonely", SWIMMING)); // one tag: use presence
        // end-example
        assertEquals(MOTION.tags(), motion.tags());
    }

    private static World fishTank(PartitionConflicts conflicts) {
        World world = World.create(WorldConfig.defaults().partitionConflicts(conflicts));
        world.declarePartition(MOTION);
        world.declarePartition(SCHOOL);
        world.declarePartition(GLOW);
        return world;
    }

    @Test
    void declaringAndSwitching() {
        try (World world = World.create()) {
            // begin-example
            world.declarePartition(MOTION);
            world.declarePartition(SCHOOL);
            world.declarePartition(GLOW);

            long fish = world.spawn(HUNGER.of(3), SWIMMING);    // a spawn gives the first variant
            world.setTag(fish, SCHOOLED);                       // presence: on
            world.setTag(fish, FLEEING);                        // variant: Swimming -> Fleeing
            assertSame(FLEEING, world.partitionOf(fish, MOTION));
            assertFalse(world.has(fish, SWIMMING));
            assertTrue(world.has(fish, SCHOOLED));              // the other dimension is untouched
            assertEquals(3, world.get(fish, HUNGER));           // values travel with the entity

            world.unsetTag(fish, SCHOOLED);                     // presence: off
            assertThrows(IllegalArgumentException.class,
                    () -> world.unsetTag(fish, FLEEING));       // a variant has no "off"
            assertThrows(IllegalArgumentException.class,
                    () -> world.set(fish, RESTING));            // plain calls would break the dimension
            // end-example
        }
    }

    /** Notes every move the world publishes, as "n moved". */
    private static List<String> movesOf(World world) {
        List<String> moves = new ArrayList<>();
        world.observe(0, ArchetypeCreated.class, created -> created.archetype().addEntityObserver(
                new EntityObserver() {
                    @Override
                    public void onEntitiesAdded(Archetype archetype, int from, int to, Archetype other) {
                        if (other != null) {
                            moves.add((to - from) + " moved");
                        }
                    }
                }));
        return moves;
    }

    @Test
    void oneSubmissionOneMove() {
        try (World world = fishTank(PartitionConflicts.RAISE)) {
            List<String> moves = movesOf(world);
            long fish = world.spawn(SWIMMING, GLOWING);
            // begin-example
            world.defer();
            world.setTag(fish, RESTING);   // dimension motion: switch
            world.setTag(fish, SCHOOLED);  // dimension school: on
            world.unsetTag(fish, GLOWING); // dimension glow: off
            world.setTag(fish, SCHOOLED);  // the same request again: nothing new
            world.commit();
            assertEquals(List.of("1 moved"), moves); // one archetype move for all three
            // end-example
        }
    }

    @Test
    void removeWins() {
        try (World world = fishTank(PartitionConflicts.RAISE)) {
            long fish = world.spawn(SWIMMING);
            // begin-example
            world.defer();
            world.despawn(fish);
            world.setTag(fish, FLEEING);   // dropped: the fish is on its way out
            world.despawn(fish);           // queuing the despawn twice is harmless
            world.commit();
            assertFalse(world.isAlive(fish));
            // end-example
        }
    }

    @Test
    void conflictsRaiseInTheCheckedMode() {
        try (World world = fishTank(PartitionConflicts.RAISE)) {
            long fish = world.spawn(SWIMMING);
            // begin-example
            world.defer();
            world.setTag(fish, FLEEING);
            PartitionConflictException conflict = assertThrows(PartitionConflictException.class,
                    () -> world.setTag(fish, RESTING)); // the same dimension, the same submission
            assertSame(MOTION, conflict.dimension());
            world.commit();
            assertSame(FLEEING, world.partitionOf(fish, MOTION)); // the first request stood
            // end-example
        }
    }

    @Test
    void conflictsOtherwiseKeepTheHighestValue() {
        try (World world = fishTank(PartitionConflicts.HIGHEST_WINS)) {
            long fish = world.spawn(SWIMMING);
            // begin-example
            world.defer();
            world.setTag(fish, RESTING);  // value 3
            world.setTag(fish, FLEEING);  // value 2: loses, and an ERROR is logged
            world.commit();
            assertSame(RESTING, world.partitionOf(fish, MOTION));
            assertEquals(1, world.getStats(null).partitionConflictsResolved());
            // end-example
            assertNull(world.partitionOf(world.spawn(), MOTION));
        }
    }

    @Test
    void cascadesAreBounded() {
        try (World world = World.create(WorldConfig.defaults().maxSubmissionWaves(8))) {
            world.declarePartition(GLOW);
            // begin-example
            world.observe(0, ArchetypeCreated.class, created -> created.archetype().addEntityObserver(
                    new EntityObserver() { // blinks forever: every move asks for another
                        @Override
                        public void onEntitiesAdded(Archetype archetype, int from, int to, Archetype other) {
                            for (int row = from; other != null && row < to; row++) {
                                long fish = archetype.entity(row);
                                if (archetype.has(GLOWING)) {
                                    world.unsetTag(fish, GLOWING);
                                } else {
                                    world.setTag(fish, GLOWING);
                                }
                            }
                        }
                    }));
            long fish = world.spawn(HUNGER.of(1));
            IllegalStateException cascade = assertThrows(IllegalStateException.class,
                    () -> world.setTag(fish, GLOWING));
            assertTrue(cascade.getMessage().contains("after 8 waves"));
            assertTrue(world.isAlive(fish)); // what the earlier waves published stays
            // end-example
        }
    }
}
