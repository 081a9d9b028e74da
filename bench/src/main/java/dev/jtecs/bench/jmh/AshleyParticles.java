package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.ParticleRules.DAMPING_FACTOR;
import static dev.jtecs.bench.particles.ParticleRules.DT;
import static dev.jtecs.bench.particles.ParticleRules.FIXED_STEP;
import static dev.jtecs.bench.particles.ParticleRules.GRAVITY_STEP;
import static dev.jtecs.bench.particles.ParticleRules.SPENT_LIMIT;

import com.badlogic.ashley.core.ComponentMapper;
import com.badlogic.ashley.core.Entity;
import com.badlogic.ashley.core.EntitySystem;
import com.badlogic.ashley.core.Family;
import com.badlogic.ashley.core.PooledEngine;
import com.badlogic.ashley.systems.IteratingSystem;
import com.badlogic.ashley.utils.ImmutableArray;
import dev.jtecs.bench.particles.ParticleEmitter;
import dev.jtecs.bench.particles.ParticleSimulation;
import dev.jtecs.bench.particles.ParticleSnapshot;
import dev.jtecs.bench.peers.PeerComponents.AshleyLifetime;
import dev.jtecs.bench.peers.PeerComponents.AshleyPosition;
import dev.jtecs.bench.peers.PeerComponents.AshleyVelocity;
import dev.jtecs.random.RandomStreams;

/**
 * The {@code particles} frame on Ashley, as its documentation writes one: a {@code PooledEngine} (Ashley's
 * advice for entities that come and go often, like particles: entities and components are recycled) with
 * {@code IteratingSystem}s over families and component mappers, one {@code engine.update(dt)} per frame. The
 * countdown system removes spent entities ({@code removeEntity}, applied when the system finishes); the respawn
 * system creates as many from the pools.
 *
 * <p>Fairness: Ashley's own frame machinery on the calling thread, as jtecs's frame is {@code world.update}. The
 * extraction writes heap arrays, the cheapest target a JVM peer has (jtecs writes off-heap). Ashley takes a
 * removed entity out of the engine's and every family's array by a linear search and a shift, so the 1% turnover
 * costs time proportional to N for each removal: measured single-shot on the shared 2-core machine, a frame of
 * 1,000,000 particles took about 30 s (Artemis-odb about 0.2 s). That is Ashley's cost, not the harness's: there
 * is no other removal path.
 */
final class AshleyParticles implements ParticleFrame {
    private static final ComponentMapper<AshleyPosition> POSITIONS = ComponentMapper.getFor(AshleyPosition.class);
    private static final ComponentMapper<AshleyVelocity> VELOCITIES = ComponentMapper.getFor(AshleyVelocity.class);
    private static final ComponentMapper<AshleyLifetime> LIVES = ComponentMapper.getFor(AshleyLifetime.class);

    private final PooledEngine engine = new PooledEngine();
    private final ParticleEmitter emitter;
    private final Lifetimes lifetimes = new Lifetimes(3);
    private final Extract extract;

    AshleyParticles(int entities, int seed) {
        emitter = new ParticleEmitter(new RandomStreams(seed).stream(ParticleSimulation.RANDOM_STREAM));
        extract = new Extract(5, entities);
        engine.addSystem(new Gravity(0));
        engine.addSystem(new Damping(1));
        engine.addSystem(new Integrate(2));
        engine.addSystem(lifetimes);
        engine.addSystem(new Respawn(4));
        engine.addSystem(extract);
        emitter.initial(entities);
        create(entities);
    }

    /** Creates the emitter's last {@code count} particles from the pools. */
    private void create(int count) {
        for (int i = 0; i < count; i++) {
            Entity entity = engine.createEntity();
            AshleyPosition p = engine.createComponent(AshleyPosition.class);
            p.x = emitter.x()[i];
            p.y = emitter.y()[i];
            AshleyVelocity v = engine.createComponent(AshleyVelocity.class);
            v.x = emitter.vx()[i];
            v.y = emitter.vy()[i];
            AshleyLifetime life = engine.createComponent(AshleyLifetime.class);
            life.startingTime = emitter.lifetime()[i];
            life.remaining = emitter.lifetime()[i];
            entity.add(p).add(v).add(life);
            engine.addEntity(entity);
        }
    }

    @Override
    public void frame() {
        engine.update(DT);
    }

    @Override
    public int liveCount() {
        return engine.getEntities().size();
    }

    @Override
    public long expired() {
        return lifetimes.expired;
    }

