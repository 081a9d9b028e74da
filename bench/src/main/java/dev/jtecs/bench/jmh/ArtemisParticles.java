package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.ParticleRules.DAMPING_FACTOR;
import static dev.jtecs.bench.particles.ParticleRules.DT;
import static dev.jtecs.bench.particles.ParticleRules.FIXED_STEP;
import static dev.jtecs.bench.particles.ParticleRules.GRAVITY_STEP;
import static dev.jtecs.bench.particles.ParticleRules.SPENT_LIMIT;

import com.artemis.Aspect;
import com.artemis.BaseSystem;
import com.artemis.ComponentMapper;
import com.artemis.World;
import com.artemis.WorldConfigurationBuilder;
import com.artemis.systems.IteratingSystem;
import com.artemis.utils.IntBag;
import dev.jtecs.bench.particles.ParticleEmitter;
import dev.jtecs.bench.particles.ParticleSimulation;
import dev.jtecs.bench.particles.ParticleSnapshot;
import dev.jtecs.bench.peers.PeerComponents.ArtemisLifetime;
import dev.jtecs.bench.peers.PeerComponents.ArtemisPosition;
import dev.jtecs.bench.peers.PeerComponents.ArtemisVelocity;
import dev.jtecs.random.RandomStreams;

/**
 * The {@code particles} frame on Artemis-odb, as its documentation writes one: a {@code World} of systems
 * ({@code IteratingSystem}s over aspects, component mappers), one {@code world.process()} per frame. The countdown
 * system deletes spent entities with {@code world.delete} (Artemis applies it when the system finishes); the
 * respawn system creates as many with {@code world.create()} and mappers' {@code create}.
 *
 * <p>Fairness: this is Artemis's own frame machinery, as jtecs's frame is {@code world.update}; its systems run
 * on the calling thread, like jtecs's. Components are plain (not pooled) {@code Component}s, Artemis-odb's
 * default; the extraction writes heap arrays, the cheapest target a JVM peer has (jtecs writes off-heap).
 */
final class ArtemisParticles implements ParticleFrame {
    private final ParticleEmitter emitter;
    private final World world;
    private final Lifetimes lifetimes = new Lifetimes();
    private final Extract extract;
    private final ComponentMapper<ArtemisPosition> positions;
    private final ComponentMapper<ArtemisVelocity> velocities;
    private final ComponentMapper<ArtemisLifetime> lives;

    ArtemisParticles(int entities, int seed) {
        emitter = new ParticleEmitter(new RandomStreams(seed).stream(ParticleSimulation.RANDOM_STREAM));
        extract = new Extract(entities);
        world = new World(new WorldConfigurationBuilder()
                .with(new Gravity(), new Damping(), new Integrate(), lifetimes, new Respawn(), extract).build());
        positions = world.getMapper(ArtemisPosition.class);
        velocities = world.getMapper(ArtemisVelocity.class);
        lives = world.getMapper(ArtemisLifetime.class);
        emitter.initial(entities);
        create(world, entities); // subscriptions take them in at the start of the next process()
    }

    /** Creates the emitter's last {@code count} particles. */
    private void create(World w, int count) {
        for (int i = 0; i < count; i++) {
            int e = w.create();
            ArtemisPosition p = positions.create(e);
            p.x = emitter.x()[i];
            p.y = emitter.y()[i];
            ArtemisVelocity v = velocities.create(e);
            v.x = emitter.vx()[i];
            v.y = emitter.vy()[i];
            ArtemisLifetime life = lives.create(e);
            life.startingTime = emitter.lifetime()[i];
            life.remaining = emitter.lifetime()[i];
        }
    }

    @Override
    public void frame() {
        world.process();
    }

    @Override
    public int liveCount() {
        return world.getAspectSubscriptionManager().get(Aspect.all(ArtemisPosition.class)).getEntities().size();
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
        IntBag bag = world.getAspectSubscriptionManager()
                .get(Aspect.all(ArtemisPosition.class, ArtemisVelocity.class, ArtemisLifetime.class)).getEntities();
        for (int i = 0; i < bag.size(); i++) {
            int e = bag.get(i);
            snapshot.add(positions.get(e).x, positions.get(e).y, velocities.get(e).x, velocities.get(e).y,
                    lives.get(e).startingTime, lives.get(e).remaining);
        }
        return snapshot.sorted();
    }

