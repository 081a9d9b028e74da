/**
 * The jtecs core: entities, components, archetype storage, the mutation model, the world, its scheduler, its
 * states and its random streams.
 */
module dev.jtecs.core {
    requires transitive org.joml; // Transform3D's helpers take and return JOML types
    // optional: the heap's region size, to fit large arrays to it (entity.internal.Growth); unresolved, no fitting
    requires static jdk.management;

    exports dev.jtecs.entity;
    exports dev.jtecs.component;
    exports dev.jtecs.storage;
    exports dev.jtecs.mutation;
    exports dev.jtecs.relation;
    exports dev.jtecs.world;
    exports dev.jtecs.event;
    exports dev.jtecs.builtin;
    exports dev.jtecs.builtin.systems;
    exports dev.jtecs.query;
    exports dev.jtecs.schedule;
    exports dev.jtecs.state;
    exports dev.jtecs.random;
    exports dev.jtecs.snapshot;
    // the allocation fault switch (AllocationFaults), for the fault-injection runs of the stress suite only
    exports dev.jtecs.entity.internal to dev.jtecs.stress;
}
