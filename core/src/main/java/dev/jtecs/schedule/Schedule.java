package dev.jtecs.schedule;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * A compiled schedule: for every phase id, the systems of that leaf in the order they run. Immutable once built;
 * a dispatch captures one and walks its arrays, so dispatch allocates nothing.
 *
 * <p>Order within a leaf: Kahn's algorithm over the {@code before}/{@code after} edges between systems of that
 * leaf, taking among the ready systems the one registered earliest. Edges to names outside the leaf are ignored,
 * self-edges are ignored, and an edge named twice (or from both ends) counts once.
 */
final class Schedule {
    private static final SystemEntry[] NONE = new SystemEntry[0];

    private final SystemEntry[][] byPhase;

    private Schedule(SystemEntry[][] byPhase) {
        this.byPhase = byPhase;
    }

    /**
     * Orders every leaf, checking them in registry position order.
     *
     * @param systems every registered system, in registration order
     * @throws ScheduleCycleException for the first leaf (in registry order) whose constraints cycle
     */
    static Schedule compile(PhaseRegistry phases, Collection<SystemEntry> systems) {
        List<List<SystemEntry>> grouped = new ArrayList<>(phases.count());
        for (int i = 0; i < phases.count(); i++) {
            grouped.add(new ArrayList<>());
        }
        for (SystemEntry system : systems) {
            grouped.get(system.phaseId).add(system);
        }
        SystemEntry[][] byPhase = new SystemEntry[phases.count()][];
        for (PhaseRegistry.Node node : phases.inPositionOrder()) {
            byPhase[node.id()] = order(node.phase(), grouped.get(node.id()));
        }
        return new Schedule(byPhase);
    }

    /** One leaf's systems (given in registration order) in dispatch order. */
    static SystemEntry[] order(Phase phase, List<SystemEntry> systems) {
        int count = systems.size();
        if (count == 0) {
            return NONE;
        }
        Map<String, Integer> local = new HashMap<>();
        for (int i = 0; i < count; i++) {
            local.put(systems.get(i).name, i);
        }
        List<Set<Integer>> successors = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            successors.add(new LinkedHashSet<>());
        }
        for (int i = 0; i < count; i++) {
            SystemEntry system = systems.get(i);
            for (String later : system.before) {
                Integer j = local.get(later);
                if (j != null && j != i) {
                    successors.get(i).add(j);
                }
            }
            for (String earlier : system.after) {
                Integer j = local.get(earlier);
                if (j != null && j != i) {
                    successors.get(j).add(i);
                }
            }
        }
        int[] indegree = new int[count];
        for (Set<Integer> next : successors) {
            for (int j : next) {
                indegree[j]++;
            }
        }
        PriorityQueue<Integer> ready = new PriorityQueue<>(); // lowest index = earliest registered
        for (int i = 0; i < count; i++) {
            if (indegree[i] == 0) {
                ready.add(i);
            }
        }
        SystemEntry[] ordered = new SystemEntry[count];
        int emitted = 0;
        while (!ready.isEmpty()) {
            int i = ready.poll();
            ordered[emitted++] = systems.get(i);
            for (int j : successors.get(i)) {
                if (--indegree[j] == 0) {
                    ready.add(j);
                }
            }
        }
        if (emitted < count) {
            List<String> blocked = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                if (indegree[i] > 0) {
                    blocked.add(systems.get(i).name);
                }
            }
            throw new ScheduleCycleException(phase, blocked);
        }
        return ordered;
    }

    /**
     * The systems of one phase in dispatch order (empty for trees). Every registered phase has an entry: a
     * registration drops the compiled schedule, and none is allowed while a dispatch runs on the one it compiled.
     */
    SystemEntry[] systems(int phaseId) {
        return byPhase[phaseId];
    }
}
