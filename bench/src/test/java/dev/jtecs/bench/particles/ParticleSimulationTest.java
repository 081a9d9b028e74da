package dev.jtecs.bench.particles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.storage.Archetype;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ParticleSimulationTest {
    private static List<Float> positions(ParticleSimulation simulation) {
        List<Float> out = new ArrayList<>();
        simulation.world().forEachArchetype((Archetype archetype) -> {
            if (archetype.has(Particles.POSITION)) {
                for (int row = 0; row < archetype.count(); row++) {
                    out.add(archetype.get(Particles.X).get(row));
                    out.add(archetype.get(Particles.Y).get(row));
                }
            }
        });
        return out;
    }

    @Test
    void keepsThePopulationConstantWhileParticlesExpire() {
        try (ParticleSimulation simulation = new ParticleSimulation(2000, 5)) {
            simulation.populate();
            for (int frame = 0; frame < 120; frame++) {
                simulation.frame();
                assertEquals(2000, simulation.liveCount());
            }
            assertTrue(simulation.expired() > 0, "lifetimes of 0.5..10 s expire within 2 s of frames");
            assertEquals(2000 + simulation.expired(), simulation.spawned());
        }
    }

    @Test
    void particlesMoveByVelocityTimesDt() {
        try (ParticleSimulation simulation = new ParticleSimulation(100, 1)) {
            simulation.populate();
            long id = simulation.world().archetypeOf(1L).entity(0);
            Particles.Velocity v = simulation.world().get(id, Particles.VELOCITY);
            simulation.frame();
            Particles.Position p = simulation.world().get(id, Particles.POSITION);
            assertEquals(0f + v.x() * ParticleSimulation.DT, p.x());
            assertEquals(0f + v.y() * ParticleSimulation.DT, p.y());
        }
    }

    @Test
    void sameSeedGivesTheSameWorld() {
        try (ParticleSimulation a = new ParticleSimulation(500, 42);
                ParticleSimulation b = new ParticleSimulation(500, 42)) {
            a.populate();
            b.populate();
            for (int frame = 0; frame < 90; frame++) {
                a.frame();
                b.frame();
            }
            assertEquals(positions(a), positions(b));
            assertEquals(a.expired(), b.expired());
        }
    }

    @Test
    void rejectsEmptyPopulations() {
        assertThrows(IllegalArgumentException.class, () -> new ParticleSimulation(0, 1));
    }
}
