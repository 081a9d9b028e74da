package dev.jtecs.bench.results;

import dev.jtecs.kernels.KernelProvider;
import dev.jtecs.kernels.vector.VectorParticleOps;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Where and how a set of results was measured: the header of {@code latest.md} and the chart's subtitle.
 *
 * @param date when the run started
 * @param cpu the CPU model and the processors the JVM sees
 * @param jdk the JVM that ran the forks (the one that runs this)
 * @param vectorLanes {@code FloatVector.SPECIES_PREFERRED.length()} on this machine
 * @param kernels which kernels jtecs ran ({@code vector} or {@code scalar}) and why
 * @param profile the profile's name ({@code quick}, {@code full} or {@code custom})
 * @param forks forks per benchmark
 * @param warmup warm-up iterations and their length, such as {@code 2 × 200 ms}
 * @param measurement measurement iterations and their length
 * @param wallTime how long the whole run took
 * @param checkedViews whether the benchmarks ran with jtecs' checked view mode on ({@code --check-views}, or a
 *     run in this JVM started with {@code -Djtecs.checkViews=true}): the figures then include its cost
 */
public record RunInfo(Instant date, String cpu, String jdk, int vectorLanes, String kernels, String profile,
        int forks, String warmup, String measurement, Duration wallTime, boolean checkedViews) {
    public RunInfo {
        Objects.requireNonNull(date, "date");
        Objects.requireNonNull(cpu, "cpu");
        Objects.requireNonNull(jdk, "jdk");
        Objects.requireNonNull(kernels, "kernels");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(warmup, "warmup");
        Objects.requireNonNull(measurement, "measurement");
        Objects.requireNonNull(wallTime, "wallTime");
    }

    /** This machine and JVM, for a run with the given profile that started at {@code date}. */
    public static RunInfo ofThisMachine(Instant date, String profile, int forks, String warmup, String measurement,
            Duration wallTime, boolean checkedViews) {
        Runtime runtime = Runtime.getRuntime();
        String cpu = cpuModel().orElse(System.getProperty("os.arch")) + ", " + runtime.availableProcessors()
                + " processors";
        String jdk = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " ("
                + System.getProperty("java.vm.vendor") + ")";
        String kernels = KernelProvider.mode().name().toLowerCase(java.util.Locale.ROOT) + " ("
                + KernelProvider.reason() + ")";
        return new RunInfo(date, cpu, jdk, VectorParticleOps.lanes(), kernels, profile, forks, warmup, measurement,
                wallTime, checkedViews);
    }

    /** The first {@code model name} of {@code /proc/cpuinfo}, where there is one (Linux). */
    static Optional<String> cpuModel() {
        Path cpuinfo = Path.of("/proc/cpuinfo");
        if (!Files.isReadable(cpuinfo)) {
            return Optional.empty();
        }
        try (var lines = Files.lines(cpuinfo)) {
            return lines.filter(line -> line.startsWith("model name"))
                    .map(line -> line.substring(line.indexOf(':') + 1).trim())
                    .filter(model -> !model.isEmpty())
                    .findFirst();
        } catch (IOException | java.io.UncheckedIOException e) {
            return Optional.empty();
        }
    }

    /** The same information with another wall time (known only once the run has ended). */
    public RunInfo withWallTime(Duration elapsed) {
        return new RunInfo(date, cpu, jdk, vectorLanes, kernels, profile, forks, warmup, measurement, elapsed,
                checkedViews);
    }
}
