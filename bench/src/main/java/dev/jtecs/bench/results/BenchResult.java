package dev.jtecs.bench.results;

import java.util.Objects;

/**
 * One row of the results: one implementation of one workload at one size, as {@code latest.json} holds it:
 * either measured, or failed (the benchmark threw, or JMH returned no result for it).
 *
 * <p>Invariants: {@code workload} and {@code impl} are non-blank ({@code impl} passes {@link Impls#check});
 * {@code entities >= 1} is how many entities one operation covers, so the time of one operation (one pass, one
 * frame, one batch) is {@code nsPerEntity * entities}; {@code threads >= 1}. A measured row has
 * {@code failure == null}, a finite non-negative {@code nsPerEntity}, and an {@code error} (JMH's 99.9%
 * half-interval, in ns per entity) and {@code allocBytesPerOp} (the GC profiler's {@code gc.alloc.rate.norm})
 * that are non-negative or {@code NaN} where JMH could not say (one measurement iteration, no profiler), and a
 * {@code bytesPerOp} that is positive where the benchmark counts the bytes one operation moves (the snapshot
 * workloads) and {@code NaN} elsewhere. A failed row has a non-blank one-line {@code failure} and {@code NaN} for
 * all four figures.
 *
 * @param workload the workload name of WORKLOADS.md, with any dimension besides the entity count appended as
 *     {@code [name=value,...]} (such as {@code iterate_read[components=2]})
 * @param entities entities one operation covers: the divisor of {@code nsPerEntity}
 * @param impl the implementation: one of {@link Impls#STANDARD} or a documented variant
 * @param nsPerEntity average time of one operation divided by {@code entities}, nanoseconds
 * @param error the JMH error of {@code nsPerEntity}, nanoseconds per entity
 * @param allocBytesPerOp bytes allocated per operation
 * @param threads benchmark threads
 * @param failure why the benchmark has no figures (the first line of its exception, or what JMH said), or
 *     {@code null} for a measured row
 * @param bytesPerOp the bytes one operation moves, as the benchmark counts them, or {@code NaN} when it counts
 *     none: the numerator of {@link #gbPerSecond}
 * @param checkedViews whether the benchmark ran with jtecs' checked view mode on ({@code -Djtecs.checkViews=true},
 *     {@code jtecs bench --check-views}): its figures then include the cost of the checks
 */
public record BenchResult(String workload, long entities, String impl, double nsPerEntity, double error,
        double allocBytesPerOp, int threads, String failure, double bytesPerOp, boolean checkedViews) {
    public BenchResult {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(impl, "impl");
        boolean measured = failure == null;
        boolean figures = measured
                ? nsPerEntity >= 0 && !Double.isInfinite(nsPerEntity) && !(error < 0) && !Double.isInfinite(error)
                        && !(allocBytesPerOp < 0) && !Double.isInfinite(allocBytesPerOp)
                        && (Double.isNaN(bytesPerOp) || bytesPerOp > 0 && !Double.isInfinite(bytesPerOp))
                : Double.isNaN(nsPerEntity) && Double.isNaN(error) && Double.isNaN(allocBytesPerOp)
                        && Double.isNaN(bytesPerOp)
                        && !failure.isBlank() && failure.indexOf('\n') < 0 && failure.indexOf('\r') < 0;
        if (workload.isBlank() || entities < 1 || !figures || threads < 1) {
            throw new IllegalArgumentException("invalid result: workload='" + workload + "' entities=" + entities
                    + " impl=" + impl + " nsPerEntity=" + nsPerEntity + " error=" + error + " allocBytesPerOp="
                    + allocBytesPerOp + " threads=" + threads + " bytesPerOp=" + bytesPerOp
                    + (measured ? "" : " failure='" + failure + "'"));
        }
        Impls.check(impl);
    }

    /** A measured row whose benchmark counts no bytes, run with the view checks off. */
    public BenchResult(String workload, long entities, String impl, double nsPerEntity, double error,
            double allocBytesPerOp, int threads) {
        this(workload, entities, impl, nsPerEntity, error, allocBytesPerOp, threads, null, Double.NaN, false);
    }

    /** A row whose benchmark counts no bytes: measured when {@code failure} is {@code null}; checks off. */
    public BenchResult(String workload, long entities, String impl, double nsPerEntity, double error,
            double allocBytesPerOp, int threads, String failure) {
        this(workload, entities, impl, nsPerEntity, error, allocBytesPerOp, threads, failure, Double.NaN, false);
    }

    /** A row whose benchmark counts no bytes, with the view checks on or off. */
    public BenchResult(String workload, long entities, String impl, double nsPerEntity, double error,
            double allocBytesPerOp, int threads, String failure, boolean checkedViews) {
        this(workload, entities, impl, nsPerEntity, error, allocBytesPerOp, threads, failure, Double.NaN,
                checkedViews);
    }

    /** A row run with the view checks off. */
    public BenchResult(String workload, long entities, String impl, double nsPerEntity, double error,
            double allocBytesPerOp, int threads, String failure, double bytesPerOp) {
        this(workload, entities, impl, nsPerEntity, error, allocBytesPerOp, threads, failure, bytesPerOp, false);
    }

    /** A failed row: no figures, and why ({@code failure}, one line). */
    public static BenchResult failed(String workload, long entities, String impl, int threads, String failure) {
        return new BenchResult(workload, entities, impl, Double.NaN, Double.NaN, Double.NaN, threads, failure,
                Double.NaN, false);
    }

    /** This row, marked as run with the view checks on ({@code true}) or off. */
    public BenchResult withCheckedViews(boolean checked) {
        return new BenchResult(workload, entities, impl, nsPerEntity, error, allocBytesPerOp, threads, failure,
                bytesPerOp, checked);
    }

    /** This measured row with the bytes one operation moves (see {@link #gbPerSecond}). */
    public BenchResult withBytesPerOp(double bytes) {
        return new BenchResult(workload, entities, impl, nsPerEntity, error, allocBytesPerOp, threads, failure, bytes,
                checkedViews);
    }

    /** Whether this row failed (it has no figures). */
    public boolean isFailed() {
        return failure != null;
    }

    /** The average time of one operation (a pass, a frame, a batch), nanoseconds; {@code NaN} when failed. */
    public double nsPerOp() {
        return nsPerEntity * entities;
    }

    /**
     * The bandwidth of one operation: {@link #bytesPerOp} over {@link #nsPerOp}, in GB/s (10<sup>9</sup> bytes per
     * second, which is bytes per nanosecond); {@code NaN} when the benchmark counts no bytes or the row failed.
     */
    public double gbPerSecond() {
        return bytesPerOp / nsPerOp();
    }

    /**
     * Entities covered per second: 10<sup>9</sup> over {@link #nsPerEntity}; {@code NaN} when failed, infinite
     * when an operation took no measurable time.
     */
    public double entitiesPerSecond() {
        return 1e9 / nsPerEntity;
    }

    /** The workload name without its {@code [...]} dimensions: the name {@code --only} selects. */
    public String workloadName() {
        int bracket = workload.indexOf('[');
        return bracket < 0 ? workload : workload.substring(0, bracket);
    }
}
