package dev.jtecs.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.Disabled;
import dev.jtecs.builtin.Paused;
import dev.jtecs.component.Components;
import dev.jtecs.component.Input;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import dev.jtecs.component.TagComponent;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueryDescriptorTest {
    static final TagComponent A = Components.tag("test.qd.A");
    static final TagComponent B = Components.tag("test.qd.B");
    static final TagComponent C = Components.tag("test.qd.C");
    /** Dense and not exclusive: an entity may hold edges to several targets, each its own archetype component. */
    static final Relationship LINK = Relationships.register("test.qd.Link");

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

    /**
     * Every list counts in both matches, ids and edges alike; only the implicit {@code Disabled} and {@code Paused}
     * exclusions are left out of {@code matchesWithoutStateExclusions} (what a snapshot's filter asks).
     */
    @Test
    void withoutStateExclusionsOnlyTheImplicitOnesStopCounting() {
        try (World world = World.create()) {
            long p = world.spawn();
            long q = world.spawn();
            long r = world.spawn();
            QueryDescriptor d = QueryDescriptor.builder().include(A, LINK.targeting(p))
                    .includeAny(B, LINK.targeting(q)).exclude(C, LINK.targeting(r)).logic().build();
            assertEquals(List.of(B, LINK.targeting(q)), d.includeAny());
            Object[][] cases = { // the archetype's components; matches; matches without the state exclusions
                {new Input[] {A, LINK.to(p), B}, true, true},
                {new Input[] {A, LINK.to(p), LINK.to(q)}, true, true}, // the any through its edge
                {new Input[] {A, LINK.to(p), B, Disabled.COMPONENT}, false, true},
                {new Input[] {A, LINK.to(p), B, Paused.COMPONENT}, false, true},
                {new Input[] {A, LINK.to(p)}, false, false}, // none of the any
                {new Input[] {A, B}, false, false}, // not the included edge
                {new Input[] {LINK.to(p), B}, false, false}, // not the included id
                {new Input[] {A, LINK.to(p), B, C}, false, false}, // an excluded id
                {new Input[] {A, LINK.to(p), B, LINK.to(r)}, false, false}, // an excluded edge
            };
            for (Object[] c : cases) {
                Archetype archetype = world.archetypeOf(world.spawn((Input[]) c[0]));
                assertEquals(c[1], d.matches(archetype), archetype.toString());
                assertEquals(c[2], d.matchesWithoutStateExclusions(archetype), archetype.toString());
            }
        }
    }

    @Test
    void toStringNamesTheQueryWhenItHasANameAndEveryList() {
        QueryDescriptor unnamed = QueryDescriptor.builder().include(A).includeAny(B).exclude(C).render().build();
        assertEquals("Query[include=[test.qd.A] any=[test.qd.B] exclude=[test.qd.C, " + Disabled.COMPONENT.name()
                + "] kind=RENDER]", unnamed.toString());
        QueryDescriptor named = QueryDescriptor.builder().include(A).name("q").render().build();
        assertEquals("Query[q: include=[test.qd.A] any=[] exclude=[" + Disabled.COMPONENT.name() + "] kind=RENDER]",
                named.toString());
    }
}