    @Override
    public void close() {
        world.dispose();
    }

    /** {@code vy += g * dt}. */
    static final class Gravity extends IteratingSystem {
        private ComponentMapper<ArtemisVelocity> velocities;

        Gravity() {
            super(Aspect.all(ArtemisVelocity.class));
        }

        @Override
        protected void initialize() {
            velocities = world.getMapper(ArtemisVelocity.class);
        }

        @Override
        protected void process(int e) {
            velocities.get(e).y += GRAVITY_STEP;
        }
    }

    /** {@code v *= pow(retain, dt)}. */
    static final class Damping extends IteratingSystem {
        private ComponentMapper<ArtemisVelocity> velocities;

        Damping() {
            super(Aspect.all(ArtemisVelocity.class));
        }

        @Override
        protected void initialize() {
            velocities = world.getMapper(ArtemisVelocity.class);
        }

        @Override
        protected void process(int e) {
            ArtemisVelocity v = velocities.get(e);
            v.x *= DAMPING_FACTOR;
            v.y *= DAMPING_FACTOR;
        }
    }

    /** {@code pos += v * dt}. */
    static final class Integrate extends IteratingSystem {
        private ComponentMapper<ArtemisPosition> positions;
        private ComponentMapper<ArtemisVelocity> velocities;

        Integrate() {
            super(Aspect.all(ArtemisPosition.class, ArtemisVelocity.class));
        }

        @Override
        protected void initialize() {
            positions = world.getMapper(ArtemisPosition.class);
            velocities = world.getMapper(ArtemisVelocity.class);
        }

        @Override
        protected void process(int e) {
            ArtemisPosition p = positions.get(e);
            ArtemisVelocity v = velocities.get(e);
            p.x += v.x * DT;
            p.y += v.y * DT;
        }
    }

    /** {@code remaining -= step}; spent entities are deleted (applied when the system finishes). */
    static final class Lifetimes extends IteratingSystem {
        private ComponentMapper<ArtemisLifetime> lives;
        int expiredThisFrame;
        long expired;

        Lifetimes() {
            super(Aspect.all(ArtemisLifetime.class));
        }

        @Override
        protected void initialize() {
            lives = world.getMapper(ArtemisLifetime.class);
        }

        @Override
        protected void begin() {
            expiredThisFrame = 0;
        }

        @Override
        protected void process(int e) {
            ArtemisLifetime life = lives.get(e);
            life.remaining -= FIXED_STEP;
            if (life.remaining <= SPENT_LIMIT) {
                world.delete(e);
                expiredThisFrame++;
            }
        }

        @Override
        protected void end() {
            expired += expiredThisFrame;
        }
    }

    /** Creates as many particles as expired, in one burst. */
    final class Respawn extends BaseSystem {
        @Override
        protected void processSystem() {
            int count = lifetimes.expiredThisFrame;
            if (count > 0) {
                emitter.burst(count);
                create(world, count);
            }
        }
    }

    /** Every particle moved: x, y and lifetime of each go to the output. */
    static final class Extract extends IteratingSystem {
        private ComponentMapper<ArtemisPosition> positions;
        private ComponentMapper<ArtemisLifetime> lives;
        private float[] outX;
        private float[] outY;
        private double[] outStart;
        private double[] outRemaining;
        private int next;
        long bytes;

        Extract(int capacity) {
            super(Aspect.all(ArtemisPosition.class, ArtemisLifetime.class));
            allocate(capacity);
        }

        private void allocate(int capacity) {
            outX = new float[capacity];
            outY = new float[capacity];
            outStart = new double[capacity];
            outRemaining = new double[capacity];
        }

        @Override
        protected void initialize() {
            positions = world.getMapper(ArtemisPosition.class);
            lives = world.getMapper(ArtemisLifetime.class);
        }

        @Override
        protected void begin() {
            next = 0;
        }

        @Override
        protected void process(int e) {
            if (next == outX.length) {
                allocate(outX.length * 2);
            }
            ArtemisPosition p = positions.get(e);
            ArtemisLifetime life = lives.get(e);
            outX[next] = p.x;
            outY[next] = p.y;
            outStart[next] = life.startingTime;
            outRemaining[next] = life.remaining;
            next++;
        }

        @Override
        protected void end() {
            bytes = (long) next * (2 * Float.BYTES + 2 * Double.BYTES);
        }
    }
}
