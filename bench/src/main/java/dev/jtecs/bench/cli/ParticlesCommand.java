package dev.jtecs.bench.cli;

import dev.jtecs.bench.frame.FrameWorkload;
import dev.jtecs.bench.frame.KernelChoice;
import dev.jtecs.bench.particles.ParticleSimulation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jtecs particles}: the full particle frame through {@code world.update(dt)} ({@link ParticleSimulation}):
 * gravity, damping and integration by kernels, TTL countdown with expiry, about 1%% respawned per frame by
 * {@code batchSpawn}, and the dirty columns extracted into an output buffer.
 */
@Command(name = "particles", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run the particle workload: gravity, damping, integration (SIMD kernels), TTL countdown "
                + "with expiry, about 1%% respawned per frame in one batchSpawn burst, and a dirty-driven "
                + "extraction of x, y and TTL into an output buffer.",
            "Prints a summary table and the final state's checksum (the same seed gives the same checksum)."})
public final class ParticlesCommand extends FrameJobCommand {
    @Option(names = "--entities", defaultValue = "1000000", paramLabel = "N", order = 0,
            description = "particles, at least 1 (default: ${DEFAULT-VALUE})")
    int entities;

    @Override
    int entities() {
        return entities;
    }

    @Override
    int maxEntities() {
        return ParticleSimulation.MAX_ENTITIES;
    }

    @Option(names = "--load", paramLabel = "FILE", order = 6,
            description = "start from a world saved with --save instead of spawning (--entities sizes the world "
                    + "and must cover the saved particles)")
    java.nio.file.Path load;

    @Option(names = "--save", paramLabel = "FILE", order = 7,
            description = "save the world after the last frame as a binary snapshot")
    java.nio.file.Path save;

    @Option(names = "--passes", defaultValue = "fused", paramLabel = "fused|separate", order = 8,
            converter = PassesConverter.class,
            description = "fused: gravity, damping, integration and the countdown in one pass per archetype; "
                    + "separate: one pass per kernel. The same state either way (default: ${DEFAULT-VALUE})")
    ParticleSimulation.Passes passes;

    /** Takes {@code fused} or {@code separate} in any case. */
    static final class PassesConverter implements picocli.CommandLine.ITypeConverter<ParticleSimulation.Passes> {
        @Override
        public ParticleSimulation.Passes convert(String value) {
            for (ParticleSimulation.Passes p : ParticleSimulation.Passes.values()) {
                if (p.optionValue().equalsIgnoreCase(value.trim())) {
                    return p;
                }
            }
            throw new picocli.CommandLine.TypeConversionException("--passes must be fused or separate, got '"
                    + value + "'");
        }
    }

    @Override
    FrameWorkload create(int entities, int seed, KernelChoice kernels, int threads) {
        try {
            return new ParticleSimulation(entities, seed, kernels, threads, load, passes);
        } catch (dev.jtecs.snapshot.InvalidSnapshotException | java.io.UncheckedIOException e) {
            // a damaged or foreign file is the user's input: say what is wrong with it, not where the loader was
            throw usage("--load " + load + ": " + e.getMessage());
        }
    }

    @Override
    void validateMore() {
        if (load != null && !java.nio.file.Files.isRegularFile(load)) {
            throw usage("--load " + load + " is not a file");
        }
        if (save != null && (java.nio.file.Files.isDirectory(save) || save.toAbsolutePath().getParent() == null
                || !java.nio.file.Files.isDirectory(save.toAbsolutePath().getParent()))) {
            throw usage("--save " + save + " must name a file in an existing directory");
        }
    }

    @Override
    void finish(FrameWorkload workload, java.io.PrintStream out) {
        if (save != null) {
            dev.jtecs.snapshot.Snapshot saved = ((ParticleSimulation) workload).save(save, null);
            row(out, "saved", save + String.format(java.util.Locale.ROOT, " (%,d particles, %,d bytes)",
                    saved.entityCount(), saved.buffer().byteSize()));
        }
        if (load != null) {
            row(out, "loaded", load.toString());
        }
    }
}
