package dev.jtecs.query.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.Input;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.world.World;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryCursor;
import dev.jtecs.query.QueryDescriptor;

class WorldQueryCursorTest {
    static final ScalarComponent.OfInt V = Components.scalar("test.cursor.V", 0);
    static final TagComponent[] BITS = new TagComponent[6];

    static {
        for (int i = 0; i < BITS.length; i++) {
            BITS[i] = Components.tag("test.cursor.Bit" + i);
        }
    }

    private final World world = World.create();

    @AfterEach
    void tearDown() {
        world.close();
    }

    private Query populate() {
        world.defer();
        for (int combo = 0; combo < 64; combo++) {
            List<Input> inputs = new ArrayList<>(List.of(V.of(combo)));
            for (int bit = 0; bit < BITS.length; bit++) {
                if ((combo & (1 << bit)) != 0) {
                    inputs.add(BITS[bit]);
                }
            }
            world.spawn(inputs.toArray(new Input[0]));
        }
        world.commit();
        return world.newQuery(QueryDescriptor.builder().include(V).build());
    }

    @Test
    void yieldsArchetypeCountAndEntitiesForEachNonEmptyMatch() {
        Query query = populate();
        int archetypes = 0;
        int rows = 0;
        try (QueryCursor cursor = query.cursor()) {
            while (cursor.next()) {
                archetypes++;
                rows += cursor.count();
                assertEquals(cursor.archetype().entities(), cursor.archetype().entities());
                assertTrue(world.isAlive(cursor.entities().get(0)));
            }
        }
        assertEquals(64, archetypes);
        assertEquals(64, rows);
    }

    @Test
    void stepsAllocateNothing() {
        Query query = populate();
        for (int warm = 0; warm < 2000; warm++) {
            try (QueryCursor cursor = query.cursor()) {
                while (cursor.next()) {
                    cursor.count();
                }
            }
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().threadId();
        long before = threads.getThreadAllocatedBytes(thread);
        int steps = 0;
        for (int i = 0; i < 100; i++) {
            try (QueryCursor cursor = query.cursor()) {
                while (cursor.next()) {
                    steps += cursor.count();
                }
            }
        }
        long bytes = threads.getThreadAllocatedBytes(thread) - before;
        assertEquals(6400, steps);
        assertTrue(bytes < 100 * 128, "100 iterations of 64 steps allocated " + bytes
                + " bytes: at most the cursor objects themselves");
    }

    @Test
    void aClosedCursorRefusesReadsAndStaysClosed() {
        Query query = populate();
        QueryCursor cursor = query.cursor();
        assertEquals("call next() first", assertThrows(IllegalStateException.class, cursor::count).getMessage());
        cursor.close();
        assertFalse(cursor.next());
        assertEquals("cursor is closed", assertThrows(IllegalStateException.class, cursor::entities).getMessage());
        assertEquals(0, world.scopeDepth());
    }

    /** Matched archetypes left empty are stepped over, and a cursor run to its end closes its scope by itself. */
    @Test
    void aCursorStepsOverEmptyArchetypesAndItsEndClosesItsScope() {
        long gone = world.spawn(V.of(1), BITS[0]);
        world.spawn(V.of(2));
        world.despawn(gone); // V + Bit0 stays matched, empty
        Query query = world.newQuery(QueryDescriptor.builder().include(V).build());
        assertEquals(2, query.archetypes().size());
        QueryCursor cursor = query.cursor();
        long staged = world.spawn(V.of(3), BITS[1]); // inside the cursor's scope: staged until it ends
        assertFalse(world.isAlive(staged));
        List<Integer> counts = new ArrayList<>();
        while (cursor.next()) {
            counts.add(cursor.count());
        }
        assertEquals(List.of(1), counts, "the empty archetype is not a step");
        assertEquals(0, world.scopeDepth(), "the last next() closed the scope");
        assertTrue(world.isAlive(staged), "and published what it staged");
        assertEquals("cursor is closed", assertThrows(IllegalStateException.class, cursor::archetype).getMessage());
    }
}
