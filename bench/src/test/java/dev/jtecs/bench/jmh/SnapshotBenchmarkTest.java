package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collection;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The snapshot benchmarks do what they say: each save form writes the whole world, each load form restores it,
 * and the whole class runs under JMH in this JVM (forks 0, one short iteration: a smoke run, not figures).
 */
class SnapshotBenchmarkTest {
    private static final int N = 3_000;

    @Test
    void everySaveFormWritesTheWholeWorld() {
        SnapshotBenchmark.Save bench = new SnapshotBenchmark.Save();
        bench.entities = N;
        bench.setUp();
        try {
            assertEquals(N, bench.jtecsBinaryBuffer().entityCount());
            assertEquals(N, bench.jtecsBinaryFile().entityCount());
            assertEquals(N, bench.jtecsTable().entityCount());
            assertEquals(bench.bytes(), bench.plainSegmentCopy().byteSize());
            assertTrue(bench.bytes() > N * 40L, "ids and six columns: " + bench.bytes());
        } finally {
            bench.tearDown();
        }
    }

    @Test
    void everyLoadFormRestoresTheWholeWorld() {
        SnapshotBenchmark.Load bench = new SnapshotBenchmark.Load();
        bench.entities = N;
        bench.setUp();
        try {
            long checksum = bench.source.checksum();
            bench.jtecsBinaryBuffer();
            assertEquals(N, bench.destination.entityCount());
            bench.destination.clearEntities();
            bench.jtecsBinaryFile();
            assertEquals(N, bench.destination.entityCount());
            bench.destination.clearEntities();
            bench.jtecsTable();
            assertEquals(N, bench.destination.entityCount());
            assertEquals(checksum, dev.jtecs.bench.frame.StateChecksum.of(bench.destination,
                    dev.jtecs.bench.particles.ParticleSimulation.STATE));
        } finally {
            bench.tearDown();
        }
    }

    @Test
    void theClassRunsUnderJmhInProcess() throws Exception {
        Collection<RunResult> results = new Runner(new OptionsBuilder()
                .include(SnapshotBenchmark.class.getName().replace("$", "\\$") + ".*")
                .forks(0).warmupIterations(0).measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(50)).timeUnit(TimeUnit.MILLISECONDS)
                .param("entities", "2000").shouldFailOnError(true).build()).run();
        assertEquals(8, results.size(), "four forms each of save and load");
    }
}
