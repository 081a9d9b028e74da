package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.world.World;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Notifications through the world: one membership callback that throws never leaves the others out of step. */
class NotificationsTest {
    static final ScalarComponent.OfInt LEVEL = Components.scalar("test.notify.Level", 1);
    static final TagComponent FLAG = Components.tag("test.notify.Flag");

    private final World world = World.create();
    private final Set<Long> before = new TreeSet<>(); // a tracking query registered before the faulty one
    private final Set<Long> after = new TreeSet<>(); // and one registered after it
    private boolean failAdded;
    private boolean failRemoved;

    @AfterEach
    void close() {
        world.close();
    }

    private void track(Set<Long> members) {
        world.newQuery(QueryDescriptor.builder().include(LEVEL)
                .onEntitiesAdded((archetype, from, to) -> {
                    for (int row = from; row < to; row++) {
                        members.add(archetype.entity(row));
                    }
                })
                .onEntitiesRemoved((archetype, from, to) -> {
                    for (int row = from; row < to; row++) {
                        members.remove(archetype.entity(row));
                    }
                }).build());
    }

    private void install() {
        track(before);
        world.newQuery(QueryDescriptor.builder().include(LEVEL)
                .onEntitiesAdded((archetype, from, to) -> {
                    if (failAdded) {
                        throw new IllegalStateException("added refused");
                    }
                })
                .onEntitiesRemoved((archetype, from, to) -> {
                    if (failRemoved) {
                        throw new IllegalStateException("removed refused");
                    }
                }).build());
        track(after);
    }

    @Test
    void aThrowingAddedCallbackLeavesTheOthersInStep() {
        install();
        failAdded = true;
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> world.spawn(LEVEL));
        assertEquals("added refused", e.getMessage());
        assertEquals(1, before.size());
        long id = before.iterator().next();
        assertTrue(world.isAlive(id), "published before its callback threw: it stays");
        assertEquals(Set.of(id), after, "the callback after the faulty one heard the row too");
    }

    @Test
    void aRefusedRemovalIsUndoneForTheCallbacksThatHeardIt() {
        install();
        long id = world.spawn(LEVEL);
        failRemoved = true;
        assertThrows(IllegalStateException.class, () -> world.despawn(id));
        assertTrue(world.isAlive(id), "the row never left");
        assertEquals(Set.of(id), before, "heard the removal, then the row come back");
        assertEquals(Set.of(id), after);
        assertThrows(IllegalStateException.class, () -> world.remove(id, LEVEL)); // a move out, refused
        assertTrue(world.has(id, LEVEL));
        assertEquals(Set.of(id), before);
        assertEquals(Set.of(id), after);
        failRemoved = false;
        world.despawn(id);
        assertEquals(Set.of(), before);
        assertEquals(Set.of(), after);
    }

    @Test
    void everyFailureIsKeptTheFirstPropagates() {
        for (String name : List.of("first", "second")) {
            world.newQuery(QueryDescriptor.builder().include(FLAG).onEntitiesAdded((archetype, from, to) -> {
                throw new IllegalStateException(name);
            }).build());
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> world.spawn(FLAG));
        assertEquals("first", e.getMessage());
        assertEquals(1, e.getSuppressed().length);
        assertEquals("second", e.getSuppressed()[0].getMessage());
        assertSame(IllegalStateException.class, e.getSuppressed()[0].getClass());
    }
}
