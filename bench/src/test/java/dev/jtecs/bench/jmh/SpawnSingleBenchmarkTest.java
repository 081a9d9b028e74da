package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.dominion.ecs.api.Dominion;
import dev.jtecs.bench.jmh.SpawnBatchBenchmarkTest.Census;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Every {@code spawn_single} implementation creates the same N entities: Position (i, -i) and Velocity (1, 2),
 * into an empty world per operation (a fresh one; Dominion's own, emptied). A new method (the typed spawn path)
 * joins {@link #everyEngineCreatesTheSameEntities} with one {@code check} line.
 */
class SpawnSingleBenchmarkTest {
    private static final int N = 700;

    /** Positions and the census (count, sum of x + y + vx + vy) after one operation in a fresh world. */
    record Outcome(long[] positions, Census census) {}

    private static Outcome run(String method, Function<SpawnSingleBenchmark, Outcome> operation) {
        SpawnSingleBenchmark bench = new SpawnSingleBenchmark();
        bench.entities = N;
        try {
            bench.setUp(method);
            return operation.apply(bench);
        } finally {
            bench.tearDown();
            bench.closeTrial();
        }
    }

    @Test
    void everyEngineCreatesTheSameEntities() {
        float[] x = new float[N];
        float[] y = new float[N];
        for (int i = 0; i < N; i++) {
            x[i] = i;
            y[i] = -i;
        }
        long[] positions = Positions.of(x, y);
        Census census = new Census(N, N * 3.0);
        check(positions, census, run("jtecs", b -> {
            b.jtecs();
            return new Outcome(Positions.of(b.world), SpawnBatchBenchmarkTest.census(b.world));
        }), "jtecs");
        check(positions, census, run("jtecsTyped", b -> {
            b.jtecsTyped();
            return new Outcome(Positions.of(b.world), SpawnBatchBenchmarkTest.census(b.world));
        }), "jtecsTyped");
        check(positions, census, run("jtecsInstant", b -> {
            b.jtecsInstant();
            assertEquals(0, b.world.scopeDepth(), "no scope left open");
            return new Outcome(Positions.of(b.world), SpawnBatchBenchmarkTest.census(b.world));
        }), "jtecsInstant");
        check(positions, census, run("dominion", b -> {
            b.dominion();
            return new Outcome(Positions.of(b.dominion), SpawnBatchBenchmarkTest.census(b.dominion));
        }), "dominion");
        check(positions, census, run("artemis", b -> {
            b.artemis();
            return new Outcome(Positions.of(b.artemis), SpawnBatchBenchmarkTest.census(b.artemis));
        }), "artemis");
        check(positions, census, run("ashley", b -> {
            b.ashley();
            return new Outcome(Positions.of(b.ashley), SpawnBatchBenchmarkTest.census(b.ashley));
        }), "ashley");
    }

    private static void check(long[] positions, Census census, Outcome outcome, String engine) {
        assertArrayEquals(positions, outcome.positions(), engine + " positions");
        assertEquals(census, outcome.census(), engine + " census");
    }

    @Test
    void eachOperationGetsAFreshWorldOfItsOwnEngineOnly() {
        SpawnSingleBenchmark bench = new SpawnSingleBenchmark();
        bench.entities = N;
        for (int round = 0; round < 2; round++) {
            bench.setUp("jtecs");
            try {
                assertNull(bench.dominion, "no Dominion");
                assertNull(bench.artemis, "no Artemis-odb");
                assertNull(bench.ashley, "no Ashley");
                assertEquals(0, bench.world.entityCount(), "empty before operation " + round);
                bench.jtecs();
                assertEquals(N, bench.world.entityCount(), "after operation " + round);
            } finally {
                bench.tearDown();
            }
        }
        bench.closeTrial();
    }

    @Test
    void dominionKeepsOneWorldForTheTrialEmptiedBeforeEachOperation() {
        SpawnSingleBenchmark bench = new SpawnSingleBenchmark();
        bench.entities = 3;
        try {
            bench.setUp("dominion");
            Dominion first = bench.dominion;
            // More operations than Dominion's static registry has slots: a world per operation would throw.
            for (int operation = 0; operation < DominionReuse.REGISTRY_SLOTS + 100; operation++) {
                if (operation > 0) {
                    bench.setUp("dominion");
                }
                assertSame(first, bench.dominion, "the trial's world, operation " + operation);
                assertEquals(0, SpawnBatchBenchmarkTest.census(bench.dominion).count(), "empty, operation " + operation);
                bench.dominion();
                assertEquals(3, SpawnBatchBenchmarkTest.census(bench.dominion).count(), "after operation " + operation);
                bench.tearDown();
            }
        } finally {
            bench.closeTrial();
        }
        assertNull(bench.dominion, "closed with the trial");
    }
}
