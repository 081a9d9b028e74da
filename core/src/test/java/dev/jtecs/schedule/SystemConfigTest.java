package dev.jtecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SystemConfigTest {
    private static final SystemBody BODY = (dt, world) -> {};

    @Test
    void defaultsAreUpdateNoConstraintsNoBarriers() {
        SystemConfig config = SystemConfig.named("game.Move");
        assertEquals("game.Move", config.name());
        assertEquals(Phases.UPDATE, config.phase());
        assertNull(config.body());
        assertNull(config.runIf());
        assertEquals(List.of(), config.before());
        assertEquals(List.of(), config.after());
        assertFalse(config.commitsBefore());
        assertFalse(config.commitsAfter());
        assertNull(SystemConfig.unnamed().name());
    }

    @Test
    void everyChangeIsACopy() {
        SystemConfig base = SystemConfig.named("s");
        RunIf gate = RunIf.every(1);
        SystemConfig full = base.phase(Phases.RENDER).run(BODY).runIf(gate).before("a").before("b", "c").after("d")
                .commitBefore().commitAfter();
        assertEquals(Phases.RENDER, full.phase());
        assertSame(BODY, full.body());
        assertSame(gate, full.runIf());
        assertEquals(List.of("a", "b", "c"), full.before());
        assertEquals(List.of("d"), full.after());
        assertTrue(full.commitsBefore());
        assertTrue(full.commitsAfter());
        assertEquals(Phases.UPDATE, base.phase());
        assertEquals(List.of(), base.before());
        assertFalse(base.commitsAfter());
        assertNull(full.runIf(null).runIf());
        assertThrows(UnsupportedOperationException.class, () -> full.before().add("x"));
    }

    @Test
    void badInputIsRefused() {
        IllegalArgumentException blank = assertThrows(IllegalArgumentException.class, () -> SystemConfig.named(""));
        assertEquals("a system name must not be blank, got \"\"", blank.getMessage());
        assertThrows(NullPointerException.class, () -> SystemConfig.named(null));
        assertThrows(NullPointerException.class, () -> SystemConfig.unnamed().phase(null));
        assertThrows(NullPointerException.class, () -> SystemConfig.unnamed().run(null));
        assertThrows(NullPointerException.class, () -> SystemConfig.unnamed().before("a", null));
        assertThrows(NullPointerException.class, () -> SystemConfig.unnamed().after((String[]) null));
    }

    @Test
    void toStringNamesEverySettingAndLeavesOutTheOnesNotMade() {
        assertEquals("SystemConfig[<unnamed> in " + Phases.UPDATE + ", before=[], after=[]]",
                SystemConfig.unnamed().toString());
        SystemConfig full = SystemConfig.named("s").phase(Phases.LAST).before("a").after("b", "c").commitBefore()
                .commitAfter().runIf(RunIf.every(1)).run(BODY);
        assertEquals("SystemConfig[s in " + Phases.LAST + ", before=[a], after=[b, c], commitBefore, commitAfter, "
                + "runIf]", full.toString());
        assertEquals("SystemConfig[s in " + Phases.UPDATE + ", before=[], after=[], commitAfter]",
                SystemConfig.named("s").commitAfter().toString());
    }

    @Test
    void aParallelConfigKeepsItsBodyQuerySetsAndEveryOtherSetting() {
        dev.jtecs.component.TagComponent a = dev.jtecs.component.Components.tag("test.config.A");
        dev.jtecs.component.TagComponent b = dev.jtecs.component.Components.tag("test.config.B");
        ParallelBody parallel = (dt, archetypes, commands) -> {};
        SystemConfig config = SystemConfig.named("p").reads(a).writes(b).parallel(null, parallel).reads(a)
                .phase(Phases.LAST).after("x").commitAfter();
        assertSame(parallel, config.parallelBody());
        assertNull(config.body());
        assertEquals(List.of(a), config.reads(), "declared once");
        assertEquals(List.of(b), config.writes());
        assertEquals(Phases.LAST, config.phase());
        assertTrue(config.commitsAfter());
        assertTrue(config.toString().contains("parallel reads=[test.config.A] writes=[test.config.B]"));
        SystemConfig sequential = config.run(BODY);
        assertNull(sequential.parallelBody(), "run replaces the parallel body");
        assertThrows(NullPointerException.class, () -> config.reads((dev.jtecs.component.Component<?>) null));
        assertThrows(NullPointerException.class, () -> config.parallel(null, null));
    }
}
