package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.artemis.Aspect;
import com.artemis.ComponentMapper;
import com.artemis.utils.IntBag;
import com.badlogic.ashley.core.Engine;
import com.badlogic.ashley.core.Entity;
import dev.dominion.ecs.api.Dominion;
import dev.jtecs.bench.particles.Particles;
import dev.jtecs.bench.peers.PeerComponents.ArtemisPosition;
import dev.jtecs.bench.peers.PeerComponents.ArtemisVelocity;
import dev.jtecs.bench.peers.PeerComponents.AshleyPosition;
import dev.jtecs.bench.peers.PeerComponents.AshleyVelocity;
import dev.jtecs.bench.peers.PeerComponents.DominionPosition;
import dev.jtecs.bench.peers.PeerComponents.DominionVelocity;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Every {@code spawn_batch} variant creates the same N entities with the same values. */
class SpawnBatchBenchmarkTest {
    private static final int N = 5000; // above the initializer's chunk, so it copies more than once
    private static final double PER_ENTITY = SpawnBatchBenchmark.X0 + SpawnBatchBenchmark.Y0
            + SpawnBatchBenchmark.VX0 + SpawnBatchBenchmark.VY0;

    /** Entity count and the sum of x + y + vx + vy over every entity. */
    record Census(int count, double sum) {}

    private static Census run(Function<SpawnBatchBenchmark, Census> variant) {
        SpawnBatchBenchmark bench = new SpawnBatchBenchmark();
        bench.entities = N;
        bench.allocateArrays();
        bench.createWorlds(EngineUnderTest.ALL);
        try {
            return variant.apply(bench);
        } finally {
            bench.closeWorlds();
            bench.closeReused();
        }
    }

    @Test
    void everyVariantCreatesTheSameEntitiesWithTheSameValues() {
        Census expected = new Census(N, N * PER_ENTITY);
        assertEquals(expected, run(b -> census(b.jtecsBatchConstants())), "jtecsBatchConstants");
        assertEquals(expected, run(b -> census(b.jtecsBatchInitializer())), "jtecsBatchInitializer");
        assertEquals(expected, run(b -> census(b.jtecsSpawnPerEntity())), "jtecsSpawnPerEntity");
        assertEquals(expected, run(b -> {
            b.plainArrayFill();
            return census(new float[][] {b.x, b.y, b.vx, b.vy});
        }), "plainArrayFill");
        assertEquals(expected, run(b -> census(b.plainArrayAllocateAndFill())), "plainArrayAllocateAndFill");
        assertEquals(expected, run(b -> census(b.dominion())), "dominion");
        assertEquals(expected, run(b -> census(b.artemis())), "artemis");
        assertEquals(expected, run(b -> census(b.ashley())), "ashley");
    }

    @Test
    void theReusedWorldHoldsExactlyOneBatchAfterEachOperation() {
        SpawnBatchBenchmark bench = new SpawnBatchBenchmark();
        bench.entities = N;
        try {
            for (int round = 0; round < 3; round++) {
                bench.prepareReused();
                assertEquals(new Census(N, N * PER_ENTITY), census(bench.jtecsReusedWorld()), "round " + round);
            }
        } finally {
            bench.closeReused();
        }
    }

    @Test
    void dominionKeepsOneWorldForTheTrialEmptiedBeforeEachOperation() {
        SpawnBatchBenchmark bench = new SpawnBatchBenchmark();
        bench.entities = 2;
        bench.allocateArrays();
        try {
            bench.createWorlds("dominion");
            Dominion first = bench.dominion;
            // More operations than Dominion's static registry has slots: a world per operation would throw.
            for (int operation = 0; operation < DominionReuse.REGISTRY_SLOTS + 100; operation++) {
                if (operation > 0) {
                    bench.createWorlds("dominion");
                }
                assertSame(first, bench.dominion, "the trial's world, operation " + operation);
                assertEquals(new Census(0, 0), census(bench.dominion), "empty, operation " + operation);
                assertEquals(new Census(2, 2 * PER_ENTITY), census(bench.dominion()), "operation " + operation);
                bench.closeWorlds();
            }
        } finally {
            bench.closeReused();
        }
    }

    static Census census(World world) {
        int[] count = {0};
        double[] sum = {0};
        world.forEachArchetype((Archetype archetype) -> {
            if (archetype.count() == 0) {
                return;
            }
            for (int row = 0; row < archetype.count(); row++) {
                sum[0] += archetype.get(Particles.X).get(row) + archetype.get(Particles.Y).get(row)
                        + archetype.get(Particles.VX).get(row) + archetype.get(Particles.VY).get(row);
            }
            count[0] += archetype.count();
        });
        assertEquals(world.entityCount(), count[0]);
        return new Census(count[0], sum[0]);
    }

    static Census census(float[][] columns) {
        double sum = 0;
        for (float[] column : columns) {
            for (float v : column) {
                sum += v;
            }
        }
        return new Census(columns[0].length, sum);
    }

    static Census census(Dominion dominion) {
        int[] count = {0};
        double[] sum = {0};
        dominion.findEntitiesWith(DominionPosition.class, DominionVelocity.class).forEach(r -> {
            count[0]++;
            sum[0] += r.comp1().x + r.comp1().y + r.comp2().x + r.comp2().y;
        });
        return new Census(count[0], sum[0]);
    }

    static Census census(com.artemis.World artemis) {
        ComponentMapper<ArtemisPosition> positions = artemis.getMapper(ArtemisPosition.class);
        ComponentMapper<ArtemisVelocity> velocities = artemis.getMapper(ArtemisVelocity.class);
        IntBag bag = artemis.getAspectSubscriptionManager()
                .get(Aspect.all(ArtemisPosition.class, ArtemisVelocity.class)).getEntities();
        double sum = 0;
        for (int i = 0; i < bag.size(); i++) {
            int e = bag.get(i);
            sum += positions.get(e).x + positions.get(e).y + velocities.get(e).x + velocities.get(e).y;
        }
        return new Census(bag.size(), sum);
    }

    static Census census(Engine ashley) {
        double sum = 0;
        for (Entity e : ashley.getEntities()) {
            AshleyPosition p = e.getComponent(AshleyPosition.class);
            AshleyVelocity v = e.getComponent(AshleyVelocity.class);
            sum += p.x + p.y + v.x + v.y;
        }
        return new Census(ashley.getEntities().size(), sum);
    }
}
