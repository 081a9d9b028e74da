package dev.jtecs.bench.frame;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.VELOCITY;
import static dev.jtecs.bench.particles.Particles.VX;
import static dev.jtecs.bench.particles.Particles.X;
import static dev.jtecs.bench.particles.Particles.Y;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.jtecs.bench.particles.Particles.Position;
import dev.jtecs.bench.particles.Particles.Velocity;
import dev.jtecs.entity.Entity;
import dev.jtecs.world.World;
import java.util.List;
import org.junit.jupiter.api.Test;

class StateChecksumTest {
    private static final List<dev.jtecs.component.FieldHandle> FIELDS = List.of(X, Y, VX);

    private static long build(int[] order, float changed) {
        try (World world = World.create()) {
            for (int i : order) {
                long id = Entity.pack(i + 1, 0);
                if (i % 2 == 0) {
                    world.spawnAt(id, POSITION.of(new Position(i == 3 ? changed : i, -i)));
                } else {
                    world.spawnAt(id, POSITION.of(new Position(i == 3 ? changed : i, -i)),
                            VELOCITY.of(new Velocity(i, i)));
                }
            }
            world.spawn(); // no listed component: not part of the fingerprint
            return StateChecksum.of(world, FIELDS);
        }
    }

    @Test
    void dependsOnIdsAndValuesNotOnRowOrder() {
        long forward = build(new int[] {0, 1, 2, 3, 4, 5}, 3f);
        long backward = build(new int[] {5, 4, 3, 2, 1, 0}, 3f);
        assertEquals(forward, backward);
        assertNotEquals(forward, build(new int[] {0, 1, 2, 3, 4, 5}, Math.nextUp(3f)), "one bit of one value");
        assertNotEquals(forward, build(new int[] {0, 1, 2, 3, 4}, 3f), "one entity fewer");
    }

    @Test
    void dependsOnTheFieldOrderItIsGiven() {
        try (World world = World.create()) {
            world.spawn(POSITION.of(new Position(1, 2)), VELOCITY.of(new Velocity(3, 4)));
            assertNotEquals(StateChecksum.of(world, List.of(X, Y)), StateChecksum.of(world, List.of(Y, X)));
            assertEquals(StateChecksum.of(world, List.of(X, Y)), StateChecksum.of(world, List.of(X, Y)));
        }
    }

    @Test
    void printsSixteenHexDigits() {
        assertEquals("000000000000002a", StateChecksum.hex(42));
        assertEquals("ffffffffffffffff", StateChecksum.hex(-1));
    }
}
