package dev.jtecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PhaseGroupTest {
    @Test
    void groupsListTheirPhasesInRunOrder() {
        assertEquals(List.of(Phases.PRE_STARTUP, Phases.STARTUP, Phases.POST_STARTUP), PhaseGroup.STARTUP.phases());
        assertEquals(List.of(Phases.FIXED_PRE_UPDATE, Phases.FIXED_UPDATE, Phases.FIXED_POST_UPDATE),
                PhaseGroup.FIXED_UPDATE.phases());
        assertEquals(List.of(Phases.FIRST, Phases.PRE_UPDATE, Phases.UPDATE, Phases.POST_UPDATE, Phases.LAST),
                PhaseGroup.MAIN.phases());
        assertEquals(List.of(Phases.PRE_RENDER, Phases.RENDER, Phases.POST_RENDER), PhaseGroup.RENDER.phases());
        assertEquals(List.of(Phases.PRE_SHUTDOWN, Phases.SHUTDOWN, Phases.POST_SHUTDOWN),
                PhaseGroup.SHUTDOWN.phases());
        assertEquals(Phases.PREDEFINED, PhaseGroup.ALL.phases());
    }

    @Test
    void theGroupsPartitionThePredefinedPhases() {
        List<Phase> union = new ArrayList<>();
        for (PhaseGroup group : PhaseGroup.values()) {
            if (group != PhaseGroup.ALL) {
                union.addAll(group.phases());
            }
        }
        assertEquals(Phases.PREDEFINED.size(), union.size());
        assertEquals(Phases.PREDEFINED.stream().sorted(java.util.Comparator.comparing(Phase::name)).toList(),
                union.stream().sorted(java.util.Comparator.comparing(Phase::name)).toList());
    }
}
