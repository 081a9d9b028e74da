package dev.jtecs.world;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.storage.Archetype;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The world's dirty queue, the component index, and the row residue consumers rewrite from. */
class WorldDirtyTest {
    static final ScalarComponent.OfInt HP = Components.scalar("test.dirty.Hp", 1);
    static final ScalarComponent.OfInt MP = Components.scalar("test.dirty.Mp", 1);
    static final TagComponent T = Components.tag("test.dirty.T");

    private final World world = World.create();

    @AfterEach
    void tearDown() {
        world.close();
    }

    @Test
    void dirtyArchetypesListsFirstDirtiedFirstIncludingEmptiedOnes() {
        long a = world.spawn(HP);
        long b = world.spawn(MP);
        world.clearDirty();
        assertEquals(List.of(), world.dirtyArchetypes());
        world.set(b, MP.of(5)); // write-through: MP's archetype turns dirty first
        world.despawn(a); // HP's archetype is emptied: still reported
        List<Archetype> dirty = world.dirtyArchetypes();
        assertEquals(2, dirty.size());
        assertTrue(dirty.get(0).has(MP));
        assertTrue(dirty.get(1).has(HP));
        assertEquals(0, dirty.get(1).count());
        List<Archetype> snapshot = world.dirtyArchetypes();
        world.clearDirty();
        assertEquals(2, snapshot.size(), "an independent snapshot");
        assertEquals(List.of(), world.dirtyArchetypes());
        assertFalse(snapshot.get(0).anyComponentDirty());
        assertEquals(1, snapshot.get(0).writeCount(MP), "counts survive clearing");
    }

    @Test
    void forEachDirtyArchetypeVisitsWhatDirtyArchetypesListsInTheSameOrder() {
        long a = world.spawn(HP);
        long b = world.spawn(MP);
        long c = world.spawn(T);
        world.clearDirty();
        world.set(b, MP.of(5));
        world.despawn(a);
        world.set(c, HP.of(2)); // a move: T's archetype loses a row, {HP, T} gains one
        List<Archetype> visited = new ArrayList<>();
        world.forEachDirtyArchetype(visited::add);
        assertEquals(world.dirtyArchetypes(), visited);
        assertEquals(4, visited.size());
        assertThrows(NullPointerException.class, () -> world.forEachDirtyArchetype(null));
    }

    @Test
    void forEachDirtyArchetypeChecksEachArchetypeWhenItGetsThereAndIsAScope() {
        long a = world.spawn(HP);
        long b = world.spawn(MP);
        long quiet = world.spawn(T);
        world.clearDirty();
        world.set(a, HP.of(3));
        world.set(b, MP.of(3));
        Archetype first = world.archetypeOf(a);
        Archetype second = world.archetypeOf(b);
        List<Archetype> visited = new ArrayList<>();
        world.forEachDirtyArchetype(archetype -> {
            visited.add(archetype);
            second.clearDirtyComponents();           // cleared before the visit reaches it: skipped
            world.archetypeOf(quiet).markComponentDirty(T); // turns dirty during the visit: not visited
            world.despawn(a);                        // staged until the visit ends
            assertTrue(world.isAlive(a));
        });
        assertEquals(List.of(first), visited);
        assertFalse(world.isAlive(a), "published when the visit ended");
        assertTrue(world.dirtyArchetypes().contains(world.archetypeOf(quiet)));
    }

    @Test
    void forEachDirtyArchetypeAllocatesNothingOnceWarm() {
        for (int i = 0; i < 100; i++) {
            world.spawn(i % 2 == 0 ? HP.of(i) : MP.of(i));
        }
        world.spawn(T);
        int[] visits = new int[1];
        java.util.function.Consumer<Archetype> count = archetype -> visits[0]++;
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long best = Long.MAX_VALUE;
        for (int window = 0; window < 20 && best > 0; window++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 10_000; i++) {
                world.forEachDirtyArchetype(count);
            }
            best = Math.min(best, threads.getCurrentThreadAllocatedBytes() - before);
        }
        assertEquals(0, best, "10,000 visits of 3 dirty archetypes, quietest window");
        assertTrue(visits[0] > 0);
    }

    @Test
    void readsNeverMarkAndGetMutMarksOneColumn() {
        long id = world.spawn(HP, MP);
        world.clearDirty();
        Archetype archetype = world.archetypeOf(id);
        world.get(id, HP);
        archetype.get(HP);
        assertEquals(List.of(), world.dirtyArchetypes());
        archetype.getMut(MP);
        assertEquals(List.of(archetype), world.dirtyArchetypes());
        assertEquals(List.of(MP), archetype.dirtyComponents());
    }

    @Test
    void findArchetypesUsesTheComponentIndexIncludingEmptyOnes() {
        long id = world.spawn(HP);
        world.spawn(HP, T);
        world.spawn(MP);
        world.despawn(id);
        List<Archetype> withHp = world.findArchetypes(HP);
        assertEquals(2, withHp.size());
        assertEquals(0, withHp.get(0).count());
        assertEquals(List.of(), world.findArchetypes(Components.tag("test.dirty.Unused")));
    }

    @Test
    void rowResidueDescribesAppendsAndSwapRemoveOverwrites() {
        long[] ids = new long[6];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = world.spawn(HP.of(i));
        }
        Archetype archetype = world.archetypeOf(ids[0]);
        world.clearDirty();
        long seen = archetype.structuralCount();
        assertTrue(archetype.structuralDescribed(seen));
        assertEquals(6, archetype.structuralAdded(), "nothing appended yet");
        world.despawn(ids[1]); // the last row (5) moves into row 1
        long added = world.spawn(HP.of(9)); // appended at row 5
        assertTrue(archetype.structuralDescribed(seen));
        assertArrayEquals(new int[] {1}, archetype.structuralTouched());
        assertEquals(5, archetype.structuralAdded());
        assertEquals(added, archetype.entity(5));
        assertFalse(archetype.structuralDescribed(seen - 1), "a consumer older than the window must refresh");
        long[] more = new long[200];
        world.defer();
        for (int i = 0; i < more.length; i++) {
            more[i] = world.spawn(HP);
        }
        world.commit();
        world.clearDirty();
        seen = archetype.structuralCount();
        world.defer();
        for (int i = 0; i < 100; i++) {
            world.despawn(archetype.entity(i)); // 100 holes below the suffix, each refilled by a swap
        }
        world.commit();
        assertFalse(archetype.structuralDescribed(seen), "past the touched bound: refresh everything");
    }

    @Test
    void trackedColumnsCountValueWritesButNotStructuralOnes() {
        long id = world.spawn(HP, MP);
        Archetype archetype = world.archetypeOf(id);
        archetype.trackValueCount(HP);
        world.spawn(HP, MP);
        assertEquals(0, archetype.valueCount());
        world.set(id, HP.of(3));
        archetype.getMut(HP);
        world.set(id, MP.of(3)); // untracked column
        assertEquals(2, archetype.valueCount());
        world.clearDirty();
        assertEquals(2, archetype.valueCount(), "survives clearing");
    }
}
