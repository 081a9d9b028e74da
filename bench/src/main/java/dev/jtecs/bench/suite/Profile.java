package dev.jtecs.bench.suite;

import java.time.Duration;

/**
 * How long each benchmark runs: forks, warm-up and measurement iterations and their length, and whether the
 * workloads' quick parameter values apply.
 *
 * <p>Invariants: {@code forks >= 0} (0 runs in this JVM, for tests only: the JIT profile of one benchmark then
 * leaks into the next); {@code warmupIterations >= 0}; {@code measurementIterations >= 1}; iteration lengths
 * at least 1 ms.
 *
 * @param name {@code quick}, {@code full}, or {@code custom} once an option changed one of them
 * @param forks JVMs per benchmark
 * @param warmupIterations warm-up iterations per fork
 * @param warmup the length of one warm-up iteration
 * @param measurementIterations measured iterations per fork
 * @param measurement the length of one measured iteration
 * @param quickParams whether each workload's quick parameter values replace its declared ones
 */
public record Profile(String name, int forks, int warmupIterations, Duration warmup, int measurementIterations,
        Duration measurement, boolean quickParams) {
    /**
     * Seconds each fork costs beyond its iterations, on average over the suite's benchmarks: starting the JVM,
     * loading the engine and the peers, building the fixture (a million entities for the large sizes; Ashley
     * alone takes seconds there), operations longer than an iteration (a million-entity spawn in Ashley takes
     * seconds), untimed per-invocation fixtures (a restore or refill between operations: at most about one
     * operation each) and tearing down. An average, not a model of each fork: a 16K fork costs well under it, a
     * million-entity Ashley fork far over it, and the estimate holds only as long as the suite keeps that mix.
     * The per-entity workloads of issue 19 ({@code set_existing}, {@code set_new}, {@code remove},
     * {@code despawn_single}, {@code reparent}) are of the same kind as those it was tuned on: cheap forks at
     * 16K, a million-entity population per fork at 1M, per-invocation fixtures like {@code despawn_batch}'s; the
     * one new kind of fixture, {@code reparent}'s 65,536 parent archetypes at 1M, took seconds to build (so do
     * Ashley's million entities). Tuned on the shared two-core machine: quick runs spent 3.6 s per fork at a load
     * average of 5 to 8 and 8.8 s at 14; the one quiet quick run recorded (129 benchmarks, before issue 19) took
     * 5 min 50 s where this estimated about 9 minutes, about 1.5 s per fork.
     */
    public static final double FORK_OVERHEAD_SECONDS = 3.0;

    /**
     * A first look, meant to stay under ten minutes on two idle cores (WORKLOADS.md): one fork, one 800 ms warm-up
     * iteration (long enough for the frame-sized operations to reach compiled code; a second, shorter one would
     * cost the million-entity operations of the slow peers another whole operation), three 150 ms measurement
     * iterations (the fewest JMH computes an error from), and the sizes and dimensions each workload keeps for it.
     */
    public static final Profile QUICK =
            new Profile("quick", 1, 1, Duration.ofMillis(800), 3, Duration.ofMillis(150), true);

    /** The classes' own settings: two forks, 3 × 1 s warm-up, 5 × 1 s measurement, every declared size. */
    public static final Profile FULL =
            new Profile("full", 2, 3, Duration.ofSeconds(1), 5, Duration.ofSeconds(1), false);

    public Profile {
        java.util.Objects.requireNonNull(name, "name");
        if (forks < 0 || warmupIterations < 0 || measurementIterations < 1 || warmup.toMillis() < 1
                || measurement.toMillis() < 1) {
            throw new IllegalArgumentException("profile " + name + ": forks=" + forks + " (>= 0) warmupIterations="
                    + warmupIterations + " (>= 0) measurementIterations=" + measurementIterations + " (>= 1) warmup="
                    + warmup.toMillis() + " ms measurement=" + measurement.toMillis() + " ms (each >= 1 ms)");
        }
    }

    /** The same profile with other forks, iterations or lengths ({@code null} keeps a value), named custom. */
    public Profile with(Integer newForks, Integer newWarmupIterations, Integer newMeasurementIterations,
            Duration newIterationLength) {
        if (newForks == null && newWarmupIterations == null && newMeasurementIterations == null
                && newIterationLength == null) {
            return this;
        }
        return new Profile("custom", newForks != null ? newForks : forks,
                newWarmupIterations != null ? newWarmupIterations : warmupIterations,
                newIterationLength != null ? newIterationLength : warmup,
                newMeasurementIterations != null ? newMeasurementIterations : measurementIterations,
                newIterationLength != null ? newIterationLength : measurement, quickParams);
    }

    /** A rough wall time for {@code benchmarks} benchmarks: iterations plus a fixed cost per fork. */
    public Duration estimate(int benchmarks) {
        double perFork = FORK_OVERHEAD_SECONDS + warmupIterations * warmup.toMillis() / 1000.0
                + measurementIterations * measurement.toMillis() / 1000.0;
        return Duration.ofMillis(Math.round(benchmarks * Math.max(1, forks) * perFork * 1000));
    }

    /** Warm-up iterations and length, such as {@code 2 × 200 ms}. */
    public String warmupText() {
        return warmupIterations + " × " + warmup.toMillis() + " ms";
    }

    /** Measurement iterations and length, such as {@code 3 × 200 ms}. */
    public String measurementText() {
        return measurementIterations + " × " + measurement.toMillis() + " ms";
    }
}
