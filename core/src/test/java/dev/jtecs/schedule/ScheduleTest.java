package dev.jtecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ScheduleTest {
    private static final SystemBody NOTHING = (dt, world) -> {};

    /** A system in the phase with id 0. {@code constraints} are "<name" (before name) or ">name" (after name). */
    private static SystemEntry system(String name, String... constraints) {
        return system(name, 0, constraints);
    }

    private static SystemEntry system(String name, int phaseId, String... constraints) {
        SystemConfig config = SystemConfig.named(name).run(NOTHING);
        for (String constraint : constraints) {
            String other = constraint.substring(1);
            config = constraint.charAt(0) == '<' ? config.before(other) : config.after(other);
        }
        return new SystemEntry(name, phaseId, config);
    }

    private static List<String> order(SystemEntry... systems) {
        return Arrays.stream(Schedule.order(Phases.UPDATE, List.of(systems))).map(s -> s.name).toList();
    }

    @Test
    void withoutConstraintsSystemsRunInRegistrationOrder() {
        assertEquals(List.of("a", "b", "c"), order(system("a"), system("b"), system("c")));
        assertEquals(List.of(), order());
    }

    @Test
    void beforeAndAfterAddEdges() {
        assertEquals(List.of("b", "a"), order(system("a", ">b"), system("b")));
        assertEquals(List.of("b", "a"), order(system("a"), system("b", "<a")));
    }

    @Test
    void amongReadySystemsTheEarliestRegisteredRunsFirst() {
        // a waits for d, registered last; b and c are ready at once and go first
        assertEquals(List.of("b", "c", "d", "a"), order(system("a", ">d"), system("b"), system("c"), system("d")));
        // once d has run, a (registered before e) is preferred over e
        assertEquals(List.of("d", "a", "e"), order(system("a", ">d"), system("d"), system("e")));
        assertEquals(List.of("c", "a", "b"), order(system("a", ">c"), system("b", ">a"), system("c")));
    }

    @Test
    void missingNamesAndSelfEdgesAddNothing() {
        assertEquals(List.of("a", "b"), order(system("a", ">ghost", "<a", ">a"), system("b", "<nobody")));
    }

    @Test
    void duplicateEdgesCountOnce() {
        // a before b, stated twice on b and once more on a, is one edge: b becomes ready as soon as a has run
        assertEquals(List.of("a", "b"), order(system("b", ">a", ">a"), system("a", "<b")));
        assertEquals(List.of("a", "c", "b"), order(system("a", "<c", "<c"), system("b", ">c"), system("c", ">a")));
    }

    @Test
    void aCycleNamesItsPhaseAndEveryBlockedSystem() {
        ScheduleCycleException cycle = assertThrows(ScheduleCycleException.class, () -> order(
                system("free"), system("x", ">y"), system("y", ">z"), system("z", ">x"), system("after", ">z")));
        assertEquals(Phases.UPDATE, cycle.phase());
        assertEquals(List.of("x", "y", "z", "after"), cycle.blocked());
        assertEquals("ordering cycle in phase Update: systems [x, y, z, after] cannot be ordered "
                + "(remove one of them to repair the schedule)", cycle.getMessage());
        assertThrows(ScheduleCycleException.class, () -> order(system("a", "<b"), system("b", "<a")));
    }

    @Test
    void compilingChecksPhasesInRegistryOrderAndIgnoresCrossPhaseNames() {
        PhaseRegistry phases = new PhaseRegistry();
        int update = phases.requireLeaf(Phases.UPDATE);
        int render = phases.requireLeaf(Phases.RENDER);
        SystemEntry draw = system("draw", render, ">move");
        SystemEntry move = system("move", update, "<draw");
        SystemEntry input = system("input", update, "<move");
        phases.register(PhaseDefinition.tree(Phase.of("test.Frame"), Phases.UPDATE, Phases.RENDER));
        Schedule schedule = Schedule.compile(phases, List.of(draw, move, input));
        assertEquals(List.of(input, move), List.of(schedule.systems(update)));
        assertEquals(List.of(draw), List.of(schedule.systems(render)));
        assertEquals(0, schedule.systems(phases.requireLeaf(Phases.LAST)).length);
        for (PhaseRegistry.Node node : phases.inPositionOrder()) { // every registered phase, trees included
            assertEquals(node.id() == update ? 2 : node.id() == render ? 1 : 0, schedule.systems(node.id()).length);
        }

        SystemEntry r1 = system("r1", render, "<r2");
        SystemEntry r2 = system("r2", render, "<r1");
        SystemEntry f1 = system("f1", phases.requireLeaf(Phases.FIRST), "<f2");
        SystemEntry f2 = system("f2", phases.requireLeaf(Phases.FIRST), "<f1");
        ScheduleCycleException cycle =
                assertThrows(ScheduleCycleException.class, () -> Schedule.compile(phases, List.of(r1, r2, f1, f2)));
        assertEquals(Phases.FIRST, cycle.phase(), "First comes before Render in the registry");
    }

    @Test
    void randomConstraintGraphsYieldValidOrders() {
        long seed = 424242L;
        System.out.println("ScheduleTest.randomConstraintGraphsYieldValidOrders seed=" + seed);
        Random random = new Random(seed);
        for (int round = 0; round < 300; round++) {
            int count = 1 + random.nextInt(12);
            // edges only from lower to higher rank of a hidden permutation: always acyclic
            List<Integer> rank = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                rank.add(i);
            }
            Collections.shuffle(rank, random);
            Map<String, List<String>> mustPrecede = new HashMap<>();
            List<SystemEntry> systems = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                List<String> constraints = new ArrayList<>();
                for (int j = 0; j < count; j++) {
                    if (i != j && random.nextInt(4) == 0) {
                        boolean iFirst = rank.get(i) < rank.get(j);
                        boolean stateOnI = random.nextBoolean();
                        if (stateOnI) {
                            constraints.add((iFirst ? "<" : ">") + "s" + j);
                        } else {
                            continue; // the other side states it (or not) in its own loop
                        }
                        mustPrecede.computeIfAbsent(iFirst ? "s" + i : "s" + j, k -> new ArrayList<>())
                                .add(iFirst ? "s" + j : "s" + i);
                    }
                }
                systems.add(system("s" + i, constraints.toArray(String[]::new)));
            }
            List<String> order = order(systems.toArray(SystemEntry[]::new));
            assertEquals(count, order.size(), "seed=" + seed + " round=" + round);
            for (Map.Entry<String, List<String>> edge : mustPrecede.entrySet()) {
                for (String later : edge.getValue()) {
                    assertTrue(order.indexOf(edge.getKey()) < order.indexOf(later),
                            "seed=" + seed + " round=" + round + ": " + edge.getKey() + " before " + later + " in "
                                    + order);
                }
            }
            // greedy check: each emitted system is the lowest-registered one whose predecessors are all emitted
            List<String> emitted = new ArrayList<>();
            for (String next : order) {
                for (int i = 0; i < count; i++) {
                    String candidate = "s" + i;
                    if (emitted.contains(candidate)) {
                        continue;
                    }
                    boolean ready = mustPrecede.entrySet().stream().noneMatch(
                            e -> e.getValue().contains(candidate) && !emitted.contains(e.getKey()));
                    if (ready) {
                        assertEquals(candidate, next, "seed=" + seed + " round=" + round + " order=" + order);
                        break;
                    }
                }
                emitted.add(next);
            }
        }
    }
}
