package dev.jtecs.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.Disabled;
import dev.jtecs.builtin.Paused;
import dev.jtecs.component.Components;
import dev.jtecs.component.TagComponent;
import dev.jtecs.world.World;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueryDescriptorTest {
    static final TagComponent A = Components.tag("test.qd.A");
    static final TagComponent B = Components.tag("test.qd.B");
    static final TagComponent C = Components.tag("test.qd.C");

    @Test
    void matchesIncludeAnyAndExcludeAgainstSignatures() {
        QueryDescriptor d = QueryDescriptor.builder().include(A).includeAny(B, C).exclude(Paused.COMPONENT).build();
        try (World world = World.create()) {
            assertTrue(d.matches(world.archetypeOf(world.spawn(A, B))));
            assertTrue(d.matches(world.archetypeOf(world.spawn(A, C))));
            assertFalse(d.matches(world.archetypeOf(world.spawn(A))), "needs one of includeAny");
            assertFalse(d.matches(world.archetypeOf(world.spawn(B, C))), "needs every include");
            assertFalse(d.matches(world.archetypeOf(world.spawn(A, B, Paused.COMPONENT))));
        }
    }

    @Test
    void disabledIsLeftOutUnlessIncludedAndLogicAlsoLeavesOutPaused() {
        assertTrue(QueryDescriptor.builder().include(A).build().exclude().contains(Disabled.COMPONENT));
        assertFalse(QueryDescriptor.builder().include(A, Disabled.COMPONENT).build().exclude()
                .contains(Disabled.COMPONENT));
        assertFalse(QueryDescriptor.builder().include(A).includeAny(Disabled.COMPONENT).build().exclude()
                .contains(Disabled.COMPONENT));
        QueryDescriptor logic = QueryDescriptor.builder().include(A).logic().build();
        assertTrue(logic.exclude().contains(Paused.COMPONENT));
        assertEquals(QueryKind.LOGIC, logic.kind());
        assertFalse(QueryDescriptor.builder().include(A, Paused.COMPONENT).logic().build().exclude()
                .contains(Paused.COMPONENT));
        QueryDescriptor render = QueryDescriptor.builder().include(A).render().build();
        assertFalse(render.exclude().contains(Paused.COMPONENT));
        assertEquals(QueryKind.RENDER, render.kind());
    }

    @Test
    void listsAreCopiedAndDuplicatesCollapse() {
        QueryDescriptor.Builder builder = QueryDescriptor.builder().include(A, A).name("q");
        QueryDescriptor first = builder.build();
        builder.include(B);
        assertEquals(List.of(A), first.include());
        assertEquals("q", first.name());
        assertTrue(first.toString().contains("q"));
        assertThrows(UnsupportedOperationException.class, () -> first.include().add(C));
    }

    @Test
    void contradictionsAndTemporaryCallbacksAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> QueryDescriptor.builder().include(A).exclude(A).build());
        assertThrows(IllegalArgumentException.class,
                () -> QueryDescriptor.builder().include(A).temp().onEntitiesAdded((a, f, t) -> { }).build());
        assertThrows(NullPointerException.class, () -> QueryDescriptor.builder().include((TagComponent) null));
        assertTrue(QueryDescriptor.builder().temp().build().isTemporary());
    }
}
