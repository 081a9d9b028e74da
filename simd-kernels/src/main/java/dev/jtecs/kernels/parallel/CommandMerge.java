package dev.jtecs.kernels.parallel;

import dev.jtecs.world.World;

/**
 * The deterministic merge of the chunk buffers of one parallel pass: on the calling thread, after every worker has
 * finished, each chunk's requests are mapped from rows to entity ids and then applied to the world in chunk order
 * (archetype order, then row order), never in the order the workers happened to finish.
 *
 * <pre>
 *   resolve: chunk 0, 1, 2, ...: ids[i] = archetype.entities()[firstRow + row[i]]   (rows are still valid: the
 *                                                                                   query's scope is open)
 *   apply:   world.defer(); chunk 0, 1, 2, ...: request i ──► despawn / set / remove; world.commit()
 * </pre>
 *
 * <p>Every id is resolved before any request is applied, so an observer that runs during the application (an
 * {@code OnDespawn} handler, say) cannot shift the rows under the mapping. The requests of one pass publish
 * together: when the scope closes, or with the enclosing scope when one is open. A request whose entity is no
 * longer alive is skipped; a request the world refuses throws, the requests before it stay staged, and the ones
 * after it are dropped.
 */
final class CommandMerge {
    private CommandMerge() {}

    /** Maps every chunk's rows to entity ids; calling thread, inside the scope the rows were read in. */
    static void resolve(ChunkPlan plan) {
        for (int c = 0; c < plan.chunkCount(); c++) {
            ChunkPlan.Chunk chunk = plan.chunk(c);
            if (chunk.commands.size() > 0) {
                chunk.commands.resolve(plan.archetype(chunk.archetype).entities(), chunk.firstRow);
            }
        }
    }

    /**
     * Applies every chunk's resolved requests in chunk order, in one scope of {@code world}.
     *
     * @return how many requests reached the world
     */
    static int apply(World world, ChunkPlan plan) {
        int applied = 0;
        world.defer();
        try {
            for (int c = 0; c < plan.chunkCount(); c++) {
                ChunkCommands commands = plan.chunk(c).commands;
                if (commands.size() > 0) {
                    applied += commands.apply(world);
                }
            }
        } finally {
            world.commit();
        }
        return applied;
    }

    /** How many requests the pass's chunks recorded. */
    static int size(ChunkPlan plan) {
        int size = 0;
        for (int c = 0; c < plan.chunkCount(); c++) {
            size += plan.chunk(c).commands.size();
        }
        return size;
    }
}
