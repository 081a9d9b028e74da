package dev.jtecs.bench.results;

import java.util.Objects;

/**
 * One row of the results: one implementation of one workload at one size, as {@code latest.json} holds it.
 *
 * <p>Invariants: {@code workload} and {@code impl} are non-blank ({@code impl} passes {@link Impls#check});
 * {@code entities >= 1} is how many entities one operation covers, so the time of one operation (one pass, one
 * frame, one batch) is {@code nsPerEntity * entities}; {@code nsPerEntity} is finite and non-negative;
 * {@code error} (JMH's 99.9% half-interval, in ns per entity) and {@code allocBytesPerOp} (the GC profiler's
 * {@code gc.alloc.rate.norm}) are non-negative or {@code NaN} where JMH could not say (one measurement
 * iteration, no profiler); {@code threads >= 1}.
 *
 * @param workload the workload name of WORKLOADS.md, with any dimension besides the entity count appended as
 *     {@code [name=value,...]} (such as {@code iterate_read[components=2]})
 * @param entities entities one operation covers: the divisor of {@code nsPerEntity}
 * @param impl the implementation: one of {@link Impls#STANDARD} or a documented variant
 * @param nsPerEntity average time of one operation divided by {@code entities}, nanoseconds
 * @param error the JMH error of {@code nsPerEntity}, nanoseconds per entity
 * @param allocBytesPerOp bytes allocated per operation
 * @param threads benchmark threads
 */
public record BenchResult(String workload, long entities, String impl, double nsPerEntity, double error,
        double allocBytesPerOp, int threads) {
    public BenchResult {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(impl, "impl");
        if (workload.isBlank() || entities < 1 || !(nsPerEntity >= 0) || Double.isInfinite(nsPerEntity)
                || error < 0 || Double.isInfinite(error) || allocBytesPerOp < 0 || Double.isInfinite(allocBytesPerOp)
                || threads < 1) {
            throw new IllegalArgumentException("invalid result: workload='" + workload + "' entities=" + entities
                    + " impl=" + impl + " nsPerEntity=" + nsPerEntity + " error=" + error + " allocBytesPerOp="
                    + allocBytesPerOp + " threads=" + threads);
        }
        Impls.check(impl);
    }

    /** The average time of one operation (a pass, a frame, a batch), nanoseconds. */
    public double nsPerOp() {
        return nsPerEntity * entities;
    }

    /** The workload name without its {@code [...]} dimensions: the name {@code --only} selects. */
    public String workloadName() {
        int bracket = workload.indexOf('[');
        return bracket < 0 ? workload : workload.substring(0, bracket);
    }
}
