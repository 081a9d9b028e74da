package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.bench.suite.SuiteRunner;
import java.lang.foreign.ValueLayout;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The snapshot benchmarks do what they say: each save form writes the whole world, each load form restores it,
 * the binary forms and the copy count the snapshot's bytes per operation (the table form counts none), and the
 * whole class runs under JMH in this JVM (forks 0, one short iteration: a smoke run, not figures), reporting
 * those bytes beside the time so that the suite turns them into GB/s.
 */
class SnapshotBenchmarkTest {
    private static final int N = 3_000;

    @Test
    void everySaveFormWritesTheWholeWorld() {
        SnapshotBenchmark.Save bench = new SnapshotBenchmark.Save();
        bench.entities = N;
        bench.setUp();
        try {
            SnapshotBenchmark.Moved moved = new SnapshotBenchmark.Moved();
            assertEquals(N, bench.jtecsBinaryBuffer(moved).entityCount());
            assertEquals(bench.bytes(), moved.bytes, "one save counts the snapshot's size");
            assertEquals(N, bench.jtecsBinaryFile(moved).entityCount());
            assertEquals(N, bench.jtecsTable().entityCount());
            assertEquals(bench.bytes(), bench.plainSegmentCopy(moved).byteSize());
            assertEquals(3 * bench.bytes(), moved.bytes);
            bench.copyTarget.fill((byte) 0x5A);
            assertCheckedCopy(bench, bench.plainCheckedCopy(moved));
            assertEquals(4 * bench.bytes(), moved.bytes);
            moved.reset();
            assertEquals(0, moved.bytes);
            assertTrue(bench.bytes() > N * 40L, "ids and six columns: " + bench.bytes());
        } finally {
            bench.tearDown();
        }
    }

    @Test
    void everyLoadFormRestoresTheWholeWorld() throws Exception {
        SnapshotBenchmark.Load bench = new SnapshotBenchmark.Load();
        bench.entities = N;
        bench.setUp();
        try {
            long checksum = bench.source.checksum();
            SnapshotBenchmark.Moved moved = new SnapshotBenchmark.Moved();
            bench.jtecsBinaryBuffer(moved);
            assertEquals(N, bench.destination.entityCount());
            assertEquals(bench.bytes(), moved.bytes, "one load counts the snapshot's size");
            bench.destination.clearEntities();
            bench.jtecsBinaryFile(moved);
            assertEquals(N, bench.destination.entityCount());
            assertEquals(2 * bench.bytes(), moved.bytes);
            assertEquals(bench.bytes(), java.nio.file.Files.size(bench.file), "the file holds the counted bytes");
            bench.copyTarget.fill((byte) 0x5A);
            assertCheckedCopy(bench, bench.plainCheckedCopy(moved));
            assertEquals(3 * bench.bytes(), moved.bytes);
            bench.destination.clearEntities();
            bench.jtecsTable();
            assertEquals(N, bench.destination.entityCount());
            assertEquals(checksum, dev.jtecs.bench.frame.StateChecksum.of(bench.destination,
                    dev.jtecs.bench.particles.ParticleSimulation.STATE));
        } finally {
            bench.tearDown();
        }
    }

    /**
     * A checked copy (its target filled with other bytes first) returned the CRC32C of the snapshot's bytes,
     * computed here apart, and left a copy of them in its target: both halves of the floor ran.
     */
    private static void assertCheckedCopy(SnapshotBenchmark.Worlds bench, long checksum) {
        CRC32C expected = new CRC32C();
        byte[] bytes = bench.binary.buffer().toArray(ValueLayout.JAVA_BYTE);
        expected.update(bytes);
        assertEquals(expected.getValue(), checksum, "the checksum of the snapshot's bytes");
        assertArrayEquals(bytes, bench.copyTarget.toArray(ValueLayout.JAVA_BYTE), "the bytes copied");
    }

    @Test
    void theClassRunsUnderJmhInProcessAndReportsTheBytesOfTheBinaryForms() throws Exception {
        int n = 2000;
        SnapshotBenchmark.Save sized = new SnapshotBenchmark.Save();
        sized.entities = n;
        sized.setUp();
        long bytes;
        try {
            bytes = sized.bytes(); // the same world, the same snapshot: the particles are seeded
        } finally {
            sized.tearDown();
        }
        Collection<RunResult> results = new Runner(new OptionsBuilder()
                .include(SnapshotBenchmark.class.getName().replace("$", "\\$") + ".*")
                .forks(0).warmupIterations(0).measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(50)).timeUnit(TimeUnit.MILLISECONDS)
                .param("entities", Integer.toString(n)).shouldFailOnError(true).build()).run();
        assertEquals(10, results.size(), "five forms each of save and load");
        for (RunResult run : results) {
            String benchmark = run.getParams().getBenchmark();
            Result<?> counted = run.getSecondaryResults().get(SuiteRunner.BYTES);
            if (benchmark.endsWith(".jtecsTable")) {
                assertNull(counted, benchmark + ": the table form counts no bytes");
                continue;
            }
            assertNotNull(counted, benchmark + ": " + run.getSecondaryResults().keySet());
            double perOp = SuiteRunner.bytesPerOp(run.getPrimaryResult(), counted);
            assertEquals(bytes, perOp, bytes * 1e-9, benchmark + ": bytes per operation");
        }
    }
}
