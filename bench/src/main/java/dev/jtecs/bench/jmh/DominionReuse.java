package dev.jtecs.bench.jmh;

import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import java.util.ArrayList;
import java.util.List;

/**
 * One Dominion world kept for a whole trial and emptied, untimed, before each operation, for the workloads whose
 * operation needs an empty world (the spawn workloads).
 *
 * <p>Why not a new world per operation, as the other engines get: Dominion 0.9.0 gives every world a slot in a
 * static logging registry of 1,024 entries ({@code Logging.registerLoggingLevel}, slot 0 its root), and
 * {@code close()} never frees it, so the 1,024th {@code Dominion.create()} in one JVM throws
 * {@code ArrayIndexOutOfBoundsException: Index 1024}. A fork that runs a short operation for seconds makes
 * thousands. Emptying uses Dominion's own delete, {@code deleteEntity}, on every entity {@code findAllEntities}
 * lists (collected first: deleting while its results iterate is not documented as safe); the world keeps its
 * chunks and recycles the ids, so the next operation finds warm storage, which favours Dominion.
 *
 * <pre>
 *   trial:      create ─┐
 *   operation:          ├─ empty (untimed) ── measured spawns ── empty ── measured spawns ── ...
 *   trial end:          └─ close
 * </pre>
 */
final class DominionReuse implements AutoCloseable {
    /** The size of Dominion's static logging registry: at most this many worlds, less one, per JVM. */
    static final int REGISTRY_SLOTS = 1024;

    private Dominion dominion;
    private final List<Entity> held = new ArrayList<>();

    /** The trial's world, created on first use, holding no entity. */
    Dominion empty() {
        if (dominion == null) {
            dominion = dev.jtecs.bench.peers.DominionWorlds.create();
            return dominion;
        }
        for (Entity entity : dominion.<Entity>findAllEntities()) {
            held.add(entity);
        }
        for (Entity entity : held) {
            dominion.deleteEntity(entity);
        }
        held.clear();
        return dominion;
    }

    /** Closes the world, if one was created; the next {@link #empty} creates another. */
    @Override
    public void close() {
        if (dominion != null) {
            dominion.close();
            dominion = null;
        }
    }
}
