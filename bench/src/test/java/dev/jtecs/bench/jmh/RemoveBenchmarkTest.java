package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Every {@code remove} implementation takes Velocity off the same N entities, keeping their positions, and the
 * untimed restore puts each entity's own Velocity back, so repeated operations do the same work.
 */
class RemoveBenchmarkTest {
    private static final int N = 500;

    /** One engine's operation, its census of entities with Velocity, and how its positions are read. */
    record Engine(String method, Consumer<RemoveBenchmark> operation, Function<RemoveBenchmark, Velocities> census,
            Function<RemoveBenchmark, long[]> positions) {}

    @Test
    void everyEngineRemovesEveryVelocityAndIsRestoredWithEachEntitysOwn() {
        check(new Engine("jtecs", RemoveBenchmark::jtecs, b -> Velocities.of(b.world), b -> Positions.of(b.world)));
        check(new Engine("jtecsInstant", RemoveBenchmark::jtecsInstant, b -> Velocities.of(b.world),
                b -> Positions.of(b.world)));
        check(new Engine("dominion", RemoveBenchmark::dominion, b -> Velocities.of(b.dominion),
                b -> Positions.of(b.dominion)));
        check(new Engine("artemis", RemoveBenchmark::artemis, b -> Velocities.of(b.artemis),
                b -> Positions.of(b.artemis)));
        check(new Engine("ashley", RemoveBenchmark::ashley, b -> Velocities.of(b.ashley),
                b -> Positions.of(b.ashley)));
    }

    private static void check(Engine engine) {
        RemoveBenchmark bench = new RemoveBenchmark();
        bench.entities = N;
        bench.setUp(engine.method());
        try {
            long[] start = engine.positions().apply(bench);
            assertEquals(N, start.length, engine.method() + " population");
            for (int round = 0; round < 3; round++) {
                bench.restore();
                assertEquals(Velocities.expected(N), engine.census().apply(bench),
                        engine.method() + " before " + round);
                engine.operation().accept(bench);
                assertEquals(new Velocities(0, 0), engine.census().apply(bench), engine.method() + " after " + round);
                assertArrayEquals(start, engine.positions().apply(bench), engine.method() + " positions " + round);
            }
        } finally {
            bench.tearDown();
        }
    }
}
