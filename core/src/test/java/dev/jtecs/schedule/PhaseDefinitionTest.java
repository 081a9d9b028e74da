package dev.jtecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PhaseDefinitionTest {
    @Test
    void leavesAndTreesAppendByDefault() {
        PhaseDefinition leaf = PhaseDefinition.leaf("game.Ai");
        assertTrue(leaf.isLeaf());
        assertEquals(PhaseDefinition.APPEND, leaf.position());
        PhaseDefinition tree = PhaseDefinition.tree("game.Sim", "game.Ai", "Update");
        assertFalse(tree.isLeaf());
        assertEquals(List.of(Phase.of("game.Ai"), Phases.UPDATE), tree.children());
        assertEquals(3, tree.at(3).position());
        assertEquals(tree.children(), tree.at(0).children());
    }

    @Test
    void childrenAreCopied() {
        List<Phase> children = new ArrayList<>(List.of(Phases.UPDATE));
        PhaseDefinition tree = new PhaseDefinition(Phase.of("t"), children, PhaseDefinition.APPEND);
        children.add(Phases.RENDER);
        assertEquals(List.of(Phases.UPDATE), tree.children());
    }

    @Test
    void badDefinitionsAreRefused() {
        IllegalArgumentException empty =
                assertThrows(IllegalArgumentException.class, () -> PhaseDefinition.tree(Phase.of("t")));
        assertEquals("tree phase t needs at least one child; use PhaseDefinition.leaf for a leaf", empty.getMessage());
        IllegalArgumentException negative =
                assertThrows(IllegalArgumentException.class, () -> PhaseDefinition.leaf("x").at(-1));
        assertEquals("position=-1 of phase x must be >= 0", negative.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new PhaseDefinition(Phase.of("x"), List.of(), -2));
        assertThrows(NullPointerException.class,
                () -> new PhaseDefinition(Phase.of("x"), java.util.Arrays.asList((Phase) null), -1));
    }
}
