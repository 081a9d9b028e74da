package dev.jtecs.bench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsJsonTest {
    static final List<BenchResult> RESULTS = List.of(
            new BenchResult("integrate", 1048576, "jtecs", 0.21, 0.01, 0.0, 1),
            new BenchResult("integrate", 1048576, "dominion", 3.5, 0.25, 12.5, 1),
            new BenchResult("iterate_read[components=2]", 16384, "jtecs-scalar", 1.0E-4, Double.NaN, Double.NaN, 1),
            new BenchResult("snapshot_save", 1048576, "jtecs", 2.5, 0.125, 64.0, 1).withBytesPerOp(41943232));

    @Test
    void writesOneObjectPerLineWithTheEightKeysInOrder() {
        assertEquals("""
                [
                  {"workload": "integrate", "entities": 1048576, "impl": "jtecs", "ns_per_entity": 0.21, \
                "error": 0.01, "alloc_bytes_per_op": 0.0, "bytes_per_op": null, "threads": 1},
                  {"workload": "integrate", "entities": 1048576, "impl": "dominion", "ns_per_entity": 3.5, \
                "error": 0.25, "alloc_bytes_per_op": 12.5, "bytes_per_op": null, "threads": 1},
                  {"workload": "iterate_read[components=2]", "entities": 16384, "impl": "jtecs-scalar", \
                "ns_per_entity": 1.0E-4, "error": null, "alloc_bytes_per_op": null, "bytes_per_op": null, \
                "threads": 1},
                  {"workload": "snapshot_save", "entities": 1048576, "impl": "jtecs", "ns_per_entity": 2.5, \
                "error": 0.125, "alloc_bytes_per_op": 64.0, "bytes_per_op": 4.1943232E7, "threads": 1}
                ]
                """, ResultsJson.toJson(RESULTS));
    }

    static final BenchResult FAILED = BenchResult.failed("spawn_single", 16384, "dominion", 1,
            "java.lang.ArrayIndexOutOfBoundsException: Index 1024 out of bounds for length 1024");

    @Test
    void aFailedRowKeepsTheEightKeysWithNullFiguresThenSaysItFailedAndWhy() {
        assertEquals("""
                [
                  {"workload": "spawn_single", "entities": 16384, "impl": "dominion", "ns_per_entity": null, \
                "error": null, "alloc_bytes_per_op": null, "bytes_per_op": null, "threads": 1, "failed": true, \
                "failure": "java.lang.ArrayIndexOutOfBoundsException: Index 1024 out of bounds for length 1024"}
                ]
                """, ResultsJson.toJson(List.of(FAILED)));
    }

    @Test
    void readsBackFailedRowsBesideMeasuredOnes() throws IOException {
        List<BenchResult> mixed = List.of(RESULTS.get(0), FAILED, RESULTS.get(1));
        assertEquals(mixed, ResultsJson.parse(ResultsJson.toJson(mixed)));
    }

    @Test
    void refusesAFailedRowThatIsNotMarkedTrueOrKeepsAFigure() {
        String failed = ResultsJson.toJson(List.of(FAILED));
        assertRefused(failed.replace("\"failed\": true", "\"failed\": false"), "element 0 key failed is false");
        assertRefused(failed.replace("\"ns_per_entity\": null", "\"ns_per_entity\": 1.5"),
                "element 0 failed but key ns_per_entity is 1.5");
        assertRefused(failed.replace(", \"failed\": true", ""), "element 0 has keys");
        assertRefused(failed.replace("\"bytes_per_op\": null", "\"bytes_per_op\": 8"),
                "element 0 failed but key bytes_per_op is 8");
    }

    @Test
    void aRowRunWithTheViewChecksOnEndsSayingSoAndReadsBack() throws IOException {
        List<BenchResult> checked = List.of(RESULTS.get(0).withCheckedViews(true), FAILED.withCheckedViews(true));
        assertEquals("""
                [
                  {"workload": "integrate", "entities": 1048576, "impl": "jtecs", "ns_per_entity": 0.21, \
                "error": 0.01, "alloc_bytes_per_op": 0.0, "bytes_per_op": null, "threads": 1, "checked_views": true},
                  {"workload": "spawn_single", "entities": 16384, "impl": "dominion", "ns_per_entity": null, \
                "error": null, "alloc_bytes_per_op": null, "bytes_per_op": null, "threads": 1, "failed": true, \
                "failure": "java.lang.ArrayIndexOutOfBoundsException: Index 1024 out of bounds for length 1024", \
                "checked_views": true}
                ]
                """, ResultsJson.toJson(checked));
        assertEquals(checked, ResultsJson.parse(ResultsJson.toJson(checked)));
        assertEquals(RESULTS, ResultsJson.parse(ResultsJson.toJson(RESULTS)), "unchecked rows stay unmarked");
    }

    @Test
    void refusesACheckedViewsKeyThatIsNotTrue() {
        String checked = ResultsJson.toJson(List.of(RESULTS.get(0).withCheckedViews(true)));
        assertRefused(checked.replace("\"checked_views\": true", "\"checked_views\": false"),
                "element 0 key checked_views is false, not true");
        assertRefused(checked.replace("\"checked_views\": true", "\"checked_views\": \"yes\""),
                "element 0 key checked_views is \"yes\", not true");
    }

    @Test
    void anEmptyRunIsAnEmptyArray() {
        assertEquals("[]\n", ResultsJson.toJson(List.of()));
    }

    @Test
    void readsBackExactlyWhatItWrote(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("latest.json");
        ResultsJson.write(RESULTS, file);
        assertEquals(RESULTS, ResultsJson.read(file));
    }

    @Test
    void refusesAnythingButTheFormatNamingTheElementAndKey() {
        assertRefused("{}", "must be a JSON array");
        assertRefused("[1]", "element 0 is NUMBER");
        assertRefused("[{\"workload\": \"integrate\"}]", "element 0 has keys [workload]");
        String valid = "{\"workload\": \"integrate\", \"entities\": 16, \"impl\": \"jtecs\", \"ns_per_entity\": 0.2, "
                + "\"error\": 0.01, \"alloc_bytes_per_op\": 0.0, \"bytes_per_op\": null, \"threads\": 1}";
        assertRefused("[" + valid + ", " + valid.replace("\"threads\": 1", "\"threads\": 1, \"extra\": 2") + "]",
                "element 1 has keys");
        assertRefused("[" + valid.replace("\"entities\": 16", "\"entities\": \"16\"") + "]",
                "element 0 key entities is \"16\", not an integer");
        assertRefused("[" + valid.replace("\"impl\": \"jtecs\"", "\"impl\": \"bevy\"") + "]",
                "element 0: impl='bevy'");
        assertRefused("[" + valid.replace("\"ns_per_entity\": 0.2", "\"ns_per_entity\": null") + "]",
                "element 0 key ns_per_entity is null, not a number");
        assertRefused("[" + valid.replace("\"bytes_per_op\": null", "\"bytes_per_op\": 0") + "]",
                "element 0: invalid result");
        assertRefused("[" + valid.replace(", \"bytes_per_op\": null", "") + "]", "element 0 has keys");
    }

    private static void assertRefused(String json, String message) {
        IOException e = assertThrows(IOException.class, () -> ResultsJson.parse(json));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void overwritesAnEarlierFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("latest.json");
        Files.writeString(file, "old contents that are longer than the new ones, by quite a lot".repeat(40));
        ResultsJson.write(RESULTS.subList(0, 1), file);
        assertEquals(RESULTS.subList(0, 1), ResultsJson.read(file));
    }
}
