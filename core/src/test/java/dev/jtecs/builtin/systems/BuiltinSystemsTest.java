package dev.jtecs.builtin.systems;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.schedule.Phases;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.schedule.SystemInfo;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import dev.jtecs.builtin.PreviousTransform2D;
import dev.jtecs.builtin.TTL;
import dev.jtecs.builtin.Transform2D;

class BuiltinSystemsTest {
    @Test
    void aNewWorldCarriesTheThreeSystemsInTheirPhases() {
        try (World world = World.create()) {
            assertEquals(List.of(
                    new SystemInfo("jtecs.SnapshotTransforms", Phases.FIXED_PRE_UPDATE, 0, true, false),
                    new SystemInfo("jtecs.TTL", Phases.FIXED_POST_UPDATE, 1, true, false),
                    new SystemInfo("jtecs.RelativeTransform2D", Phases.POST_UPDATE, 2, true, false)),
                    world.listSystems());
            assertEquals(List.of(BuiltinSystems.SNAPSHOT_TRANSFORMS, BuiltinSystems.TTL,
                    BuiltinSystems.RELATIVE_TRANSFORMS), BuiltinSystems.NAMES);
        }
    }

    @Test
    void theyLeadTheirPhasesAheadOfLaterSystems() {
        try (World world = World.create(WorldConfig.defaults().timestep(0.5))) {
            List<String> log = new ArrayList<>();
            long id = world.spawn(TTL.COMPONENT.of(new TTL(0.5)), PreviousTransform2D.COMPONENT);
            world.addSystem(SystemConfig.named("pre").phase(Phases.FIXED_PRE_UPDATE).run((dt, w) ->
                    log.add("pre sees previous.x=" + w.get(id, PreviousTransform2D.COMPONENT).x())));
            world.addSystem(SystemConfig.named("post").phase(Phases.FIXED_POST_UPDATE).run((dt, w) ->
                    log.add("post sees remaining=" + w.get(id, TTL.COMPONENT).remaining())));
            world.addSystem(SystemConfig.named("move").phase(Phases.FIXED_UPDATE).run((dt, w) ->
                    w.set(id, Transform2D.COMPONENT.of(Transform2D.at(4, 0)))));
            world.set(id, Transform2D.COMPONENT.of(Transform2D.at(3, 0)));
            world.update(0.5);
            assertEquals(List.of("pre sees previous.x=3.0", "post sees remaining=0.0"), log);
            assertFalse(world.isAlive(id), "spent in its only step");
        }
    }

    @Test
    void removedSystemsCanBeRegisteredAgainElsewhere() {
        try (World world = World.create()) {
            assertEquals(3, BuiltinSystems.remove(world));
            assertEquals(List.of(), world.listSystems());
            assertEquals(0, BuiltinSystems.remove(world));
            world.addSystem(BuiltinSystems.ttl().phase(Phases.FIXED_UPDATE));
            assertEquals(List.of(new SystemInfo("jtecs.TTL", Phases.FIXED_UPDATE, 0, true, false)),
                    world.listSystems());
            world.removeSystem(BuiltinSystems.TTL);
            BuiltinSystems.install(world);
            assertEquals(BuiltinSystems.NAMES, world.listSystems().stream().map(SystemInfo::name).toList());
            assertThrows(IllegalArgumentException.class, () -> BuiltinSystems.install(world), "names taken");
        }
    }

    @Test
    void disablingOneStopsItsWork() {
        try (World world = World.create(WorldConfig.defaults().timestep(0.25))) {
            long id = world.spawn(TTL.COMPONENT.of(new TTL(0.25)));
            assertTrue(world.setSystemEnabled(BuiltinSystems.TTL, false));
            world.update(1);
            assertEquals(new TTL(0.25), world.get(id, TTL.COMPONENT));
            world.setSystemEnabled(BuiltinSystems.TTL, true);
            world.update(0.25);
            assertFalse(world.isAlive(id));
        }
    }

    @Test
    void eachBodyServesOneWorld() {
        SystemConfig shared = BuiltinSystems.ttl();
        try (World first = World.create(); World second = World.create()) {
            BuiltinSystems.remove(first);
            BuiltinSystems.remove(second);
            first.addSystem(shared);
            second.addSystem(shared);
            first.update(1);
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> second.update(1));
            assertTrue(refused.getMessage().contains("BuiltinSystems.ttl()"), refused.getMessage());
            second.removeSystem(BuiltinSystems.TTL);
            second.addSystem(BuiltinSystems.ttl()); // a fresh body
            second.update(1);
        }
    }
}
