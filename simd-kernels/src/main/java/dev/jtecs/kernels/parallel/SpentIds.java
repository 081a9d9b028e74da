package dev.jtecs.kernels.parallel;

import dev.jtecs.kernels.LifetimeCountdown;
import dev.jtecs.world.World;
import java.util.Objects;

/**
 * The entities a parallel countdown pass found spent: gathered from its chunks' requests in chunk order (which is
 * the single-threaded list, entry for entry), read back by index, and despawned in one scope. Shared by
 * {@link ParallelLifetimeCountdown} and {@link ParallelParticleStep}.
 */
final class SpentIds {
    private long[] ids = new long[64];
    private int count;

    /** Forgets the list and every chunk's requests (a new pass begins, or the list was despawned). */
    void clear(ChunkPlan plan) {
        count = 0;
        for (int c = 0; c < plan.chunkCount(); c++) {
            plan.chunk(c).commands.reset(0);
        }
    }

    /** Appends the ids of every chunk's requests, in chunk order. */
    void collect(ChunkPlan plan) {
        int total = CommandMerge.size(plan);
        if (ids.length < total) {
            ids = new long[Math.max(total, ids.length * 2)];
        }
        for (int c = 0; c < plan.chunkCount(); c++) {
            ChunkCommands commands = plan.chunk(c).commands;
            for (int i = 0; i < commands.size(); i++) {
                ids[count++] = commands.id(i);
            }
        }
    }

    int count() {
        return count;
    }

    long get(int index) {
        Objects.checkIndex(index, count);
        return ids[index];
    }

    /** Despawns the listed entities still alive, in one scope, then clears the list; returns how many it staged. */
    int despawn(World world, ChunkPlan plan) {
        Objects.requireNonNull(world, "world");
        if (count == 0) {
            return 0;
        }
        try {
            return LifetimeCountdown.despawnAlive(world, ids, count);
        } finally {
            clear(plan);
        }
    }
}
