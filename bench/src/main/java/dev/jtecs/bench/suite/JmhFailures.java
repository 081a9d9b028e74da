package dev.jtecs.bench.suite;

import java.io.IOException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.format.OutputFormat;

/**
 * JMH's console output, passed through unchanged, with the reason each failing benchmark failed picked out of
 * it: JMH (1.37) reports a failure only there, as {@code <failure>}, a blank line and the exception's stack
 * trace (in this JVM or, relayed, from a fork), or as {@code <forked VM failed with exit code N>} when a fork dies
 * without one. A run with {@code shouldFailOnError(false)} then returns results for the other benchmarks only.
 *
 * <pre>
 *   startBenchmark(params) ──► current = key(params)
 *   println("&lt;failure&gt;"), println(""), println("java.lang.X: message\n\tat ...")
 *                          ──► reasons[current] = "java.lang.X: message"   (the first line, first failure kept)
 * </pre>
 *
 * <p>Invariants: every reason is one non-blank line; a benchmark keeps the first reason reported for it; output
 * before the first {@code startBenchmark} is attributed to nothing.
 */
final class JmhFailures implements OutputFormat {
    /** What JMH prints before the stack trace of a failed benchmark. */
    static final String FAILURE_MARK = "<failure>";
    /** How JMH's host begins the line it prints when a fork exits with an error and no failure of its own. */
    static final String FORK_FAILED = "<forked VM failed";

    private final OutputFormat out;
    private final Map<String, String> reasons = new LinkedHashMap<>();
    private String current;
    private boolean awaitingCause;

    /** Passes everything on to {@code out}. */
    JmhFailures(OutputFormat out) {
        this.out = Objects.requireNonNull(out, "out");
    }

    /** The key of one benchmark method with one parameter combination: the method's full name and the values. */
    static String key(String benchmark, Map<String, String> params) {
        return benchmark + " " + new TreeMap<>(params);
    }

    static String key(BenchmarkParams params) {
        Map<String, String> values = new TreeMap<>();
        for (String name : params.getParamsKeys()) {
            values.put(name, params.getParam(name));
        }
        return key(params.getBenchmark(), values);
    }

    /** The reasons reported so far, by {@link #key}, in the order the benchmarks failed. */
    Map<String, String> reasons() {
        return java.util.Collections.unmodifiableMap(reasons);
    }

    private void scan(String line) {
        if (current == null || line == null) {
            return;
        }
        if (line.equals(FAILURE_MARK)) {
            awaitingCause = true;
        } else if (awaitingCause && !line.isBlank()) {
            reasons.putIfAbsent(current, firstLine(line));
            awaitingCause = false;
        } else if (line.startsWith(FORK_FAILED)) {
            String reason = line.replaceAll("^<|>$", "").strip();
            reasons.putIfAbsent(current, reason.isEmpty() ? "forked VM failed" : firstLine(reason));
        }
    }

    /** The first non-blank line of {@code text}, stripped. */
    static String firstLine(String text) {
        for (String line : text.split("\\R")) {
            if (!line.isBlank()) {
                return line.strip();
            }
        }
        return text.strip();
    }

    @Override
    public void startBenchmark(BenchmarkParams benchParams) {
        begin(key(benchParams));
        out.startBenchmark(benchParams);
    }

    /** Attributes what follows to the benchmark of {@code key} (what {@link #startBenchmark} does). */
    void begin(String key) {
        current = key;
        awaitingCause = false;
    }

    @Override
    public void println(String s) {
        out.println(s);
        scan(s);
    }

    @Override
    public void print(String s) {
        out.print(s);
    }

    @Override
    public void iteration(BenchmarkParams benchParams, IterationParams params, int iteration) {
        out.iteration(benchParams, params, iteration);
    }

    @Override
    public void iterationResult(BenchmarkParams benchParams, IterationParams params, int iteration,
            IterationResult data) {
        out.iterationResult(benchParams, params, iteration, data);
    }

    @Override
    public void endBenchmark(BenchmarkResult result) {
        out.endBenchmark(result);
    }

    @Override
    public void startRun() {
        out.startRun();
    }

    @Override
    public void endRun(Collection<RunResult> result) {
        out.endRun(result);
    }

    @Override
    public void flush() {
        out.flush();
    }

    @Override
    public void close() {
        out.close();
    }

    @Override
    public void verbosePrintln(String s) {
        out.verbosePrintln(s);
    }

    @Override
    public void write(int b) {
        out.write(b);
    }

    @Override
    public void write(byte[] b) throws IOException {
        out.write(b);
    }
}
