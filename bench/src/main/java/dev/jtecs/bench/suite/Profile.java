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
     * Seconds a fork costs beyond its iterations on an idle machine, whatever its size: starting the JVM, loading
     * the engine and the peers, JMH's own set-up and tearing down.
     */
    public static final double FORK_BASE_SECONDS = 1.25;

    /**
     * Seconds a fork costs beyond its iterations, on an idle machine, per million entities of its {@code entities}
     * parameter: building the fixture (a million entities for the large sizes), operations longer than an
     * iteration, untimed per-invocation fixtures (a refill between operations), and the collector's work on a
     * heap of that size.
     */
    public static final double FORK_SECONDS_PER_MILLION_ENTITIES = 1.9;

    /*
     * How both constants were found: quick runs of integrate (14 benchmarks) and despawn_batch (8) on the shared
     * two-core machine at a load average of about 10, timed fork by fork. 16K-entity forks took 4.2 s beside 1.25 s
     * of iterations, million-entity forks 8.7 s, and contention(10, 2) = 2.3 stretches the idle figures to those.
     * One fork fits no model: Ashley despawning a million entities per operation took 143 s (each operation and
     * its untimed refill take seconds, and the collector runs for most of them), where the model says 9 s. An
     * older quiet run (before the per-entity workloads) averaged 1.5 s per fork beyond its iterations, about what
     * these constants give for its mix of sizes.
     */

    /**
     * A first look, meant to stay under ten minutes on two idle cores (WORKLOADS.md): one fork, one 800 ms warm-up
     * iteration (long enough for the frame-sized operations to reach compiled code; a second, shorter one would
     * cost the million-entity operations of the slow peers another whole operation), three 150 ms measurement
     * iterations (the fewest JMH computes an error from), and the sizes and dimensions each workload keeps for it.
     */
    public static final Profile QUICK =
            new Profile("quick", 1, 1, Duration.ofMillis(800), 3, Duration.ofMillis(150), true);

    /**
     * The classes' own settings: two forks, 5 × 1 s warm-up, 5 × 1 s measurement, every declared size.
     *
     * <p>Five warm-up seconds, not three: the per-entity benchmarks reach their steady state late, jtecs's as well
     * as the peers'. At 16,384 entities, one fork, one-second iterations from the first (µs per operation): jtecs
     * {@code set_existing} ran 1,158, 473, 391, 384, then 279 from the fifth on; jtecs {@code set_new} 1,330, 858,
     * 558, 465, 450, then 365 from the sixth; Artemis-odb's {@code set_new} 850, 528, 272, 423, then 276 to 295;
     * Dominion's 2,019, 2,142, 2,095, then 1,392 from the fourth. With three, the fourth and fifth seconds fell in the
     * measurement: they raised those means by up to a tenth (jtecs {@code set_existing} 7%, {@code set_new} 10%,
     * Artemis-odb's {@code set_new} 9%) and widened their errors.
     */
    public static final Profile FULL =
            new Profile("full", 2, 5, Duration.ofSeconds(1), 5, Duration.ofSeconds(1), false);

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

    /** Seconds one fork spends in its iterations: warm-up and measurement. */
    public double iterationSeconds() {
        return warmupIterations * warmup.toMillis() / 1000.0 + measurementIterations * measurement.toMillis() / 1000.0;
    }

    /**
     * How much longer than on an idle machine a fork's fixed work takes at this load: 1 up to one runnable task
     * per processor, then the square root of the tasks per processor. A fork is several threads (the JIT, the
     * collector, the benchmark), so it keeps more than a 1/load share of the processors; the square root is what
     * the timed runs above fit at a load of about 10 on two processors, with the older quiet run at the idle end.
     * A load the JVM cannot read (negative) counts as idle.
     */
    public static double contention(double loadAverage, int processors) {
        if (!(loadAverage > 0) || processors < 1) {
            return 1;
        }
        return Math.max(1, Math.sqrt(loadAverage / processors));
    }

    /**
     * A wall-time estimate for {@code benchmarks} benchmarks of {@code entities} entities each: per fork, the
     * iterations plus the fixed cost ({@link #FORK_BASE_SECONDS} and {@link #FORK_SECONDS_PER_MILLION_ENTITIES})
     * stretched by {@code contention}. The iterations are not stretched: JMH times them by the clock. With no
     * fork, the fixed cost is the fixture's alone.
     */
    public Duration estimate(int benchmarks, long entities, double contention) {
        double fixed = (forks == 0 ? 0 : FORK_BASE_SECONDS) + FORK_SECONDS_PER_MILLION_ENTITIES * entities / 1e6;
        double perFork = iterationSeconds() + fixed * Math.max(1, contention);
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
