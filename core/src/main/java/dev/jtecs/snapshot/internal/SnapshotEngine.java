package dev.jtecs.snapshot.internal;

import dev.jtecs.component.Component;
import dev.jtecs.entity.Entity;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.event.internal.ObserverRegistry;
import dev.jtecs.mutation.BatchCallback;
import dev.jtecs.mutation.internal.MutationModel;
import dev.jtecs.random.RandomStreams;
import dev.jtecs.snapshot.FinishSnapshotLoad;
import dev.jtecs.snapshot.OnSnapshotSave;
import dev.jtecs.snapshot.Snapshot;
import dev.jtecs.snapshot.SnapshotComponentEntry;
import dev.jtecs.snapshot.SnapshotFormat;
import dev.jtecs.snapshot.SnapshotHandler;
import dev.jtecs.snapshot.SnapshotOptions;
import dev.jtecs.snapshot.SnapshotPrelude;
import dev.jtecs.snapshot.StartSnapshotLoad;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.SparseEdges;
import dev.jtecs.storage.internal.Table;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One world's snapshots: saving (publish, collect custom data, select, write a table or the binary framing) and
 * loading (decode and validate everything, then replace the entities through the mutation model's restoration
 * batches and restore the durable metadata), with the named handlers and the three events in between.
 *
 * <pre>
 *   save: checks ─► publish staged work ─► options' customData ─► handlers' save ─► OnSnapshotSave
 *         ─► jtecs.random ─► frames (filter, layers, exclusions, cascades, transient) ─► table | binary (+ file)
 *   load: checks ─► decode + validate all (codecs' load/deserialize run here) ─► StartSnapshotLoad
 *         ─► clear + restore entities (one scope: old rows leave, restored rows arrive through membership
 *            callbacks) ─► states, pipeline ─► random streams ─► per data key: handler.load, onData listeners
 *         ─► handlers' finish ─► FinishSnapshotLoad ─► prelude
 * </pre>
 *
 * <p>Nothing changes in the world until validation has passed; what can still fail afterwards is user code
 * (membership callbacks, data listeners, handlers), with the usual commit failure semantics.
 */
public final class SnapshotEngine {
    private final EntityIndex index;
    private final ArchetypeRegistry archetypes;
    private final MutationModel mutations;
    private final ObserverRegistry observers;
    private final RandomStreams random;
    private final SnapshotHost host;
    private final List<SnapshotHandler<Object>> handlers = new ArrayList<>();
    private boolean busy;
    private final LoadScratch scratch = new LoadScratch();

    public SnapshotEngine(EntityIndex index, ArchetypeRegistry archetypes, MutationModel mutations,
            ObserverRegistry observers, RandomStreams random, SnapshotHost host) {
        this.index = index;
        this.archetypes = archetypes;
        this.mutations = mutations;
        this.observers = observers;
        this.random = random;
        this.host = host;
    }

    /**
     * Registers a named handler.
     *
     * @throws IllegalArgumentException for an empty or reserved name, or one a handler already has
     */
    @SuppressWarnings("unchecked")
    public void addHandler(SnapshotHandler<?> handler) {
        Objects.requireNonNull(handler, "handler");
        String name = Objects.requireNonNull(handler.name(), "handler name");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("addSnapshotHandler: a handler needs a non-empty name");
        }
        if (name.equals(Snapshot.RANDOM_KEY)) {
            throw new IllegalArgumentException("addSnapshotHandler: '" + name + "' is reserved for the random "
                    + "streams");
        }
        for (SnapshotHandler<Object> existing : handlers) {
            if (existing.name().equals(name)) {
                throw new IllegalArgumentException("addSnapshotHandler: a handler named '" + name
                        + "' is registered already");
            }
        }
        handlers.add((SnapshotHandler<Object>) handler);
    }

    /** The registered handlers' names, in registration order. */
    public List<String> handlerNames() {
        List<String> names = new ArrayList<>();
        for (SnapshotHandler<Object> handler : handlers) {
            names.add(handler.name());
        }
        return names;
    }

    private void enter(String operation) {
        host.checkQuiet(operation);
        if (busy) {
            throw new IllegalStateException(operation + ": a snapshot save or load is already running in this world "
                    + "(called from a snapshot event or handler)");
        }
        busy = true;
    }

    // ---------------------------------------------------------------- save

    public Snapshot save(SnapshotOptions options) {
        SnapshotOptions opts = options == null ? SnapshotOptions.defaults() : options;
        enter("saveSnapshot");
        try {
            return saveChecked(opts);
        } finally {
            busy = false;
        }
    }

    private Snapshot saveChecked(SnapshotOptions options) {
        SnapshotFormat format = options.format();
        if (format == SnapshotFormat.TABLE && (options.buffer() != null || options.path() != null)) {
            throw new IllegalArgumentException("saveSnapshot: a buffer or a path needs the binary format, not "
                    + options);
        }
        LinkedHashMap<String, Object> data = new LinkedHashMap<>();
        for (Map.Entry<String, Object> entry : options.customData().entrySet()) {
            if (entry.getKey().equals(Snapshot.RANDOM_KEY)) {
                throw new IllegalArgumentException("saveSnapshot: customData key '" + Snapshot.RANDOM_KEY
                        + "' is reserved for the random streams");
            }
            data.put(entry.getKey(), Trees.detach(entry.getValue(), "saveSnapshot: customData '" + entry.getKey()
                    + "'"));
        }
        host.publishPending();
        Object facade = host.facade();
        for (SnapshotHandler<Object> handler : handlers) {
            Object value = handler.save(facade);
            if (value != null) {
                if (data.containsKey(handler.name())) {
                    throw new IllegalArgumentException("saveSnapshot: handler '" + handler.name() + "' saves under a "
                            + "key the customData already uses");
                }
                data.put(handler.name(), Trees.detach(value, "saveSnapshot: handler '" + handler.name() + "'"));
            }
        }
        OnSnapshotSave event = new OnSnapshotSave(key -> data.containsKey(key) || key.equals(Snapshot.RANDOM_KEY));
        try {
            observers.deliver(Entity.WORLD, OnSnapshotSave.class, event);
        } finally {
            event.close();
        }
        for (Map.Entry<String, Object> entry : event.data().entrySet()) {
            data.put(entry.getKey(), Trees.detach(entry.getValue(), "saveSnapshot: addData '" + entry.getKey()
                    + "'"));
        }
        if (random.isPersistent()) {
            Map<String, Object> payload = new LinkedHashMap<>();
            payload.put("seed", random.seed());
            Map<String, Object> streams = new LinkedHashMap<>();
            for (Map.Entry<String, int[]> stream : random.states().entrySet()) {
                int[] s = stream.getValue();
                streams.put(stream.getKey(), new ArrayList<>(List.of(s[0], s[1], s[2], s[3])));
            }
            payload.put("streams", streams);
            data.put(Snapshot.RANDOM_KEY, payload);
        }
        int highWater = index.highWater();
        SaveModel model = new SaveModel(archetypes, highWater, options.filter(), options.layers(),
                event.excluded());
        List<SnapshotComponentEntry> entries = new ArrayList<>();
        for (Component<?> component : model.components) {
            entries.add(Schema.entry(component));
        }
        SnapshotPrelude prelude = new SnapshotPrelude(Snapshot.VERSION, highWater, model.entityCount,
                model.frames.size(), entries);
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("format", "jtecs-snapshot");
        meta.put("version", Snapshot.VERSION);
        meta.put("nextEntityId", highWater);
        meta.put("entityCount", model.entityCount);
        meta.put("archetypeCount", model.frames.size());
        meta.put("componentTable", SnapshotWriter.componentTable(entries));
        int[] freeSlots = index.freeStack();
        int[] freeGenerations = new int[freeSlots.length];
        for (int i = 0; i < freeSlots.length; i++) {
            freeGenerations[i] = index.generationOf(freeSlots[i]);
        }
        Map<String, Object> tail = new LinkedHashMap<>();
        tail.put("data", data);
        tail.put("states", new ArrayList<>(host.states()));
        Map<String, Object> pipeline = new LinkedHashMap<>();
        pipeline.put("fixedAccumulator", host.fixedAccumulator());
        Map<String, Object> phases = new LinkedHashMap<>();
        for (String leaf : host.leafPhases()) {
            phases.put(leaf, host.isPhaseEnabled(leaf));
        }
        pipeline.put("phases", phases);
        tail.put("pipeline", pipeline);
        SparseEdges sparse = archetypes.sparseEdges();
        if (format == SnapshotFormat.TABLE) {
            SnapshotWriter writer = new SnapshotWriter(model, sparse, false);
            Map<String, Object> root = new LinkedHashMap<>(meta);
            List<Object> free = new ArrayList<>(freeSlots.length * 2);
            for (int i = 0; i < freeSlots.length; i++) {
                free.add(freeSlots[i]);
                free.add(freeGenerations[i]);
            }
            root.put("freeSlots", free);
            List<Object> frames = new ArrayList<>();
            for (SaveModel.Frame frame : model.frames) {
                frames.add(writer.frame(frame));
            }
            root.put("archetypes", frames);
            root.putAll(tail);
            return Snapshot.ofTable(prelude, root);
        }
        meta.putAll(tail);
        MemorySegment bytes = new SnapshotWriter(model, sparse, true).binary(meta, freeSlots, freeGenerations,
                options.buffer(), highWater);
        if (options.path() != null) {
            writeFile(options.path(), bytes);
        }
        return Snapshot.ofBinary(prelude, bytes, options.path());
    }

    private static void writeFile(Path path, MemorySegment bytes) {
        Path temporary = path.resolveSibling(path.getFileName() + ".tmp");
        try {
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                writeChunked(channel, bytes, 1L << 30);
            }
            try {
                Files.move(temporary, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, path, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new UncheckedIOException("saveSnapshot: writing " + path + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Writes all of {@code bytes} to {@code channel} in chunks of at most {@code chunk} bytes: a byte buffer view
     * holds at most 2 GiB, so a larger snapshot goes out in pieces (package-private so a test can see the pieces
     * join up without a file of gigabytes).
     */
    static void writeChunked(java.nio.channels.WritableByteChannel channel, MemorySegment bytes, long chunk)
            throws IOException {
        long done = 0;
        while (done < bytes.byteSize()) {
            long n = Math.min(bytes.byteSize() - done, chunk);
            ByteBuffer piece = bytes.asSlice(done, n).asByteBuffer();
            while (piece.hasRemaining()) {
                channel.write(piece);
            }
            done += n;
        }
    }

    // ---------------------------------------------------------------- load

    /** Loads a table snapshot (the tree of a table snapshot, or JSON read back into maps and lists). */
    public SnapshotPrelude loadTable(Map<?, ?> table) {
        Objects.requireNonNull(table, "snapshot");
        enter("loadSnapshot");
        try {
            return apply(reader().table(table));
        } finally {
            busy = false;
        }
    }

    /** Loads the bytes of a binary snapshot; the segment is read during the call only. */
    public SnapshotPrelude loadBinary(MemorySegment bytes) {
        Objects.requireNonNull(bytes, "snapshot");
        enter("loadSnapshot");
        try {
            return apply(reader().binary(bytes));
        } finally {
            busy = false;
        }
    }

    /** Loads the bytes of a binary snapshot held in a heap array. */
    public SnapshotPrelude loadBytes(byte[] bytes) {
        return loadBinary(MemorySegment.ofArray(Objects.requireNonNull(bytes, "snapshot")));
    }

    /** Loads a binary snapshot file, memory-mapped (read in place, no heap copy), unmapped before returning. */
    public SnapshotPrelude loadFile(Path path) {
        Objects.requireNonNull(path, "path");
        host.checkQuiet("loadSnapshot");
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
                Arena arena = Arena.ofConfined()) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            return loadBinary(mapped);
        } catch (IOException e) {
            throw new UncheckedIOException("loadSnapshot: reading " + path + " failed: " + e.getMessage(), e);
        }
    }

    /** Loads a snapshot a save returned. */
    public SnapshotPrelude load(Snapshot snapshot) {
        Objects.requireNonNull(snapshot, "snapshot");
        return snapshot.format() == SnapshotFormat.TABLE ? loadTable(snapshot.table())
                : loadBinary(snapshot.buffer());
    }

    /**
     * Gives back the arrays kept for the next load ({@link LoadScratch}: about 16 bytes per entity the last load
     * restored, and 4 per slot below its {@code nextEntityId}); the next load allocates them again.
     */
    public void releaseScratch() {
        scratch.release();
    }

    private SnapshotReader reader() {
        return new SnapshotReader(index.maxEntities(), host, scratch);
    }

    private SnapshotPrelude apply(LoadModel model) {
        SnapshotPrelude prelude = model.prelude;
        StartSnapshotLoad start = new StartSnapshotLoad(prelude);
        try {
            observers.deliver(Entity.WORLD, StartSnapshotLoad.class, start);
        } finally {
            start.close();
        }
        MutationModel.RestoreBatch[] batches = new MutationModel.RestoreBatch[model.frames.size()];
        for (int f = 0; f < batches.length; f++) {
            LoadModel.Frame frame = model.frames.get(f);
            batches[f] = new MutationModel.RestoreBatch(frame.ids, frame.count, frame.inputs, initializer(frame),
                    frame.slots, frame.rows, frame.from, initialized(frame));
        }
        mutations.restore(model.highWater, model.freeSlots, model.freeGenerations, model.restoredSlots,
                model.restoredGenerations, model.restoredCount, batches);
        if (model.states != null) {
            host.restoreStates(model.states);
        }
        if (model.fixedAccumulator != null) {
            host.restoreFixedAccumulator(model.fixedAccumulator);
            for (Map.Entry<String, Boolean> phase : model.phases.entrySet()) {
                host.setPhaseEnabled(phase.getKey(), phase.getValue());
            }
        }
        if (model.randomSeed != null) {
            random.restore(model.randomSeed, model.randomStreams);
        }
        Object facade = host.facade();
        for (Map.Entry<String, Object> entry : model.data.entrySet()) {
            for (SnapshotHandler<Object> handler : handlers) {
                if (handler.name().equals(entry.getKey())) {
                    handler.load(facade, entry.getValue());
                }
            }
            for (Consumer<Object> listener : start.listeners(entry.getKey())) {
                listener.accept(entry.getValue());
            }
        }
        for (SnapshotHandler<Object> handler : handlers) {
            handler.finish(facade, prelude);
        }
        observers.deliver(Entity.WORLD, FinishSnapshotLoad.class, new FinishSnapshotLoad(prelude));
        return prelude;
    }

    /**
     * The components whose every column the initializer writes in full: those it fills field by field (a raw
     * block or a constant per field: {@code SnapshotReader} gives such a component a fill for every native field)
     * and that keep nothing in a heap column.
     */
    private static java.util.Set<Component<?>> initialized(LoadModel.Frame frame) {
        java.util.Set<Component<?>> written = new java.util.HashSet<>();
        for (LoadModel.Fill fill : frame.fills) {
            LoadModel.Target target = switch (fill) {
                case LoadModel.Raw raw -> raw.target();
                case LoadModel.Constant constant -> constant.target();
                case LoadModel.Values values -> null;
            };
            if (target != null && target.relationship() == null && !Schema.layout(target.component()).heapColumn()) {
                written.add(target.component());
            }
        }
        return written;
    }

    /** The initializer of one frame's batch: every fill over the placed rows, then the sparse edges. */
    private BatchCallback initializer(LoadModel.Frame frame) {
        SparseEdges sparse = archetypes.sparseEdges();
        return (archetype, from, to) -> {
            Table table = archetypes.get(archetype.id());
            int n = to - from;
            if (n == frame.count) {
                for (LoadModel.Fill fill : frame.fills) {
                    switch (fill) {
                        case LoadModel.Raw raw -> table.importColumn(raw.target().position(table), raw.field(), from, n,
                                raw.source(), 0);
                        case LoadModel.Constant constant -> table.fillColumn(constant.target().position(table),
                                constant.field(), from, to, constant.boxed());
                        case LoadModel.Values values -> {
                            int position = values.target().position(table);
                            for (int i = 0; i < n; i++) {
                                write(table, position, from + i, values, i);
                            }
                        }
                    }
                }
                for (LoadModel.Sparse edges : frame.sparse) {
                    for (int i = 0; i < n; i++) {
                        addEdges(sparse, edges, table.entityAt(from + i), i);
                    }
                }
                return;
            }
            mapped(table, frame, from, to, sparse); // a membership callback despawned some ids before placement
        };
    }

    private static void write(Table table, int position, int row, LoadModel.Values values, int i) {
        if (values.heap()) {
            table.writeHeapValue(position, row, values.values()[i]);
        } else {
            table.writeValue(position, row, values.values()[i]);
        }
    }

    private static void addEdges(SparseEdges sparse, LoadModel.Sparse edges, long entity, int i) {
        for (int k = edges.offsets()[i]; k < edges.offsets()[i + 1]; k++) {
            sparse.add(edges.relationship(), entity, edges.targets()[k],
                    edges.payloads() == null ? null : edges.payloads()[k]);
        }
    }

    /** Fills rows whose entities are a subset of the frame's, finding each one's frame index by its id. */
    private static void mapped(Table table, LoadModel.Frame frame, int from, int to, SparseEdges sparse) {
        long[] ids = new long[frame.count];
        MemorySegment.copy(frame.ids, ValueLayout.JAVA_LONG_UNALIGNED, 0, ids, 0, ids.length);
        Map<Long, Integer> indexOf = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            indexOf.put(ids[i], i);
        }
        for (int row = from; row < to; row++) {
            long entity = table.entityAt(row);
            int i = indexOf.get(entity);
            for (LoadModel.Fill fill : frame.fills) {
                switch (fill) {
                    case LoadModel.Raw raw -> {
                        int position = raw.target().position(table);
                        long size = table.nativeKindAt(position, raw.field()).byteSize();
                        table.importColumn(position, raw.field(), row, 1, raw.source(), size * i);
                    }
                    case LoadModel.Constant constant -> table.fillColumn(constant.target().position(table),
                            constant.field(), row, row + 1, constant.boxed());
                    case LoadModel.Values values -> write(table, values.target().position(table), row, values, i);
                }
            }
            for (LoadModel.Sparse edges : frame.sparse) {
                addEdges(sparse, edges, entity, i);
            }
        }
    }
}
