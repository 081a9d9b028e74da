package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.artemis.Aspect;
import dev.jtecs.bench.peers.PeerComponents.DominionPosition;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;

/**
 * Every {@code despawn_batch} variant removes all N entities, and the untimed refill gives each engine its N
 * entities back, so repeated operations do the same work.
 */
class DespawnBatchBenchmarkTest {
    private static final int N = 300;

    @Test
    void everyEngineDespawnsAllAndIsRefilled() {
        DespawnBatchBenchmark bench = new DespawnBatchBenchmark();
        bench.entities = N;
        bench.setUp(EngineUnderTest.ALL);
        try {
            check(bench, DespawnBatchBenchmark::jtecs, b -> b.world.entityCount());
            check(bench, DespawnBatchBenchmark::dominion, b -> {
                int[] count = {0};
                b.dominion.findEntitiesWith(DominionPosition.class).forEach(r -> count[0]++);
                return count[0];
            });
            check(bench, DespawnBatchBenchmark::artemis,
                    b -> b.artemis.getAspectSubscriptionManager().get(Aspect.all()).getEntities().size());
            check(bench, DespawnBatchBenchmark::ashley, b -> b.ashley.getEntities().size());
        } finally {
            bench.tearDown();
        }
    }

    private static void check(DespawnBatchBenchmark bench, Consumer<DespawnBatchBenchmark> operation,
            ToIntFunction<DespawnBatchBenchmark> alive) {
        for (int round = 0; round < 3; round++) {
            bench.refill();
            assertEquals(N, alive.applyAsInt(bench), "before operation " + round);
            operation.accept(bench);
            assertEquals(0, alive.applyAsInt(bench), "after operation " + round);
        }
    }
}
