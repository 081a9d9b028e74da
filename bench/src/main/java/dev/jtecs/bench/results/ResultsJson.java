package dev.jtecs.bench.results;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * {@code latest.json}: a JSON array with one object per {@link BenchResult}, keys in this order:
 *
 * <pre>
 * [
 *   {"workload": "integrate", "entities": 1048576, "impl": "jtecs", "ns_per_entity": 0.21, "error": 0.01, ...},
 *   ...
 *   {"workload": "spawn_single", "entities": 16384, "impl": "dominion", "ns_per_entity": null, "error": null,
 *    "alloc_bytes_per_op": null, "bytes_per_op": null, "threads": 1, "failed": true,
 *    "failure": "java.lang.Array...: Index 1024 ..."}
 * ]
 * </pre>
 *
 * <p>with {@code "alloc_bytes_per_op"}, {@code "bytes_per_op"} and {@code "threads"} last, each object on one
 * line. A measured row has exactly these eight keys. A failed row ({@link BenchResult#isFailed}) has the same
 * eight, its four figures {@code null}, then {@code "failed": true} and {@code "failure"}: the first line of the
 * benchmark's exception, or what JMH said instead. A row that ran with the checked view mode on
 * ({@link BenchResult#checkedViews}, {@code jtecs bench --check-views}) ends with one more key,
 * {@code "checked_views": true}; other rows never carry it, so the rows of an unchecked run are as they always were.
 *
 * <p>Numbers are written as Java prints them (shortest exact decimal); {@code error} and
 * {@code alloc_bytes_per_op} are {@code null} where JMH could not measure them ({@code NaN} in the model), and
 * {@code bytes_per_op} where the benchmark counts no bytes (every workload but the snapshot ones).
 * {@link #read} accepts exactly these two shapes.
 */
public final class ResultsJson {
    static final List<String> KEYS =
            List.of("workload", "entities", "impl", "ns_per_entity", "error", "alloc_bytes_per_op", "bytes_per_op",
                    "threads");
    /** The keys of a failed row: {@link #KEYS}, then these two. */
    static final List<String> FAILED_KEYS = java.util.stream.Stream.concat(KEYS.stream(),
            java.util.stream.Stream.of("failed", "failure")).toList();
    /** The key that ends a row measured with the view checks on. */
    static final String CHECKED_VIEWS = "checked_views";

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final ObjectWriter WRITER = MAPPER.writer(new OneObjectPerLine());

    private ResultsJson() {}

    /** The JSON text of {@code results}, in the given order, ending with a newline. */
    public static String toJson(List<BenchResult> results) {
        ArrayNode array = MAPPER.createArrayNode();
        for (BenchResult r : results) {
            ObjectNode o = array.addObject();
            o.put("workload", r.workload());
            o.put("entities", r.entities());
            o.put("impl", r.impl());
            putMeasured(o, "ns_per_entity", r.nsPerEntity());
            putMeasured(o, "error", r.error());
            putMeasured(o, "alloc_bytes_per_op", r.allocBytesPerOp());
            putMeasured(o, "bytes_per_op", r.bytesPerOp());
            o.put("threads", r.threads());
            if (r.isFailed()) {
                o.put("failed", true);
                o.put("failure", r.failure());
            }
            if (r.checkedViews()) {
                o.put(CHECKED_VIEWS, true);
            }
        }
        try {
            return WRITER.writeValueAsString(array) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException("a tree of strings and numbers always serializes", e);
        }
    }

    private static void putMeasured(ObjectNode o, String key, double value) {
        if (Double.isNaN(value)) {
            o.putNull(key);
        } else {
            o.put(key, value);
        }
    }

    /** Writes {@code results} to {@code file} (UTF-8), replacing it. */
    public static void write(List<BenchResult> results, Path file) throws IOException {
        Files.writeString(file, toJson(results), StandardCharsets.UTF_8);
    }

    /**
     * Reads a results file back.
     *
     * @throws IOException when the file is not JSON, or not an array of objects with exactly the eight keys (or
     *     the ten of a failed row), each optionally followed by {@code "checked_views": true}, and values of the right kinds (the message names the element and the key)
     */
    public static List<BenchResult> read(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8));
    }

    /** Parses the text of a results file; see {@link #read}. */
    public static List<BenchResult> parse(String json) throws IOException {
        JsonNode root = MAPPER.readTree(json);
        if (root == null || !root.isArray()) {
            throw new IOException("results must be a JSON array, got "
                    + (root == null ? "nothing" : root.getNodeType()));
        }
        List<BenchResult> results = new ArrayList<>();
        for (int i = 0; i < root.size(); i++) {
            results.add(element(root.get(i), i));
        }
        return results;
    }

    private static BenchResult element(JsonNode node, int index) throws IOException {
        if (!node.isObject()) {
            throw new IOException("element " + index + " is " + node.getNodeType() + ", not an object");
        }
        Set<String> keys = new java.util.LinkedHashSet<>();
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            keys.add(names.next());
        }
        boolean checkedViews = keys.remove(CHECKED_VIEWS);
        if (checkedViews && (!node.get(CHECKED_VIEWS).isBoolean() || !node.get(CHECKED_VIEWS).booleanValue())) {
            throw new IOException("element " + index + " key " + CHECKED_VIEWS + " is " + node.get(CHECKED_VIEWS)
                    + ", not true (rows run unchecked leave the key out)");
        }
        return element(node, index, keys).withCheckedViews(checkedViews);
    }

    /** The row of {@code node}, whose keys other than {@value #CHECKED_VIEWS} are {@code keys}. */
    private static BenchResult element(JsonNode node, int index, Set<String> keys) throws IOException {
        boolean failed = keys.equals(new java.util.LinkedHashSet<>(FAILED_KEYS));
        if (!failed && !keys.equals(new java.util.LinkedHashSet<>(KEYS))) {
            throw new IOException("element " + index + " has keys " + keys + ", expected " + KEYS + " or, failed, "
                    + FAILED_KEYS + " (either may end with " + CHECKED_VIEWS + ")");
        }
        try {
            if (failed) {
                if (!node.get("failed").isBoolean() || !node.get("failed").booleanValue()) {
                    throw new IOException("element " + index + " key failed is " + node.get("failed")
                            + ", not true");
                }
                for (String figure : List.of("ns_per_entity", "error", "alloc_bytes_per_op", "bytes_per_op")) {
                    if (!node.get(figure).isNull()) {
                        throw new IOException("element " + index + " failed but key " + figure + " is "
                                + node.get(figure) + ", not null");
                    }
                }
                return BenchResult.failed(text(node, "workload", index), integral(node, "entities", index),
                        text(node, "impl", index), Math.toIntExact(integral(node, "threads", index)),
                        text(node, "failure", index));
            }
            return new BenchResult(text(node, "workload", index), integral(node, "entities", index),
                    text(node, "impl", index), number(node, "ns_per_entity", index),
                    measured(node, "error", index), measured(node, "alloc_bytes_per_op", index),
                    Math.toIntExact(integral(node, "threads", index)), null,
                    measured(node, "bytes_per_op", index));
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new IOException("element " + index + ": " + e.getMessage(), e);
        }
    }

    private static String text(JsonNode node, String key, int index) throws IOException {
        JsonNode value = node.get(key);
        if (!value.isTextual()) {
            throw new IOException("element " + index + " key " + key + " is " + value + ", not a string");
        }
        return value.textValue();
    }

    private static long integral(JsonNode node, String key, int index) throws IOException {
        JsonNode value = node.get(key);
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new IOException("element " + index + " key " + key + " is " + value + ", not an integer");
        }
        return value.longValue();
    }

    private static double number(JsonNode node, String key, int index) throws IOException {
        JsonNode value = node.get(key);
        if (!value.isNumber()) {
            throw new IOException("element " + index + " key " + key + " is " + value + ", not a number");
        }
        return value.doubleValue();
    }

    private static double measured(JsonNode node, String key, int index) throws IOException {
        return node.get(key).isNull() ? Double.NaN : number(node, key, index);
    }

    /** Prints the array one object per line, with a space after each colon and comma inside an object. */
    private static final class OneObjectPerLine extends MinimalPrettyPrinter {
        private static final long serialVersionUID = 1L;

        @Override
        public void writeObjectFieldValueSeparator(JsonGenerator g) throws IOException {
            g.writeRaw(": ");
        }

        @Override
        public void writeObjectEntrySeparator(JsonGenerator g) throws IOException {
            g.writeRaw(", ");
        }

        @Override
        public void beforeArrayValues(JsonGenerator g) throws IOException {
            g.writeRaw("\n  ");
        }

        @Override
        public void writeArrayValueSeparator(JsonGenerator g) throws IOException {
            g.writeRaw(",\n  ");
        }

        @Override
        public void writeEndArray(JsonGenerator g, int nrOfValues) throws IOException {
            g.writeRaw(nrOfValues == 0 ? "]" : "\n]");
        }
    }
}
