package dev.jtecs.schedule;

import dev.jtecs.entity.internal.Growth;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The phases one world knows: the predefined ones first, then custom ones. Each phase has a stable id (its
 * registration index, used to index per-phase arrays) and a registry position (inspection order, which custom
 * registrations may shift). Leaves carry an enabled flag; a tree's leaves are flattened once at registration,
 * so resolving any selection to the leaves it runs allocates nothing.
 */
final class PhaseRegistry {
    /** One registered phase. {@code leaves} lists the leaf ids it runs: itself for a leaf. */
    record Node(Phase phase, int id, List<Phase> children, int[] leaves) {
        boolean isLeaf() {
            return children.isEmpty();
        }
    }

    private final List<Node> byId = new ArrayList<>();
    private final List<Node> byPosition = new ArrayList<>();
    private final Map<Phase, Node> byPhase = new HashMap<>();
    private final Map<PhaseGroup, int[]> groups = new EnumMap<>(PhaseGroup.class);
    private boolean[] enabled = new boolean[32];

    PhaseRegistry() {
        for (Phase phase : Phases.PREDEFINED) {
            register(new PhaseDefinition(phase, List.of(), PhaseDefinition.APPEND));
        }
        for (PhaseGroup group : PhaseGroup.values()) {
            groups.put(group, leafIds(group.phases()));
        }
    }

    /**
     * Registers a custom phase; changes nothing when it throws.
     *
     * @throws IllegalArgumentException for a taken name, an unregistered or repeated child, or a position
     *     outside {@code 0 .. count}
     */
    void register(PhaseDefinition definition) {
        Phase phase = definition.phase();
        if (byPhase.containsKey(phase)) {
            throw new IllegalArgumentException("phase " + phase + " is already registered");
        }
        int position = definition.position() == PhaseDefinition.APPEND ? byPosition.size() : definition.position();
        if (position > byPosition.size()) {
            throw new IllegalArgumentException("position=" + position + " of phase " + phase + " is outside 0.."
                    + byPosition.size() + " (the registered phase count)");
        }
        Set<Phase> seen = new HashSet<>();
        for (Phase child : definition.children()) {
            if (!byPhase.containsKey(child)) {
                throw new IllegalArgumentException("phase " + phase + " names child " + child
                        + ", which is not registered (register children first)");
            }
            if (!seen.add(child)) {
                throw new IllegalArgumentException("phase " + phase + " names child " + child + " twice");
            }
        }
        int id = byId.size();
        int[] leaves = definition.isLeaf() ? new int[] {id} : leafIds(definition.children());
        Node node = new Node(phase, id, definition.children(), leaves);
        if (id == enabled.length) {
            enabled = Growth.copyOf(enabled, id * 2);
        }
        enabled[id] = true;
        byId.add(node);
        byPosition.add(position, node);
        byPhase.put(phase, node);
    }

    private int[] leafIds(List<Phase> phases) {
        List<Integer> ids = new ArrayList<>();
        for (Phase phase : phases) {
            for (int leaf : byPhase.get(phase).leaves()) {
                ids.add(leaf);
            }
        }
        return ids.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The node of a registered phase. @throws IllegalArgumentException when the world lacks it */
    Node require(Phase phase) {
        Node node = byPhase.get(phase);
        if (node == null) {
            throw new IllegalArgumentException("phase " + phase + " is not registered in this world");
        }
        return node;
    }

    /** The leaf ids a selection runs, in order; the array is shared, never modify it. */
    int[] leaves(PhaseSelection selection) {
        return switch (selection) {
            case Phase phase -> require(phase).leaves();
            case PhaseGroup group -> groups.get(group);
        };
    }

    /** The leaf id of a phase that must be a leaf (the phase a system goes in). */
    int requireLeaf(Phase phase) {
        Node node = require(phase);
        if (!node.isLeaf()) {
            throw new IllegalArgumentException("phase " + phase + " is a tree of " + node.children()
                    + "; systems go in leaf phases");
        }
        return node.id();
    }

    void setEnabled(PhaseSelection selection, boolean value) {
        for (int leaf : leaves(selection)) {
            enabled[leaf] = value;
        }
    }

    boolean isEnabled(int leafId) {
        return enabled[leafId];
    }

    /** Whether a leaf is enabled; for a tree, whether every leaf under it is. */
    boolean isEnabled(Phase phase) {
        for (int leaf : require(phase).leaves()) {
            if (!enabled[leaf]) {
                return false;
            }
        }
        return true;
    }

    int count() {
        return byId.size();
    }

    /** Every phase in registry position order. */
    List<Node> inPositionOrder() {
        return byPosition;
    }
}
