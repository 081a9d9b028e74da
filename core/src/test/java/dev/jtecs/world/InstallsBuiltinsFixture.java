package dev.jtecs.world;

import dev.jtecs.builtin.systems.BuiltinSystems;

/**
 * A world class that names the builtin systems, as {@code World} once did: breaks the layers and closes a
 * package cycle (see {@code CoreArchitectureRulesTest}).
 */
final class InstallsBuiltinsFixture {
    private InstallsBuiltinsFixture() {}

    static void install(World world) {
        BuiltinSystems.install(world);
    }
}