    @Override
    public long extractedBytes() {
        return extract.bytes;
    }

    @Override
    public ParticleSnapshot snapshot() {
        ParticleSnapshot snapshot = new ParticleSnapshot();
        ImmutableArray<Entity> all = engine.getEntitiesFor(
                Family.all(AshleyPosition.class, AshleyVelocity.class, AshleyLifetime.class).get());
        for (int i = 0; i < all.size(); i++) {
            Entity e = all.get(i);
            snapshot.add(POSITIONS.get(e).x, POSITIONS.get(e).y, VELOCITIES.get(e).x, VELOCITIES.get(e).y,
                    LIVES.get(e).startingTime, LIVES.get(e).remaining);
        }
        return snapshot.sorted();
    }

    @Override
    public void close() {
        engine.removeAllEntities();
        engine.clearPools();
    }

    /** {@code vy += g * dt}. */
    static final class Gravity extends IteratingSystem {
        Gravity(int priority) {
            super(Family.all(AshleyVelocity.class).get(), priority);
        }

        @Override
        protected void processEntity(Entity entity, float deltaTime) {
            VELOCITIES.get(entity).y += GRAVITY_STEP;
        }
    }

    /** {@code v *= pow(retain, dt)}. */
    static final class Damping extends IteratingSystem {
        Damping(int priority) {
            super(Family.all(AshleyVelocity.class).get(), priority);
        }

        @Override
        protected void processEntity(Entity entity, float deltaTime) {
            AshleyVelocity v = VELOCITIES.get(entity);
            v.x *= DAMPING_FACTOR;
            v.y *= DAMPING_FACTOR;
        }
    }

    /** {@code pos += v * dt} (with the rules' dt, which is the frame's). */
    static final class Integrate extends IteratingSystem {
        Integrate(int priority) {
            super(Family.all(AshleyPosition.class, AshleyVelocity.class).get(), priority);
        }

        @Override
        protected void processEntity(Entity entity, float deltaTime) {
            AshleyPosition p = POSITIONS.get(entity);
            AshleyVelocity v = VELOCITIES.get(entity);
            p.x += v.x * DT;
            p.y += v.y * DT;
        }
    }

    /** {@code remaining -= step}; spent entities are removed (applied when the system finishes). */
    final class Lifetimes extends IteratingSystem {
        int expiredThisFrame;
        long expired;

        Lifetimes(int priority) {
            super(Family.all(AshleyLifetime.class).get(), priority);
        }

        @Override
        public void update(float deltaTime) {
            expiredThisFrame = 0;
            super.update(deltaTime);
            expired += expiredThisFrame;
        }

        @Override
        protected void processEntity(Entity entity, float deltaTime) {
            AshleyLifetime life = LIVES.get(entity);
            life.remaining -= FIXED_STEP;
            if (life.remaining <= SPENT_LIMIT) {
                engine.removeEntity(entity);
                expiredThisFrame++;
            }
        }
    }

    /** Creates as many particles as expired, in one burst. */
    final class Respawn extends EntitySystem {
        Respawn(int priority) {
            super(priority);
        }

        @Override
        public void update(float deltaTime) {
            int count = lifetimes.expiredThisFrame;
            if (count > 0) {
                emitter.burst(count);
                create(count);
            }
        }
    }

    /** Every particle moved: x, y and lifetime of each go to the output. */
    static final class Extract extends IteratingSystem {
        private float[] outX;
        private float[] outY;
        private double[] outStart;
        private double[] outRemaining;
        private int next;
        long bytes;

        Extract(int priority, int capacity) {
            super(Family.all(AshleyPosition.class, AshleyLifetime.class).get(), priority);
            allocate(capacity);
        }

        private void allocate(int capacity) {
            outX = new float[capacity];
            outY = new float[capacity];
            outStart = new double[capacity];
            outRemaining = new double[capacity];
        }

        @Override
        public void update(float deltaTime) {
            next = 0;
            super.update(deltaTime);
            bytes = (long) next * (2 * Float.BYTES + 2 * Double.BYTES);
        }

        @Override
        protected void processEntity(Entity entity, float deltaTime) {
            if (next == outX.length) {
                allocate(outX.length * 2);
            }
            AshleyPosition p = POSITIONS.get(entity);
            AshleyLifetime life = LIVES.get(entity);
            outX[next] = p.x;
            outY[next] = p.y;
            outStart[next] = life.startingTime;
            outRemaining[next] = life.remaining;
            next++;
        }
    }
}
