package dev.jtecs.bench.cli;

import dev.jtecs.bench.frame.FrameWorkload;
import dev.jtecs.bench.frame.KernelChoice;
import dev.jtecs.bench.transforms.TransformsSimulation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jtecs transforms}: {@code ChildOf} forests with {@code RelativeTransform2D} ({@link TransformsSimulation}):
 * roots moved at random each frame, world transforms composed parent first, changed transforms extracted.
 */
@Command(name = "transforms", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run the transforms workload: ChildOf trees 4 levels deep (3 children per inner node) "
                + "with RelativeTransform2D, roots moved at random each frame, world transforms composed parent "
                + "first, and a dirty-driven extraction of Transform2D into an output buffer.",
            "Prints a summary table and the final state's checksum (the same seed gives the same checksum)."})
public final class TransformsCommand extends FrameJobCommand {
    @Option(names = "--entities", defaultValue = "100000", paramLabel = "N", order = 0,
            description = "entities in the forest, at least 1 (default: ${DEFAULT-VALUE})")
    int entities;

    @Override
    int entities() {
        return entities;
    }

    @Override
    int maxEntities() {
        return TransformsSimulation.MAX_ENTITIES;
    }

    @Override
    FrameWorkload create(int entities, int seed, KernelChoice kernels, int threads) {
        return new TransformsSimulation(entities, seed, kernels, threads);
    }
}
