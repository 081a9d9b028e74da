package dev.jtecs.bench.cli;

import dev.jtecs.bench.frame.DirtyExtractor;
import dev.jtecs.bench.frame.FrameKernels;
import dev.jtecs.bench.frame.FrameWorkload;
import dev.jtecs.bench.frame.KernelChoice;
import dev.jtecs.bench.frame.StateChecksum;
import dev.jtecs.bench.report.FrameLog;
import dev.jtecs.bench.report.RunReport;
import dev.jtecs.bench.report.RunSummary;
import dev.jtecs.kernels.KernelProvider;
import dev.jtecs.kernels.vector.VectorParticleOps;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The shared body of the frame-based jobs ({@code particles}, {@code transforms}): options, their checks, the
 * frame loop with its progress bar and measurements, the summary table and the report folder. A subcommand
 * declares {@code --entities} (its default differs) and builds its {@link FrameWorkload}.
 *
 * <p>The summary keeps the warm-up apart: the first {@code --warmup-frames} frames (a fifth of them unless told,
 * {@link RunSummary#defaultWarmup}) get a mean and a max of their own, and the frame-time percentiles, the max
 * and the allocation per frame describe the frames after them. Progress goes to standard error through a
 * {@link ProgressReporter}: a bar on a terminal, a plain line every few seconds in a log.
 *
 * <p>Exit codes: 0 after a run; 2 for a bad option (picocli's usage error: the message, then the usage); 1 when
 * the run itself fails (the report folder cannot be written, say).
 */
abstract class FrameJobCommand implements Callable<Integer> {
    /** The most frames a run takes: the log keeps a few longs per frame. */
    static final int MAX_FRAMES = 10_000_000;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--frames", defaultValue = "600", paramLabel = "F", order = 1,
            description = "frames to run, at least 1 (default: ${DEFAULT-VALUE})")
    int frames;

    @Option(names = "--kernels", defaultValue = "vector", paramLabel = "scalar|vector", order = 2,
            converter = KernelChoiceConverter.class,
            description = "the SIMD kernels (vector) or their scalar twins (scalar) (default: ${DEFAULT-VALUE})")
    KernelChoice kernels;

    @Option(names = "--threads", defaultValue = "1", paramLabel = "T", order = 2,
            description = "threads the kernels run on, 1 to " + FrameKernels.MAX_THREADS
                    + "; the state does not depend on it (default: ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--seed", defaultValue = "42", paramLabel = "S", order = 3,
            description = "the world's random seed, a 32-bit integer (default: ${DEFAULT-VALUE})")
    int seed;

    @Option(names = "--warmup-frames", paramLabel = "W", order = 3,
            description = "frames counted as warm-up, from the first: the summary's frame times and allocation "
                    + "describe the frames after them; 0 to F-1 (default: a fifth of F)")
    Integer warmupFrames;

    @Option(names = "--report", paramLabel = "DIR", order = 4,
            description = "write <workload>.json and <workload>-frame-times.png into DIR (created if missing)")
    Path report;

    @Option(names = "--no-progress", order = 5, description = "no progress on standard error (a bar on a "
            + "terminal, otherwise a plain line every few seconds)")
    boolean noProgress;

    /** The {@code --entities} value. */
    abstract int entities();

    /** The most entities the workload takes. */
    abstract int maxEntities();

    /** Builds and populates the workload. */
    abstract FrameWorkload create(int entities, int seed, KernelChoice kernels, int threads);

    @Override
    public Integer call() throws IOException {
        validate();
        PrintStream out = System.out;
        long setupStart = System.nanoTime();
        try (FrameWorkload workload = create(entities(), seed, kernels, threads)) {
            double setupMillis = (System.nanoTime() - setupStart) / 1e6;
            FrameLog log = new FrameLog(frames);
            long heapPeak = runFrames(workload, log);
            long checksum = workload.checksum();
            int warmup = warmup();
            RunSummary summary = RunSummary.of(log, warmup, workload.liveCount(), heapPeak, workload.nativeBytes());
            RunReport run = new RunReport(workload.name(),
                    new RunReport.RunOptions(entities(), frames, warmup, kernels.optionValue(), threads, seed),
                    environment(),
                    StateChecksum.hex(checksum), setupMillis, summary, RunReport.FrameSeries.of(log));
            printSummary(out, run, workload.extractor());
            finish(workload, out);
            if (report != null) {
                run.writeTo(report);
                row(out, "report", report.resolve(run.jsonName()) + ", " + report.resolve(run.chartName()));
            }
        }
        return 0;
    }

    /** Checks every option before anything runs; a bad one becomes a usage error naming it. */
    private void validate() {
        if (entities() < 1 || entities() > maxEntities()) {
            throw usage("--entities must be between 1 and " + String.format(Locale.ROOT, "%,d", maxEntities())
                    + ", got " + entities());
        }
        if (frames < 1 || frames > MAX_FRAMES) {
            throw usage("--frames must be between 1 and " + String.format(Locale.ROOT, "%,d", MAX_FRAMES) + ", got "
                    + frames);
        }
        if (warmupFrames != null && (warmupFrames < 0 || warmupFrames >= frames)) {
            throw usage("--warmup-frames must be between 0 and " + (frames - 1) + " (--frames " + frames
                    + " less one: at least one frame is measured warm), got " + warmupFrames);
        }
        if (threads < 1 || threads > FrameKernels.MAX_THREADS) {
            throw usage("--threads must be between 1 and " + FrameKernels.MAX_THREADS + ", got " + threads);
        }
        if (!kernels.isAvailable()) {
            throw usage("--kernels vector: this JVM runs the scalar twins (" + KernelProvider.reason()
                    + "); pass --kernels scalar");
        }
        if (report != null) {
            checkReportFolder(report);
        }
        validateMore();
    }

    /** The warm-up frames of this run: {@code --warmup-frames}, or a fifth of the frames. */
    int warmup() {
        return warmupFrames != null ? warmupFrames : RunSummary.defaultWarmup(frames);
    }

    /** Checks a subcommand's own options; a bad one throws {@link #usage}. */
    void validateMore() {
    }

    /** Runs after the summary is printed (a subcommand's extra output, such as a saved file). */
    void finish(FrameWorkload workload, PrintStream out) {
    }

    /** The report folder must be a directory we can create and write a file in. */
    private void checkReportFolder(Path folder) {
        if (Files.exists(folder) && !Files.isDirectory(folder)) {
            throw usage("--report " + folder + " is not a directory");
        }
        try {
            Files.createDirectories(folder);
            Path probe = Files.createTempFile(folder, ".jtecs-write-check", ".tmp");
            Files.delete(probe);
        } catch (IOException | SecurityException e) {
            throw usage("--report " + folder + " is not a writable directory (" + e + ")");
        }
    }

    ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /** Runs the frames, recording each; returns the peak heap in use seen after a frame. */
    private long runFrames(FrameWorkload workload, FrameLog log) {
        Runtime runtime = Runtime.getRuntime();
        long heapPeak = runtime.totalMemory() - runtime.freeMemory();
        DirtyExtractor extractor = workload.extractor();
        try (ProgressReporter progress = ProgressReporter.forFrames(ProgressReporter.mode(noProgress),
                workload.name(), frames, System.err, System::nanoTime)) {
            for (int f = 0; f < frames; f++) {
                long spawnedBefore = workload.spawned();
                long expiredBefore = workload.expired();
                long allocatedBefore = allocatedBytes();
                long start = System.nanoTime();
                workload.frame();
                long nanos = System.nanoTime() - start;
                long allocatedAfter = allocatedBytes();
                log.record(nanos, allocatedBefore < 0 ? -1 : allocatedAfter - allocatedBefore,
                        extractor.lastColumns(), extractor.lastBytes(), workload.spawned() - spawnedBefore,
                        workload.expired() - expiredBefore);
                heapPeak = Math.max(heapPeak, runtime.totalMemory() - runtime.freeMemory());
                progress.step();
            }
        }
        return heapPeak;
    }

    /**
     * The thread bean, looked up once: {@code ManagementFactory.getThreadMXBean()} finds it through a stream
     * pipeline that allocates about 400 bytes a call, which the per-frame figure counted twice a frame.
     */
    private static final java.lang.management.ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** Bytes this thread has allocated so far, or -1 where the JVM does not count them. */
    private static long allocatedBytes() {
        if (THREADS instanceof com.sun.management.ThreadMXBean threads
                && threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled()) {
            return threads.getCurrentThreadAllocatedBytes();
        }
        return -1;
    }

    private RunReport.RunEnvironment environment() {
        boolean vector = kernels == KernelChoice.VECTOR;
        return new RunReport.RunEnvironment(System.getProperty("java.runtime.version"),
                System.getProperty("java.vm.name") + " (" + System.getProperty("java.vm.info") + ")",
                System.getProperty("os.name") + " " + System.getProperty("os.version"), System.getProperty("os.arch"),
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory(),
                kernels.optionValue() + " (provider: " + KernelProvider.mode() + ", " + KernelProvider.reason() + ")",
                vector ? VectorParticleOps.lanes() : 0);
    }

    private void printSummary(PrintStream out, RunReport run, DirtyExtractor extractor) {
        RunSummary s = run.summary();
        out.println();
        out.println("jtecs " + run.workload());
        row(out, "entities", String.format(Locale.ROOT, "%,d", run.options().entities()));
        row(out, "frames", String.format(Locale.ROOT, "%,d: %,d warm-up, %,d measured warm", s.frames(),
                s.warmupFrames(), s.warmFrames()));
        row(out, "kernels", run.options().kernels()
                + (run.environment().floatLanes() > 0 ? " (" + run.environment().floatLanes() + " float lanes)" : ""));
        row(out, "threads", Integer.toString(run.options().threads()));
        row(out, "seed", Integer.toString(run.options().seed()));
        row(out, "setup", String.format(Locale.ROOT, "%.1f ms", run.setupMillis()));
        row(out, "warm-up mean / max", s.warmupFrames() == 0 ? "no warm-up frames"
                : String.format(Locale.ROOT, "%.3f / %.3f ms (%,d frames)", s.warmupMeanMillis(), s.warmupMaxMillis(),
                s.warmupFrames()));
        row(out, "warm p50 / p95 / p99", String.format(Locale.ROOT, "%.3f / %.3f / %.3f ms", s.p50Millis(),
                s.p95Millis(), s.p99Millis()));
        row(out, "warm mean / max", String.format(Locale.ROOT, "%.3f / %.3f ms (%,d frames)", s.meanMillis(),
                s.maxMillis(), s.warmFrames()));
        row(out, "ns per entity per frame", String.format(Locale.ROOT, "%.3f (warm p50)", s.nsPerEntityFrame()));
        row(out, "spawned / expired", String.format(Locale.ROOT, "%,d / %,d", s.spawned(), s.expired()));
        row(out, "alive at end", String.format(Locale.ROOT, "%,d", s.entities()));
        row(out, "extracted per frame", String.format(Locale.ROOT, "%.1f columns, %s (mean of all frames)",
                s.extractedColumnsPerFrame(), bytes(s.extractedBytesPerFrame())));
        row(out, "allocated per warm frame", s.allocatedBytesMean() < 0 ? "unknown (no thread allocation counter)"
                : "median " + bytes(s.allocatedBytesMedian()) + ", mean " + bytes(s.allocatedBytesMean()));
        row(out, "heap in use (peak)", bytes(s.heapPeakBytes()));
        row(out, "native memory", bytes(s.nativeBytes()) + " (output buffer " + bytes(extractor.bytesReserved())
                + ")");
        row(out, "checksum", run.checksum());
    }

    private static String bytes(double value) {
        if (value < 1024) {
            return String.format(Locale.ROOT, "%.0f B", value);
        }
        if (value < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f KiB", value / 1024);
        }
        return String.format(Locale.ROOT, "%.1f MiB", value / (1024.0 * 1024.0));
    }

    static void row(PrintStream out, String label, String value) {
        out.printf(Locale.ROOT, "  %-26s %s%n", label, value);
    }

    /** Converts {@code --kernels} text, with a message naming the accepted values. */
    static final class KernelChoiceConverter implements CommandLine.ITypeConverter<KernelChoice> {
        @Override
        public KernelChoice convert(String value) {
            try {
                return KernelChoice.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
