package dev.jtecs.mutation.internal;

import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.event.OnDespawn;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.event.internal.ObserverRegistry;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.NativeMemory;
import dev.jtecs.storage.internal.Table;

/** A drain over its own index and registry, for the tests of the drain's parts; close it after use. */
final class DrainFixture implements AutoCloseable {
    final NativeMemory memory = new NativeMemory();
    final EntityIndex index;
    final ArchetypeRegistry registry = new ArchetypeRegistry(memory);
    final Transaction tx = new Transaction();
    final SparseWriteQueue sparse = new SparseWriteQueue();
    final ObserverRegistry observers = new ObserverRegistry();
    final LifecycleEvents lifecycle;
    final CommitDrain drain;

    DrainFixture(DrainHooks hooks) {
        this(hooks, 1000);
    }

    /** A fixture whose index holds up to {@code maxEntities} entities. */
    DrainFixture(DrainHooks hooks, int maxEntities) {
        index = new EntityIndex(maxEntities);
        lifecycle = new LifecycleEvents(index, registry, observers, new OnDespawn.Context() {
            @Override
            public <T> T committedValue(long entity, Component<T> component) {
                return null; // no world behind the fixture: nothing committed to read
            }

            @Override
            public void despawn(long entity) {
                throw new UnsupportedOperationException("the drain fixture has no world to despawn in");
            }
        });
        drain = new CommitDrain(index, registry, tx, sparse, new KeyIndex(id -> null), lifecycle, hooks);
    }

    DrainFixture() {
        this(DrainHooks.NONE);
    }

    /** Reserves an id and stages its spawn with these inputs. */
    long stageSpawn(Input... inputs) {
        long id = index.allocate();
        int record = tx.begin(id, Entity.slot(id), TxState.STAGED_SPAWN);
        for (Input input : inputs) {
            tx.put(record, input.component(), input);
        }
        return id;
    }

    Table tableOf(long id) {
        return registry.ofStore(index.storeOf(Entity.slot(id)));
    }

    @Override
    public void close() {
        registry.close();
        memory.close();
    }
}
