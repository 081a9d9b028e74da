package dev.jtecs.snapshot;

import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * A named participant in snapshots (world.addSnapshotHandler): on save, {@link #save} returns the detached
 * value stored under {@link #name()} (return {@code null} to store nothing); on load, {@link #load} receives that
 * value when the snapshot has one, and {@link #finish} runs once the load's metadata is restored. Handlers run
 * in registration order, as if they were the first observers of the snapshot events: a save calls every
 * handler's {@code save} before {@link OnSnapshotSave} is delivered; a load calls, per custom data key, the
 * handler of that name before the {@link StartSnapshotLoad#onData} listeners, and every handler's
 * {@code finish} before {@link FinishSnapshotLoad} is delivered.
 *
 * @param <W> the world type handed in ({@code World})
 */
public interface SnapshotHandler<W> {
    /** The unique, non-empty key the handler's value is stored under; never the reserved random key. */
    String name();

    /** The value to store, or {@code null} for none. */
    default Object save(W world) {
        return null;
    }

    /** Receives the value saved under {@link #name()}; not called when the snapshot has none. */
    default void load(W world, Object value) {
    }

    /** Runs after the load has restored entities, random streams, states, the pipeline and custom data. */
    default void finish(W world, SnapshotPrelude prelude) {
    }

    /** A handler made of a save and a load function (either may be {@code null}: it does nothing). */
    static <W> SnapshotHandler<W> of(String name, Function<? super W, ?> save, BiConsumer<? super W, Object> load) {
        Objects.requireNonNull(name, "name");
        return new SnapshotHandler<>() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Object save(W world) {
                return save == null ? null : save.apply(world);
            }

            @Override
            public void load(W world, Object value) {
                if (load != null) {
                    load.accept(world, value);
                }
            }

            @Override
            public String toString() {
                return "SnapshotHandler[" + name + "]";
            }
        };
    }
}
