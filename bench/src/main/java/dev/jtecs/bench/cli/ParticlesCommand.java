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

    @Override
    FrameWorkload create(int entities, int seed, KernelChoice kernels, int threads) {
        return new ParticleSimulation(entities, seed, kernels, threads);
    }
}
