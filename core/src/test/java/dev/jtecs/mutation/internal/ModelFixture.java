package dev.jtecs.mutation.internal;

import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.NativeMemory;
import dev.jtecs.storage.internal.Table;

/**
 * A mutation model over an entity index and an archetype registry of its own, with no observers and no state tag,
 * for tests of the drain's parts without a world; close it.
 */
final class ModelFixture implements AutoCloseable {
    final NativeMemory memory = new NativeMemory();
    final ArchetypeRegistry registry = new ArchetypeRegistry(memory);
    final EntityIndex index;
    final MutationModel model;

    /** A rig whose model reports to no hooks. */
    ModelFixture() {
        this(DrainHooks.NONE);
    }

    /** A rig whose model reports to {@code hooks}, in a world of at most 100 entities. */
    ModelFixture(DrainHooks hooks) {
        this(hooks, 100);
    }

    /** A rig whose model reports to no hooks, in a world of at most {@code maxEntities}. */
    ModelFixture(int maxEntities) {
        this(DrainHooks.NONE, maxEntities);
    }

    private ModelFixture(DrainHooks hooks, int maxEntities) {
        index = new EntityIndex(maxEntities);
        model = new MutationModel(index, registry, new dev.jtecs.event.internal.ObserverRegistry(), () -> null, null,
                hooks);
    }

    /** The table the entity {@code id} is published in. */
    Table tableOf(long id) {
        return registry.ofStore(index.storeOf(Entity.slot(id)));
    }

    @Override
    public void close() {
        registry.close();
        memory.close();
    }
}
