package dev.jtecs.stress;

import dev.jtecs.snapshot.Snapshot;
import dev.jtecs.snapshot.SnapshotBuffer;
import dev.jtecs.snapshot.SnapshotOptions;
import dev.jtecs.world.World;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The snapshot round trips of the model run: save a quiet world in one of {@link #MODES} ways, load it back
 * into the same world (which keeps its queries, systems and observers at address 0), and report what differs.
 */
final class ModelSnapshots implements AutoCloseable {
    /** Table tree, table as JSON reads it back, binary into a reused buffer, binary through a file. */
    static final int MODES = 4;

    private final SnapshotBuffer buffer = new SnapshotBuffer();
    private Path file;

    /**
     * One round trip: save, load back, save again, load that, save a third time. The first load may add
     * requirements the rows lacked (the reference checks those); from then on a save and a load must change
     * nothing: the second and third snapshots are identical, and so are the keys and reverse indexes read after
     * each load. Returns {@code null} when all holds, else what differs.
     */
    String roundTrip(World world, WorldCalls calls, int mode, Collection<String> keys) {
        List<String> indexBefore = indexLines(WorldDump.of(world, List.of(), keys));
        Snapshot first = calls.saveSnapshot(world, options(mode));
        calls.loadSnapshot(world, loadable(first, mode));
        WorldDump loaded = WorldDump.of(world, List.of(), keys);
        if (!indexBefore.equals(indexLines(loaded))) {
            return "snapshot mode " + mode + ": keys or reverse indexes differ after the round trip: before="
                    + indexBefore + " after=" + indexLines(loaded);
        }
        Snapshot second = calls.saveSnapshot(world, options(mode));
        Object expected = content(second, mode);
        calls.loadSnapshot(world, loadable(second, mode));
        WorldDump again = WorldDump.of(world, List.of(), keys);
        if (!loaded.values().equals(again.values())) {
            return "snapshot mode " + mode + ": a second load changed values:" + differences(loaded, again);
        }
        Object third = content(calls.saveSnapshot(world, options(mode)), mode);
        boolean same = mode < 2 ? expected.equals(third) : java.util.Arrays.equals((byte[]) expected, (byte[]) third);
        if (!same) {
            return "snapshot mode " + mode + ": saving a loaded world gives another snapshot (ids, free slots, "
                    + "values or metadata were not restored exactly)";
        }
        return null;
    }

    private static Object loadable(Snapshot snapshot, int mode) {
        return switch (mode) {
            case 0 -> snapshot.table();
            case 1 -> asJson(snapshot.table());
            case 2 -> snapshot.buffer();
            default -> snapshot.path();
        };
    }

    private static Object content(Snapshot snapshot, int mode) {
        return mode < 2 ? copy(snapshot.table()) : snapshot.buffer().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    }

    private static List<String> indexLines(WorldDump dump) {
        return dump.structure().stream().filter(ModelSnapshots::indexLine).toList();
    }

    private static String differences(WorldDump before, WorldDump after) {
        StringBuilder out = new StringBuilder();
        java.util.Set<Long> ids = new java.util.TreeSet<>(before.values().keySet());
        ids.addAll(after.values().keySet());
        int shown = 0;
        for (long id : ids) {
            Object was = before.values().get(id);
            Object now = after.values().get(id);
            if (!java.util.Objects.equals(was, now) && shown++ < 5) {
                out.append("\n  ").append(dev.jtecs.entity.Entity.toString(id)).append(" before=").append(was)
                        .append("\n  ").append(dev.jtecs.entity.Entity.toString(id)).append(" after =").append(now);
            }
        }
        return out.toString();
    }

    private static boolean indexLine(String line) {
        return line.startsWith("key ") || line.startsWith("sources ");
    }

    private SnapshotOptions options(int mode) {
        return switch (mode) {
            case 0, 1 -> SnapshotOptions.table();
            case 2 -> SnapshotOptions.binary().buffer(buffer);
            default -> SnapshotOptions.binary().path(file());
        };
    }

    private Path file() {
        if (file == null) {
            try {
                file = Files.createTempFile("jtecs-model", ".snapshot");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return file;
    }

    /** The tree as a JSON reader hands it back: floats become doubles, lists and maps fresh. */
    static Object asJson(Object value) {
        if (value instanceof Float f) {
            return Double.parseDouble(Float.toString(f));
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object element : list) {
                out.add(asJson(element));
            }
            return out;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put((String) k, asJson(v)));
            return out;
        }
        return value;
    }

    private static Object copy(Object value) {
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object element : list) {
                out.add(copy(element));
            }
            return out;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put((String) k, copy(v)));
            return out;
        }
        return value;
    }

    @Override
    public void close() {
        buffer.close();
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            file = null;
        }
    }
}
