package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.artemis.Aspect;
import dev.jtecs.bench.peers.PeerComponents.DominionPosition;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;

/**
 * Every {@code despawn_single} implementation removes all N entities one at a time, and the untimed refill gives
 * each engine its N entities back, so repeated operations do the same work.
 */
class DespawnSingleBenchmarkTest {
    private static final int N = 400;

    @Test
    void everyEngineDespawnsAllAndIsRefilled() {
        check("jtecs", DespawnSingleBenchmark::jtecs, b -> b.world.entityCount());
        check("jtecsInstant", DespawnSingleBenchmark::jtecsInstant, b -> b.world.entityCount());
        check("dominion", DespawnSingleBenchmark::dominion, b -> {
            int[] count = {0};
            b.dominion.findEntitiesWith(DominionPosition.class).forEach(r -> count[0]++);
            return count[0];
        });
        check("artemis", DespawnSingleBenchmark::artemis,
                b -> b.artemis.getAspectSubscriptionManager().get(Aspect.all()).getEntities().size());
        check("ashley", DespawnSingleBenchmark::ashley, b -> b.ashley.getEntities().size());
    }

    @Test
    void jtecsDespawnsTheIdsItWasRefilledWith() {
        for (String method : new String[] {"jtecs", "jtecsInstant"}) {
            DespawnSingleBenchmark bench = new DespawnSingleBenchmark();
            bench.entities = N;
            bench.setUp(method);
            try {
                assertNull(bench.ashley, "only the measured engine");
                for (int round = 0; round < 2; round++) {
                    bench.refill();
                    long[] ids = bench.ids.clone();
                    for (long id : ids) {
                        assertEquals(true, bench.world.isAlive(id), method + " round " + round);
                    }
                    if (method.equals("jtecs")) {
                        bench.jtecs();
                    } else {
                        bench.jtecsInstant();
                    }
                    for (long id : ids) {
                        assertFalse(bench.world.isAlive(id), method + " round " + round);
                    }
                    assertEquals(0, bench.world.scopeDepth(), method);
                }
            } finally {
                bench.tearDown();
            }
        }
    }

    private static void check(String method, Consumer<DespawnSingleBenchmark> operation,
            ToIntFunction<DespawnSingleBenchmark> alive) {
        DespawnSingleBenchmark bench = new DespawnSingleBenchmark();
        bench.entities = N;
        bench.setUp(method);
        try {
            for (int round = 0; round < 3; round++) {
                bench.refill();
                assertEquals(N, alive.applyAsInt(bench), method + " before operation " + round);
                operation.accept(bench);
                assertEquals(0, alive.applyAsInt(bench), method + " after operation " + round);
            }
        } finally {
            bench.tearDown();
        }
    }
}
