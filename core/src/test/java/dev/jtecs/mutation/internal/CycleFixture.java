package dev.jtecs.mutation.internal;

import dev.jtecs.relation.internal.Relations;

/** A drain class that names the relation layer back: a package cycle (see {@code CoreArchitectureRulesTest}). */
final class CycleFixture {
    private CycleFixture() {}

    static DrainHooks hooks(Relations relations) {
        return relations;
    }
}
