package dev.jtecs.bench.cli;

import dev.jtecs.bench.particles.ParticleSimulation;
import dev.jtecs.kernels.ParticleKernels;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code jtecs particles}: spawn particles, run frames of integration and lifetime turnover, print a summary. */
@Command(name = "particles", mixinStandardHelpOptions = true,
        description = "Run the particle workload: integrate, count lifetimes down, replace expired particles.")
public final class ParticlesCommand implements Callable<Integer> {
    @Option(names = "--entities", defaultValue = "1000000", description = "particles to spawn (default: ${DEFAULT-VALUE})")
    int entities;

    @Option(names = "--frames", defaultValue = "300", description = "frames to run (default: ${DEFAULT-VALUE})")
    int frames;

    @Option(names = "--seed", defaultValue = "42", description = "random seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--no-progress", description = "do not draw a progress bar")
    boolean noProgress;

    @Override
    public Integer call() {
        if (entities < 1 || frames < 1) {
            System.err.println("--entities and --frames must be at least 1 (got entities=" + entities + ", frames="
                    + frames + ")");
            return 2;
        }
        PrintStream out = System.out;
        try (ParticleSimulation simulation = new ParticleSimulation(entities, seed)) {
            long spawnStart = System.nanoTime();
            simulation.populate();
            long spawnNanos = System.nanoTime() - spawnStart;
            long[] frameTimes = new long[frames];
            long frameNanos = runFrames(simulation, frameTimes);
            double nsPerEntityFrame = (double) frameNanos / ((double) entities * frames);
            long[] sorted = frameTimes.clone();
            Arrays.sort(sorted);
            out.println();
            out.println("jtecs particles");
            row(out, "entities", String.format(Locale.ROOT, "%,d", entities));
            row(out, "frames", String.format(Locale.ROOT, "%,d", frames));
            row(out, "spawn (initial)", String.format(Locale.ROOT, "%.1f ms (%.1f ns/entity)", spawnNanos / 1e6,
                    (double) spawnNanos / entities));
            row(out, "frame time (mean)", String.format(Locale.ROOT, "%.3f ms", frameNanos / 1e6 / frames));
            row(out, "frame time p50/p95/p99", String.format(Locale.ROOT, "%.3f / %.3f / %.3f ms",
                    percentile(sorted, 50) / 1e6, percentile(sorted, 95) / 1e6, percentile(sorted, 99) / 1e6));
            row(out, "ns per entity per frame (p50)", String.format(Locale.ROOT, "%.3f",
                    (double) percentile(sorted, 50) / entities));
            row(out, "ns per entity per frame", String.format(Locale.ROOT, "%.3f", nsPerEntityFrame));
            row(out, "particles expired", String.format(Locale.ROOT, "%,d", simulation.expired()));
            row(out, "particles spawned", String.format(Locale.ROOT, "%,d", simulation.spawned()));
            row(out, "alive at end", String.format(Locale.ROOT, "%,d", simulation.liveCount()));
            row(out, "native memory", String.format(Locale.ROOT, "%.1f MiB",
                    simulation.world().nativeBytesReserved() / (1024.0 * 1024.0)));
            row(out, "vector lanes (float)", Integer.toString(ParticleKernels.lanes()));
        }
        return 0;
    }

    private long runFrames(ParticleSimulation simulation, long[] frameTimes) {
        ProgressBar bar = noProgress ? null : new ProgressBarBuilder().setTaskName("frames").setInitialMax(frames)
                .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(200).continuousUpdate().build();
        long total = 0;
        try {
            for (int f = 0; f < frames; f++) {
                long start = System.nanoTime();
                simulation.frame();
                frameTimes[f] = System.nanoTime() - start;
                total += frameTimes[f];
                if (bar != null) {
                    bar.step();
                }
            }
        } finally {
            if (bar != null) {
                bar.close();
            }
        }
        return total;
    }

    /** The nearest-rank percentile of sorted values. */
    static long percentile(long[] sorted, int percent) {
        int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static void row(PrintStream out, String label, String value) {
        out.printf(Locale.ROOT, "  %-26s %s%n", label, value);
    }
}
