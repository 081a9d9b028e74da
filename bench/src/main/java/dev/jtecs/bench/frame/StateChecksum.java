package dev.jtecs.bench.frame;

import dev.jtecs.component.Component;
import dev.jtecs.component.FieldHandle;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * A 64-bit fingerprint of a world's state, for "same seed, same state" checks across runs and processes: every
 * live entity that holds at least one of the given fields' components, in ascending id order, contributes its
 * id and, for each given field its archetype holds, the field's position in the list and the value's raw bits.
 *
 * <p>The order is canonical (ids, then the caller's field order), so the fingerprint depends neither on row
 * order nor on component registration order (which differs between processes). It is not a cryptographic
 * hash: a mixing function (the SplitMix64 finalizer) over 64-bit words, good enough to tell states apart.
 *
 * @implNote Reads row by row through the world's lookups; meant for the end of a run, not for a frame.
 */
public final class StateChecksum {
    private static final long PRIME = 0x9E37_79B9_7F4A_7C15L;

    private long hash = 0x243F_6A88_85A3_08D3L;
    private long words;

    private StateChecksum() {}

    /** The fingerprint of {@code world} over {@code fields} (see the class comment). */
    public static long of(World world, List<? extends FieldHandle> fields) {
        List<FieldHandle> list = List.copyOf(fields);
        Component<?>[] components = list.stream().map(FieldHandle::component).distinct()
                .toArray(Component<?>[]::new);
        long[] ids = liveIds(world, components);
        StateChecksum sum = new StateChecksum();
        for (long id : ids) {
            Archetype archetype = world.archetypeOf(id);
            int row = world.rowOf(id);
            sum.add(id);
            for (int f = 0; f < list.size(); f++) {
                FieldHandle field = list.get(f);
                if (archetype.has(field.component())) {
                    sum.add(f);
                    sum.add(rawBits(Columns.segment(archetype, field), Columns.elementBytes(field), row));
                }
            }
        }
        sum.add(ids.length);
        return mix(sum.hash ^ sum.words);
    }

    /** {@code value} as 16 lower-case hex digits, as the jobs print it. */
    public static String hex(long value) {
        return HexFormat.of().toHexDigits(value);
    }

    private static long[] liveIds(World world, Component<?>[] components) {
        long[][] ids = {new long[1024]};
        int[] count = {0};
        world.forEachArchetype(archetype -> {
            if (archetype.count() == 0 || !holdsAny(archetype, components)) {
                return;
            }
            int n = archetype.count();
            if (count[0] + n > ids[0].length) {
                ids[0] = Arrays.copyOf(ids[0], Math.max(count[0] + n, ids[0].length * 2));
            }
            MemorySegment.copy(archetype.entities().segment(), ValueLayout.JAVA_LONG, 0, ids[0], count[0], n);
            count[0] += n;
        });
        long[] sorted = Arrays.copyOf(ids[0], count[0]);
        Arrays.sort(sorted);
        return sorted;
    }

    private static boolean holdsAny(Archetype archetype, Component<?>[] components) {
        for (Component<?> component : components) {
            if (archetype.has(component)) {
                return true;
            }
        }
        return false;
    }

    private static long rawBits(MemorySegment column, int bytes, int row) {
        long offset = (long) row * bytes;
        return switch (bytes) {
            case 1 -> column.get(ValueLayout.JAVA_BYTE, offset);
            case 2 -> column.get(ValueLayout.JAVA_SHORT_UNALIGNED, offset);
            case 4 -> column.get(ValueLayout.JAVA_INT_UNALIGNED, offset);
            case 8 -> column.get(ValueLayout.JAVA_LONG_UNALIGNED, offset);
            default -> throw new IllegalStateException("unexpected element size " + bytes);
        };
    }

    private void add(long word) {
        hash = Long.rotateLeft(hash ^ mix(word + PRIME * ++words), 29) * PRIME;
    }

    /** The SplitMix64 finalizer. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }
}
