package dev.jtecs.bench.cli;

import dev.jtecs.bench.particles.ParticleSimulation;
import dev.jtecs.kernels.ParticleKernels;
import java.io.PrintStream;
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
            long frameNanos = runFrames(simulation);
            double nsPerEntityFrame = (double) frameNanos / ((double) entities * frames);
            out.println();
            out.println("jtecs particles");
            row(out, "entities", String.format(Locale.ROOT, "%,d", entities));
            row(out, "frames", String.format(Locale.ROOT, "%,d", frames));
            row(out, "spawn (initial)", String.format(Locale.ROOT, "%.1f ms (%.1f ns/entity)", spawnNanos / 1e6,
                    (double) spawnNanos / entities));
            row(out, "frame time (mean)", String.format(Locale.ROOT, "%.3f ms", frameNanos / 1e6 / frames));
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

    private long runFrames(ParticleSimulation simulation) {
        if (noProgress) {
            long start = System.nanoTime();
            for (int f = 0; f < frames; f++) {
                simulation.frame();
            }
            return System.nanoTime() - start;
        }
        long total = 0;
        try (ProgressBar bar = new ProgressBarBuilder().setTaskName("frames").setInitialMax(frames)
                .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(200).continuousUpdate().build()) {
            for (int f = 0; f < frames; f++) {
                long start = System.nanoTime();
                simulation.frame();
                total += System.nanoTime() - start;
                bar.step();
            }
        }
        return total;
    }

    private static void row(PrintStream out, String label, String value) {
        out.printf(Locale.ROOT, "  %-26s %s%n", label, value);
    }
}
