package dev.jtecs.storage;

import dev.jtecs.world.World;

/** A storage class that names the world: breaks the layers (see {@code CoreArchitectureRulesTest}). */
final class ReachesUpFixture {
    private ReachesUpFixture() {}

    static int entities(World world) {
        return world.entityCount();
    }
}
