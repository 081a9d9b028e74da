package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.ParticleRules.DAMPING_FACTOR;
import static dev.jtecs.bench.particles.ParticleRules.DT;
import static dev.jtecs.bench.particles.ParticleRules.FIXED_STEP;
import static dev.jtecs.bench.particles.ParticleRules.GRAVITY_STEP;
import static dev.jtecs.bench.particles.ParticleRules.SPENT_LIMIT;

import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.dominion.ecs.api.Results;
import dev.jtecs.bench.particles.ParticleEmitter;
import dev.jtecs.bench.particles.ParticleSimulation;
import dev.jtecs.bench.particles.ParticleSnapshot;
import dev.jtecs.bench.peers.PeerComponents.DominionLifetime;
import dev.jtecs.bench.peers.PeerComponents.DominionPosition;
import dev.jtecs.bench.peers.PeerComponents.DominionVelocity;
import dev.jtecs.random.RandomStreams;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The {@code particles} frame on Dominion, as its documentation writes systems: one pass of
 * {@code findEntitiesWith(...)} per step, components updated in place, entities created with
 * {@code createEntity(components...)} and removed with {@code deleteEntity}.
 *
 * <p>Fairness: the steps run as plain method calls in order, not through Dominion's {@code Scheduler}, whose
 * {@code tick()} hands the systems to a thread pool (a thread hop per frame that jtecs does not pay, and
 * parallelism it does not use). Expired entities are collected during the countdown pass and deleted after it,
 * as deleting inside a results iteration is not documented as safe. The extraction writes into heap arrays, the
 * cheapest target a JVM peer has (an upload would need one more copy); jtecs writes an off-heap buffer.
 */
final class DominionParticles implements ParticleFrame {
    private final Dominion dominion = dev.jtecs.bench.peers.DominionWorlds.create();
    private final ParticleEmitter emitter;
    private final List<Entity> spent = new ArrayList<>();
    private float[] outX;
    private float[] outY;
    private double[] outStart;
    private double[] outRemaining;
    private long expired;
    private long extractedBytes;

    DominionParticles(int entities, int seed) {
        emitter = new ParticleEmitter(new RandomStreams(seed).stream(ParticleSimulation.RANDOM_STREAM));
        emitter.initial(entities);
        create(entities);
        allocateOutput(entities);
    }

    private void create(int count) {
        for (int i = 0; i < count; i++) {
            dominion.createEntity(new DominionPosition(emitter.x()[i], emitter.y()[i]),
                    new DominionVelocity(emitter.vx()[i], emitter.vy()[i]),
                    new DominionLifetime(emitter.lifetime()[i], emitter.lifetime()[i]));
        }
    }

    private void allocateOutput(int capacity) {
        outX = new float[capacity];
        outY = new float[capacity];
        outStart = new double[capacity];
        outRemaining = new double[capacity];
    }

    @Override
    public void frame() {
        for (var r : dominion.findEntitiesWith(DominionVelocity.class)) {
            r.comp().y += GRAVITY_STEP;
        }
        for (var r : dominion.findEntitiesWith(DominionVelocity.class)) {
            DominionVelocity v = r.comp();
            v.x *= DAMPING_FACTOR;
            v.y *= DAMPING_FACTOR;
        }
        for (var r : dominion.findEntitiesWith(DominionPosition.class, DominionVelocity.class)) {
            DominionPosition p = r.comp1();
            DominionVelocity v = r.comp2();
            p.x += v.x * DT;
            p.y += v.y * DT;
        }
        for (var r : dominion.findEntitiesWith(DominionLifetime.class)) {
            DominionLifetime life = r.comp();
            life.remaining -= FIXED_STEP;
            if (life.remaining <= SPENT_LIMIT) {
                spent.add(r.entity());
            }
        }
        int count = spent.size();
        for (int i = 0; i < count; i++) {
            dominion.deleteEntity(spent.get(i));
        }
        spent.clear();
        expired += count;
        if (count > 0) {
            emitter.burst(count);
            create(count);
        }
        extract();
    }

    /** Every particle moved, so every particle's x, y and lifetime go to the output. */
    private void extract() {
        int i = 0;
        Results<Results.With2<DominionPosition, DominionLifetime>> all =
                dominion.findEntitiesWith(DominionPosition.class, DominionLifetime.class);
        for (Iterator<Results.With2<DominionPosition, DominionLifetime>> it = all.iterator(); it.hasNext(); i++) {
            var r = it.next();
            if (i == outX.length) {
                allocateOutput(outX.length * 2);
            }
            outX[i] = r.comp1().x;
            outY[i] = r.comp1().y;
            outStart[i] = r.comp2().startingTime;
            outRemaining[i] = r.comp2().remaining;
        }
        extractedBytes = (long) i * (2 * Float.BYTES + 2 * Double.BYTES);
    }

    @Override
    public int liveCount() {
        int n = 0;
        for (var ignored : dominion.findEntitiesWith(DominionPosition.class)) {
            n++;
        }
        return n;
    }

    @Override
    public long expired() {
        return expired;
    }

    @Override
    public long extractedBytes() {
        return extractedBytes;
    }

    @Override
    public ParticleSnapshot snapshot() {
        ParticleSnapshot snapshot = new ParticleSnapshot();
        for (var r : dominion.findEntitiesWith(DominionPosition.class, DominionVelocity.class,
                DominionLifetime.class)) {
            snapshot.add(r.comp1().x, r.comp1().y, r.comp2().x, r.comp2().y, r.comp3().startingTime,
                    r.comp3().remaining);
        }
        return snapshot.sorted();
    }

    @Override
    public void close() {
        dominion.close();
    }
}
