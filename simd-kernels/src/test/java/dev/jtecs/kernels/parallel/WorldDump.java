package dev.jtecs.kernels.parallel;

import dev.jtecs.component.Component;
import dev.jtecs.component.FloatField;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * A world's observable state as bytes, for byte-for-byte comparisons: every archetype in registry order with its
 * signature, row count, entity ids, every component value of every row (the float columns of Position and
 * Velocity as raw bits, so NaN payloads and signed zeros count), dirty flags and write counts per component and
 * the structural count; then a log of events and the ids that the next spawns receive (the free list's order).
 */
final class WorldDump {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final DataOutputStream out = new DataOutputStream(bytes);

    private WorldDump() {}

    /** The state of {@code world} followed by {@code events}; spawns {@code probes} entities to read the free list. */
    static byte[] of(World world, List<String> events, int probes) {
        WorldDump dump = new WorldDump();
        world.forEachArchetype(dump::archetype);
        dump.text("events " + events.size());
        for (String event : events) {
            dump.text(event);
        }
        for (int i = 0; i < probes; i++) {
            dump.number(world.spawn(ParallelWorlds.HOT));
        }
        dump.number(world.entityCount());
        return dump.bytes.toByteArray();
    }

    private void archetype(Archetype archetype) {
        text("archetype " + archetype.id() + " count=" + archetype.count());
        List<Component<?>> components = archetype.components();
        for (Component<?> component : components) {
            text(component.name() + " dirty=" + archetype.isComponentDirty(component) + " writes="
                    + archetype.writeCount(component));
        }
        number(archetype.structuralCount());
        for (int row = 0; row < archetype.count(); row++) {
            number(archetype.entity(row));
            for (Component<?> component : components) {
                text(String.valueOf(archetype.getValue(row, component)));
            }
        }
        if (archetype.has(ParallelWorlds.POSITION) && archetype.has(ParallelWorlds.VELOCITY)) {
            for (FloatField field : List.of(ParallelWorlds.X, ParallelWorlds.Y, ParallelWorlds.DX, ParallelWorlds.DY)) {
                MemorySegment column = archetype.get(field).segment();
                raw(column.asSlice(0, (long) archetype.count() * Float.BYTES).toArray(ValueLayout.JAVA_BYTE));
            }
        }
    }

    private void text(String value) {
        try {
            out.writeUTF(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void number(long value) {
        try {
            out.writeLong(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void raw(byte[] value) {
        try {
            out.writeInt(value.length);
            out.write(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
