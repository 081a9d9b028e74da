package dev.jtecs.world;

import jdk.incubator.vector.FloatVector;

/** A core class that names the Vector API: breaks the vector fence (see {@code CoreArchitectureRulesTest}). */
final class UsesVectorsFixture {
    private UsesVectorsFixture() {}

    static int lanes() {
        return FloatVector.SPECIES_PREFERRED.length();
    }
}
