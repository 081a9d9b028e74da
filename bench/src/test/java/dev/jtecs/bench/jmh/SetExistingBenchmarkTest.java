package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Every {@code set_existing} implementation writes the same positions into the same N entities: (i + 1, 1 - i)
 * after the first operation, back to (i, -i) after the second, so repeated operations do the same work; jtecs
 * moves no entity on either path.
 */
class SetExistingBenchmarkTest {
    private static final int N = 600;

    /** One engine's operation and how its positions are read. */
    record Engine(String method, Consumer<SetExistingBenchmark> operation,
            Function<SetExistingBenchmark, long[]> positions) {}

    @Test
    void everyEngineWritesTheSamePositionsAndTwoOperationsRestoreTheStart() {
        check(new Engine("jtecs", SetExistingBenchmark::jtecs, b -> Positions.of(b.world)));
        check(new Engine("jtecsInstant", SetExistingBenchmark::jtecsInstant, b -> Positions.of(b.world)));
        check(new Engine("jtecsField", SetExistingBenchmark::jtecsField, b -> Positions.of(b.world)));
        check(new Engine("jtecsRow", SetExistingBenchmark::jtecsRow, b -> Positions.of(b.world)));
        check(new Engine("dominion", SetExistingBenchmark::dominion, b -> Positions.of(b.dominion)));
        check(new Engine("artemis", SetExistingBenchmark::artemis, b -> Positions.of(b.artemis)));
        check(new Engine("ashley", SetExistingBenchmark::ashley, b -> Positions.of(b.ashley)));
    }

    @Test
    void jtecsWritesThroughOnBothPathsAndNothingMoves() {
        for (String method : new String[] {"jtecs", "jtecsInstant", "jtecsField", "jtecsRow"}) {
            SetExistingBenchmark bench = new SetExistingBenchmark();
            bench.entities = N;
            bench.setUp(method);
            try {
                assertNull(bench.dominion, "only the measured engine");
                long structure = bench.world.structureVersion();
                var archetype = bench.world.archetypeOf(bench.ids[0]);
                int row = bench.world.rowOf(bench.ids[N - 1]);
                switch (method) {
                    case "jtecs" -> bench.jtecs();
                    case "jtecsField" -> bench.jtecsField();
                    case "jtecsRow" -> bench.jtecsRow();
                    default -> bench.jtecsInstant();
                }
                assertEquals(structure, bench.world.structureVersion(), method + ": no structural change");
                assertEquals(archetype, bench.world.archetypeOf(bench.ids[0]), method);
                assertEquals(row, bench.world.rowOf(bench.ids[N - 1]), method);
                assertEquals(0, bench.world.scopeDepth(), method);
            } finally {
                bench.tearDown();
            }
        }
    }

    private static void check(Engine engine) {
        SetExistingBenchmark bench = new SetExistingBenchmark();
        bench.entities = N;
        bench.setUp(engine.method());
        try {
            long[] start = engine.positions().apply(bench);
            assertArrayEquals(shifted(0), start, engine.method() + " start");
            for (int round = 0; round < 2; round++) {
                engine.operation().accept(bench);
                assertArrayEquals(shifted(1), engine.positions().apply(bench), engine.method() + " after the first, "
                        + "round " + round);
                engine.operation().accept(bench);
                assertArrayEquals(start, engine.positions().apply(bench), engine.method() + " after the second, "
                        + "round " + round);
            }
        } finally {
            bench.tearDown();
        }
    }

    /** The positions (i + s, s - i) of entities 0..N-1. */
    private static long[] shifted(float s) {
        float[] x = new float[N];
        float[] y = new float[N];
        for (int i = 0; i < N; i++) {
            x[i] = i + s;
            y[i] = s - i;
        }
        return Positions.of(x, y);
    }
}
