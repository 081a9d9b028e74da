package dev.jtecs.bench.particles;

import static dev.jtecs.bench.particles.Particles.LIFETIME;
import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.REMAINING;
import static dev.jtecs.bench.particles.Particles.VELOCITY;
import static dev.jtecs.bench.particles.Particles.VX;
import static dev.jtecs.bench.particles.Particles.VY;
import static dev.jtecs.bench.particles.Particles.X;
import static dev.jtecs.bench.particles.Particles.Y;

import dev.jtecs.kernels.ParticleKernels;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.LongColumn;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * The first version of the particle workload: spawn N particles, then per frame integrate positions and count
 * lifetimes down with vector kernels, and replace every expired particle (despawn + spawn, one commit).
 *
 * <p>Deterministic: the same entity count and seed give the same world, frame after frame.
 */
public final class ParticleSimulation implements AutoCloseable {
    /** The fixed frame step, seconds. */
    public static final float DT = 1f / 60f;

    private final World world;
    private final SplittableRandom random;
    private final int entities;
    private int[] expiredRows = new int[1024];
    private long[] expiredIds = new long[1024];
    private long spawned;
    private long expired;
    private final ArchetypeVisitor visitor = new ArchetypeVisitor();

    public ParticleSimulation(int entities, long seed) {
        if (entities < 1) {
            throw new IllegalArgumentException("entities=" + entities + " must be at least 1");
        }
        ParticleKernels.warmUp();
        this.entities = entities;
        this.random = new SplittableRandom(seed);
        this.world = World.create(WorldConfig.defaults().maxEntities(Math.max(entities * 2, 1024)));
    }

    public World world() {
        return world;
    }

    /** Spawns the initial particles and publishes them. */
    public void populate() {
        world.defer();
        for (int i = 0; i < entities; i++) {
            spawnParticle();
        }
        world.commit();
    }

    private void spawnParticle() {
        float angle = (float) (random.nextDouble() * Math.PI * 2);
        float speed = (float) (1 + random.nextDouble() * 9);
        world.spawn(
                POSITION.of(new Particles.Position(0f, 0f)),
                VELOCITY.of(new Particles.Velocity((float) Math.cos(angle) * speed, (float) Math.sin(angle) * speed)),
                LIFETIME.of(new Particles.Lifetime((float) (0.5 + random.nextDouble() * 9.5))));
        spawned++;
    }

    /** Runs one frame: integrate, count down, replace expired particles, commit. */
    public void frame() {
        visitor.expiredCount = 0;
        world.forEachArchetype(visitor);
        int expiredNow = visitor.expiredCount;
        world.defer();
        for (int i = 0; i < expiredNow; i++) {
            world.despawn(expiredIds[i]);
            spawnParticle();
        }
        expired += expiredNow;
        world.commit();
    }

    public long spawned() {
        return spawned;
    }

    public long expired() {
        return expired;
    }

    public int liveCount() {
        return world.entityCount();
    }

    @Override
    public void close() {
        world.close();
    }

    /** Runs the kernels on one archetype and gathers the ids of expired rows. */
    private final class ArchetypeVisitor implements Consumer<Archetype> {
        int expiredCount;

        @Override
        public void accept(Archetype archetype) {
            int count = archetype.count();
            if (count == 0 || !archetype.has(POSITION) || !archetype.has(VELOCITY) || !archetype.has(LIFETIME)) {
                return;
            }
            ParticleKernels.integrate2d(archetype.getMut(X).segment(), archetype.getMut(Y).segment(),
                    archetype.get(VX).segment(), archetype.get(VY).segment(), count, DT);
            if (expiredRows.length < count) {
                expiredRows = new int[count];
            }
            int n = ParticleKernels.countdown(archetype.getMut(REMAINING).segment(), count, DT, expiredRows);
            if (expiredIds.length < expiredCount + n) {
                expiredIds = Arrays.copyOf(expiredIds, Math.max(expiredIds.length * 2, expiredCount + n));
            }
            LongColumn ids = archetype.entities();
            for (int i = 0; i < n; i++) {
                expiredIds[expiredCount++] = ids.get(expiredRows[i]);
            }
        }
    }
}
