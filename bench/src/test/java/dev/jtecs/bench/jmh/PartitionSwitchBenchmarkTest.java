package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.storage.Archetype;
import org.junit.jupiter.api.Test;

/** Every pass of the partition benchmark moves all N entities and the operation leaves the world as it found it. */
class PartitionSwitchBenchmarkTest {
    private static int count(PartitionSwitchBenchmark bench, dev.jtecs.component.TagComponent tag) {
        return bench.world.findArchetypes(tag).stream().mapToInt(Archetype::count).sum();
    }

    @Test
    void eachOperationMovesEveryEntityAndRestoresTheStart() {
        PartitionSwitchBenchmark bench = new PartitionSwitchBenchmark();
        bench.entities = 300;
        bench.setUp();
        try {
            long before = bench.world.structureVersion();
            bench.variantSwitch();
            assertEquals(300, count(bench, PartitionSwitchBenchmark.A));
            assertEquals(0, count(bench, PartitionSwitchBenchmark.B));
            assertTrue(bench.world.structureVersion() > before, "the entities moved");
            bench.presenceSetUnset();
            assertEquals(0, count(bench, PartitionSwitchBenchmark.ON));
            bench.plainTagSetRemove();
            assertEquals(0, count(bench, PartitionSwitchBenchmark.PLAIN));
            bench.plainTagSwap();
            assertEquals(300, count(bench, PartitionSwitchBenchmark.PLAIN_A));
            assertEquals(0, count(bench, PartitionSwitchBenchmark.PLAIN_B));
            assertEquals(300, bench.world.entityCount());
        } finally {
            bench.tearDown();
        }
    }
}
