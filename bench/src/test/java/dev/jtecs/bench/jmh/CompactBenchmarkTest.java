package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jtecs.world.CompactResult;
import org.junit.jupiter.api.Test;

/** Each {@code compact} operation prunes the N archetypes the untimed rebuild made, so operations do equal work. */
class CompactBenchmarkTest {
    @Test
    void everyOperationPrunesTheArchetypesItsRebuildMade() {
        CompactBenchmark bench = new CompactBenchmark();
        bench.archetypes = 200;
        try {
            for (int round = 0; round < 3; round++) {
                bench.rebuild();
                // 200 pruned, and the archetype the dead targets left is shrunk (rebuilt) as part of the operation
                assertEquals(new CompactResult(200, 1), bench.jtecs(), "operation " + round);
                assertEquals(new CompactResult(0, 0), bench.world.compact(), "nothing left after " + round);
            }
        } finally {
            bench.tearDown();
        }
    }
}
