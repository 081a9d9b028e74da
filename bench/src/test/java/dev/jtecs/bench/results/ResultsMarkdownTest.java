package dev.jtecs.bench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsMarkdownTest {
    static final RunInfo INFO = new RunInfo(Instant.parse("2025-01-02T03:04:05Z"), "Test CPU, 2 processors",
            "Test VM 25", 16, "vector (test)", "quick", 1, "2 × 200 ms", "3 × 200 ms", Duration.ofSeconds(485),
            false);

    @Test
    void writesTheHeaderAndOneRowPerResultWithRatiosToJtecs() {
        List<BenchResult> results = List.of(
                new BenchResult("integrate", 1048576, "jtecs", 0.21, 0.01, 0.0, 1),
                new BenchResult("integrate", 1048576, "dominion", 3.5, 0.25, 12.5, 1),
                new BenchResult("iterate_read[components=2]", 16384, "jtecs-scalar", 1.0E-4, Double.NaN, Double.NaN,
                        1),
                new BenchResult("transforms", 100000, "jtecs", 2.5, 0.125, 1234567, 1),
                new BenchResult("snapshot_save", 1048576, "jtecs", 2.0, 0.1, 64, 1).withBytesPerOp(41943040),
                new BenchResult("snapshot_save", 1048576, "jtecs-table", 250, 3, 5.0E8, 1));
        assertEquals("""
                # jtecs benchmark results

                - date: 2025-01-02 03:04:05 UTC
                - CPU: Test CPU, 2 processors
                - JDK: Test VM 25
                - vector width: 16 float lanes (512 bits), kernels vector (test)
                - profile: quick, 1 fork per benchmark, warm-up 2 × 200 ms, measurement 3 × 200 ms
                - view checks: off
                - wall time: 8 min 5 s

                ns/entity is JMH's average time per operation divided by the entities one operation covers; ± is \
                JMH's 99.9% error; time/op is one operation (one frame for per-frame workloads); throughput is GB/s \
                (10^9 bytes per second) where the benchmark counts the bytes an operation moves, entities per second \
                elsewhere; alloc is `gc.alloc.rate.norm`, including any per-invocation fixture; × jtecs is ns/entity \
                over the jtecs row of the same workload and size (below 1: faster than jtecs).

                | workload | entities | impl | ns/entity ± error | time/op | throughput | alloc B/op | threads \
                | × jtecs |
                |---|---:|---|---:|---:|---:|---:|---:|---:|
                | integrate | 1,048,576 | jtecs | 0.21 ± 0.01 | 220 µs | 4.76 G entities/s | 0 | 1 | 1.00 |
                | integrate | 1,048,576 | dominion | 3.5 ± 0.25 | 3.67 ms | 286 M entities/s | 12.5 | 1 | 16.67 |
                | iterate_read[components=2] | 16,384 | jtecs-scalar | 0.0001 ± n/a | 1.64 ns | 10 T entities/s \
                | n/a | 1 | — |
                | transforms | 100,000 | jtecs | 2.5 ± 0.13 | 250 µs | 400 M entities/s | 1,234,567 | 1 | 1.00 |
                | snapshot_save | 1,048,576 | jtecs | 2 ± 0.1 | 2.1 ms | 20 GB/s | 64 | 1 | 1.00 |
                | snapshot_save | 1,048,576 | jtecs-table | 250 ± 3 | 262 ms | 4 M entities/s | 500,000,000 | 1 \
                | 125.00 |
                """, ResultsMarkdown.toMarkdown(results, INFO));
    }

    @Test
    void aFailedRowIsMarkedInItsPlaceAndCountedInTheHeader() {
        List<BenchResult> results = List.of(
                new BenchResult("spawn_single", 16384, "jtecs", 100, 1, 264, 1),
                BenchResult.failed("spawn_single", 16384, "dominion", 1, "java.lang.X: a | b `c`"),
                BenchResult.failed("add_remove_tag", 16384, "jtecs", 1, "no result"),
                new BenchResult("add_remove_tag", 16384, "artemis", 25, 1, 0, 1));
        String md = ResultsMarkdown.toMarkdown(results, INFO);
        assertTrue(md.contains("- wall time: 8 min 5 s\n- failed: 2 of 4 benchmarks (marked FAILED below; they "
                + "have no figures)\n\n"), md);
        assertTrue(md.contains("""
                | spawn_single | 16,384 | jtecs | 100 ± 1 | 1.64 ms | 10 M entities/s | 264 | 1 | 1.00 |
                | spawn_single | 16,384 | dominion | FAILED: java.lang.X: a \\| b 'c' | — | — | — | 1 | — |
                | add_remove_tag | 16,384 | jtecs | FAILED: no result | — | — | — | 1 | — |
                | add_remove_tag | 16,384 | artemis | 25 ± 1 | 410 µs | 40 M entities/s | 0 | 1 | — |
                """), md);
        assertFalse(ResultsMarkdown.toMarkdown(results.subList(0, 1), INFO).contains("- failed:"));
    }

    @Test
    void theHeaderSaysWhenTheViewChecksWereOn() {
        RunInfo checked = new RunInfo(INFO.date(), INFO.cpu(), INFO.jdk(), INFO.vectorLanes(), INFO.kernels(),
                INFO.profile(), INFO.forks(), INFO.warmup(), INFO.measurement(), INFO.wallTime(), true);
        List<BenchResult> one = List.of(new BenchResult("integrate", 16384, "jtecs", 0.1, 0.01, 0, 1)
                .withCheckedViews(true));
        assertTrue(ResultsMarkdown.toMarkdown(one, checked).contains("\n- view checks: on (-Djtecs.checkViews=true: "
                + "the figures include the checked view mode's cost)\n- wall time: "), ResultsMarkdown.toMarkdown(
                one, checked));
    }

    @Test
    void roundsToSignificantDigitsWithoutExponents() {
        assertEquals("1230", ResultsMarkdown.significant(1234.5, 3));
        assertEquals("0.000123", ResultsMarkdown.significant(1.2345E-4, 3));
        assertEquals("0", ResultsMarkdown.significant(0, 3));
        assertEquals("n/a", ResultsMarkdown.significant(Double.NaN, 3));
        assertEquals("1.5 s", ResultsMarkdown.time(1.5e9));
        assertEquals("999 ns", ResultsMarkdown.time(999));
    }

    @Test
    void throughputIsGigabytesPerSecondWhereBytesAreCountedElseEntitiesPerSecond() {
        BenchResult row = new BenchResult("snapshot_load", 1000, "jtecs-file", 1.0, 0, 0, 1);
        assertEquals("1 G entities/s", ResultsMarkdown.throughput(row));
        assertEquals("999 entities/s", ResultsMarkdown.throughput(new BenchResult("x", 1, "jtecs", 1.001e6, 0, 0, 1)));
        assertEquals("1 k entities/s", ResultsMarkdown.throughput(new BenchResult("x", 1, "jtecs", 1.0e6, 0, 0, 1)));
        assertEquals("0.5 GB/s", ResultsMarkdown.throughput(row.withBytesPerOp(500)), "500 bytes in 1 µs");
        assertEquals("n/a", ResultsMarkdown.throughput(new BenchResult("x", 1, "jtecs", 0, 0, 0, 1)),
                "an operation too short to time");
    }

    @Test
    void writesTheFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("latest.md");
        List<BenchResult> one = List.of(new BenchResult("integrate", 16384, "jtecs", 0.1, 0.01, 0, 1));
        ResultsMarkdown.write(one, INFO, file);
        assertEquals(ResultsMarkdown.toMarkdown(one, INFO), Files.readString(file));
    }
}
