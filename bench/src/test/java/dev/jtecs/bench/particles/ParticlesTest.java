package dev.jtecs.bench.particles;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jtecs.world.World;
import org.junit.jupiter.api.Test;

class ParticlesTest {
    @Test
    void positionAndVelocityAreNativeColumnsWithFieldHandles() {
        try (World world = World.create()) {
            long id = world.spawn(Particles.POSITION.of(new Particles.Position(1, 2)),
                    Particles.VELOCITY.of(new Particles.Velocity(3, 4)));
            var archetype = world.archetypeOf(id);
            assertEquals(1f, archetype.get(Particles.X).get(0));
            assertEquals(2f, archetype.get(Particles.Y).get(0));
            assertEquals(3f, archetype.get(Particles.VX).get(0));
            assertEquals(4f, archetype.get(Particles.VY).get(0));
        }
    }
}
