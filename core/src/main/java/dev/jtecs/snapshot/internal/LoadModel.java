package dev.jtecs.snapshot.internal;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.snapshot.SnapshotPrelude;
import dev.jtecs.storage.internal.Table;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * A snapshot decoded and validated against the destination world, ready to apply: nothing in it can fail any
 * more except user callbacks. Frames carry their ids (native byte order), the inputs of their restoration batch
 * and what the batch initializer writes.
 */
final class LoadModel {
    SnapshotPrelude prelude;
    int highWater;
    int[] freeSlots = new int[0];
    int[] freeGenerations = new int[0];
    int[] restoredSlots = new int[0]; // ascending in [0, restoredCount); the array may be longer (reused)
    int[] restoredGenerations = new int[0]; // of each restored slot's id, in restoredSlots' order
    int restoredCount;
    final List<Frame> frames = new ArrayList<>();
    Integer randomSeed;
    LinkedHashMap<String, int[]> randomStreams;
    List<String> states;
    Double fixedAccumulator;
    LinkedHashMap<String, Boolean> phases;
    final LinkedHashMap<String, Object> data = new LinkedHashMap<>();

    /** Where a fill writes: a component's column, or the payload column of the pair (relationship, target). */
    record Target(Component<?> component, BaseRelationship<?> relationship, long target) {
        int position(Table table) {
            return relationship == null ? table.position(component.id()) : table.pairPosition(relationship, target);
        }
    }

    /** What the initializer writes into one column of the placed rows. */
    sealed interface Fill permits Raw, Constant, Values {}

    /** A block of little-endian elements, one per frame row, copied in bulk. */
    record Raw(Target target, int field, MemorySegment source) implements Fill {}

    /** One value in every row (a field added since the save, or a pair's target). */
    record Constant(Target target, int field, Object boxed) implements Fill {}

    /** One value per frame row: heap values, or records written field by field. */
    record Values(Target target, Object[] values, boolean heap) implements Fill {}

    /** The sparse edges of one relationship: row i holds {@code targets[offsets[i], offsets[i + 1])}. */
    record Sparse(BaseRelationship<?> relationship, int[] offsets, long[] targets, Object[] payloads) {}

    static final class Frame {
        int count;
        MemorySegment ids; // count longs, native byte order
        int[] slots; // the slots of the ids, ascending, in [from, from + count); the array may be longer (shared)
        int[] rows; // the index in ids of each of slots' entities, at the same indices
        int from;
        Input[] inputs;
        final List<Fill> fills = new ArrayList<>();
        final List<Sparse> sparse = new ArrayList<>();
    }
}
