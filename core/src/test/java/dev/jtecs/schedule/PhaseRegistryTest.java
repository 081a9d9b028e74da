package dev.jtecs.schedule;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PhaseRegistryTest {
    private final PhaseRegistry registry = new PhaseRegistry();

    private List<Phase> positions() {
        return registry.inPositionOrder().stream().map(PhaseRegistry.Node::phase).toList();
    }

    private int id(Phase phase) {
        return registry.require(phase).id();
    }

    @Test
    void startsWithThePredefinedLeavesInOrder() {
        assertEquals(Phases.PREDEFINED, positions());
        for (Phase phase : Phases.PREDEFINED) {
            assertTrue(registry.require(phase).isLeaf());
            assertTrue(registry.isEnabled(phase));
        }
    }

    @Test
    void customLeavesAppendOrInsertAtAPosition() {
        registry.register(PhaseDefinition.leaf("game.Late"));
        registry.register(PhaseDefinition.leaf("game.Early").at(0));
        registry.register(PhaseDefinition.leaf("game.Mid").at(5));
        List<Phase> order = positions();
        assertEquals(Phase.of("game.Early"), order.get(0));
        assertEquals(Phase.of("game.Mid"), order.get(5));
        assertEquals(Phase.of("game.Late"), order.get(order.size() - 1));
        assertEquals(Phases.PREDEFINED.size() + 3, registry.count());
        assertEquals(Phases.PREDEFINED.size(), id(Phase.of("game.Late")), "ids follow registration, not position");
        registry.register(PhaseDefinition.leaf("game.End").at(registry.count()));
        assertEquals(Phase.of("game.End"), positions().get(registry.count() - 1));
    }

    @Test
    void treesFlattenToTheirLeavesInOrder() {
        registry.register(PhaseDefinition.leaf("a"));
        registry.register(PhaseDefinition.leaf("b"));
        registry.register(PhaseDefinition.tree("ab", "a", "b"));
        registry.register(PhaseDefinition.tree("outer", "Render", "ab", "Update"));
        assertArrayEquals(new int[] {id(Phases.RENDER), id(Phase.of("a")), id(Phase.of("b")), id(Phases.UPDATE)},
                registry.leaves(Phase.of("outer")));
        assertFalse(registry.require(Phase.of("outer")).isLeaf());
        assertArrayEquals(new int[] {id(Phase.of("a"))}, registry.leaves(Phase.of("a")));
    }

    @Test
    void groupsResolveToTheirPhases() {
        int[] main = registry.leaves(PhaseGroup.MAIN);
        assertArrayEquals(PhaseGroup.MAIN.phases().stream().mapToInt(this::id).toArray(), main);
        assertEquals(Phases.PREDEFINED.size(), registry.leaves(PhaseGroup.ALL).length);
    }

    @Test
    void badRegistrationsThrowAndChangeNothing() {
        registry.register(PhaseDefinition.leaf("game.A"));
        List<Phase> before = positions();

        IllegalArgumentException duplicate = assertThrows(IllegalArgumentException.class,
                () -> registry.register(PhaseDefinition.leaf("game.A")));
        assertEquals("phase game.A is already registered", duplicate.getMessage());
        assertThrows(IllegalArgumentException.class, () -> registry.register(PhaseDefinition.leaf("Update")));

        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> registry.register(PhaseDefinition.tree("game.T", "game.A", "game.Missing")));
        assertEquals("phase game.T names child game.Missing, which is not registered (register children first)",
                unknown.getMessage());
        IllegalArgumentException self = assertThrows(IllegalArgumentException.class,
                () -> registry.register(PhaseDefinition.tree("game.Self", "game.Self")));
        assertTrue(self.getMessage().contains("not registered"), self.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> registry.register(PhaseDefinition.tree("game.T", "game.A", "game.A")));
        assertEquals("phase game.T names child game.A twice", twice.getMessage());

        int count = registry.count();
        IllegalArgumentException position = assertThrows(IllegalArgumentException.class,
                () -> registry.register(PhaseDefinition.leaf("game.B").at(count + 1)));
        assertEquals("position=" + (count + 1) + " of phase game.B is outside 0.." + count
                + " (the registered phase count)", position.getMessage());

        assertEquals(before, positions());
        assertEquals(count, registry.count());
        assertThrows(IllegalArgumentException.class, () -> registry.require(Phase.of("game.T")));
        assertThrows(IllegalArgumentException.class, () -> registry.require(Phase.of("game.B")));
    }

    @Test
    void systemsNeedARegisteredLeaf() {
        registry.register(PhaseDefinition.leaf("a"));
        registry.register(PhaseDefinition.tree("t", "a"));
        assertEquals(id(Phase.of("a")), registry.requireLeaf(Phase.of("a")));
        IllegalArgumentException tree =
                assertThrows(IllegalArgumentException.class, () -> registry.requireLeaf(Phase.of("t")));
        assertEquals("phase t is a tree of [a]; systems go in leaf phases", tree.getMessage());
        IllegalArgumentException missing =
                assertThrows(IllegalArgumentException.class, () -> registry.requireLeaf(Phase.of("nope")));
        assertEquals("phase nope is not registered in this world", missing.getMessage());
    }

    @Test
    void enablingASelectionCoversEveryLeafUnderIt() {
        registry.register(PhaseDefinition.leaf("a"));
        registry.register(PhaseDefinition.tree("t", "a", "Update"));
        registry.setEnabled(Phase.of("t"), false);
        assertFalse(registry.isEnabled(Phase.of("a")));
        assertFalse(registry.isEnabled(Phases.UPDATE));
        assertFalse(registry.isEnabled(Phase.of("t")));
        registry.setEnabled(Phases.UPDATE, true);
        assertFalse(registry.isEnabled(Phase.of("t")), "a tree is enabled only when every leaf is");
        assertTrue(registry.isEnabled(id(Phases.UPDATE)));

        registry.setEnabled(PhaseGroup.RENDER, false);
        for (Phase phase : PhaseGroup.RENDER.phases()) {
            assertFalse(registry.isEnabled(phase));
        }
        assertTrue(registry.isEnabled(Phases.LAST));
        assertThrows(IllegalArgumentException.class, () -> registry.setEnabled(Phase.of("nope"), false));
    }

    @Test
    void manyPhasesGrowTheFlags() {
        for (int i = 0; i < 100; i++) {
            registry.register(PhaseDefinition.leaf("p" + i));
        }
        registry.setEnabled(Phase.of("p99"), false);
        assertFalse(registry.isEnabled(Phase.of("p99")));
        assertTrue(registry.isEnabled(Phase.of("p98")));
    }
}
