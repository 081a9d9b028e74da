package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.systems.BuiltinSystems;
import dev.jtecs.builtin.TTL;
import dev.jtecs.kernels.vector.VectorLifetimeOps;
import dev.jtecs.schedule.Phases;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The kernel TTL body against the builtin one: the same lifetimes end in the same steps with the same bits left
 * in the survivors, the despawns stay staged until the phase barrier, and it serves one world; both
 * implementations.
 */
class LifetimeSystemTest {
    static final LifetimeOps[] BOTH = {VectorLifetimeOps.INSTANCE, LifetimeOps.SCALAR};
    static final double STEP = 1.0 / 60;

    @Test
    void endsTheSameLifetimesInTheSameStepsAsTheBuiltinBody() {
        for (LifetimeOps ops : BOTH) {
            try (World builtin = World.create(); World kernel = World.create()) {
                assertTrue(kernel.replaceSystemBody(BuiltinSystems.TTL, new LifetimeSystem(ops)));
                List<Long> ids = new ArrayList<>();
                for (int i = 0; i < 400; i++) {
                    double seconds = i % 3 == 0 ? (i % 50) * STEP : i * 0.00191;
                    TTL ttl = new TTL(seconds);
                    long a = builtin.spawn(TTL.COMPONENT.of(ttl), i % 2 == 0 ? TwinScene.MARK : TwinScene.BARE);
                    long b = kernel.spawn(TTL.COMPONENT.of(ttl), i % 2 == 0 ? TwinScene.MARK : TwinScene.BARE);
                    assertEquals(a, b);
                    ids.add(a);
                }
                for (int step = 0; step < 55; step++) {
                    builtin.runPhase(Phases.FIXED_POST_UPDATE, STEP);
                    kernel.runPhase(Phases.FIXED_POST_UPDATE, STEP);
                    for (long id : ids) {
                        String at = ops.mode() + " step=" + step + " entity " + id;
                        assertEquals(builtin.isAlive(id), kernel.isAlive(id), at);
                        if (builtin.isAlive(id)) {
                            assertEquals(TwinScene.bits(builtin.get(id, TTL.COMPONENT)),
                                    TwinScene.bits(kernel.get(id, TTL.COMPONENT)), at);
                        }
                    }
                    TwinScene.assertSameLists(TwinScene.archetypes(builtin), TwinScene.archetypes(kernel),
                            "TTL marks, step " + step);
                }
                assertEquals(0, kernel.entityCount(), "every lifetime ran out");
            }
        }
    }

    @Test
    void despawnsWaitForThePhaseBarrier() {
        try (World world = World.create()) {
            world.replaceSystemBody(BuiltinSystems.TTL, new LifetimeSystem());
            long spark = world.spawn(TTL.COMPONENT.of(new TTL(STEP)));
            List<Boolean> seen = new ArrayList<>();
            world.addSystem(SystemConfig.named("test.Later").phase(Phases.FIXED_POST_UPDATE)
                    .after(BuiltinSystems.TTL).run((dt, w) -> seen.add(w.isAlive(spark))));
            world.update(STEP);
            assertEquals(List.of(true), seen, "a later system of the phase still sees it");
            assertEquals(false, world.isAlive(spark), "published at the barrier");
        }
    }

    @Test
    void servesOneWorld() {
        try (World first = World.create(); World second = World.create()) {
            LifetimeSystem body = new LifetimeSystem(LifetimeOps.SCALAR);
            body.run(STEP, first);
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> body.run(STEP, second));
            assertTrue(refused.getMessage().contains("LifetimeSystem/SCALAR"), refused.getMessage());
        }
    }
}
