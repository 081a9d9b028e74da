package dev.jtecs.snapshot.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.jtecs.builtin.ChildOf;
import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.Components;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.RelationshipDefinition;
import dev.jtecs.component.Relationships;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.snapshot.InvalidSnapshotException;
import dev.jtecs.snapshot.SnapshotOptions;
import dev.jtecs.testing.WorldState;
import dev.jtecs.world.World;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * Coverage-guided fuzzing of the snapshot loaders (Jazzer): the binary loader, and the table loader behind JSON. In
 * every build the seed corpora in {@code src/test/resources/.../SnapshotReaderFuzzTestInputs/} run as regression
 * tests, and the build's {@code fuzz} executions fuzz each for a bounded time; see {@code docs/snapshots.md} for
 * the long run. For the binary loader the first input byte chooses whether checksums are repaired before loading,
 * so mutations reach the decoder behind them instead of all stopping at the first checksum. For the table loader
 * the input is JSON text, read with Jackson as a game reads its save file; text that is not a JSON object is not a
 * table and is skipped.
 *
 * <p>The property: loading any input either throws {@link InvalidSnapshotException} and leaves the world exactly
 * as it was (its whole state: {@link WorldState}), or loads a world that saves back to a valid snapshot.
 */
class SnapshotReaderFuzzTest {
    record Pos(float x, float y) {}

    record Tether(long target, float length) {}

    record Note(String text, int weight) {}

    static final NativeComponent<Pos> POS = Components.registerNative(Pos.class, o -> o.name("fuzz.Pos"));
    static final ScalarComponent.OfLong SCORE = Components.scalar("fuzz.Score", 0L);
    static final ManagedComponent<Note> NOTE = Components.registerManaged(Note.class, o -> o.name("fuzz.Note"));
    static final Relationship WATCHES = Relationships.register("fuzz.Watches", o -> o.sparse().reverseIndex());
    static final RelationshipDefinition<Tether> TETHER = Relationships.register(Tether.class,
            o -> o.name("fuzz.Tether").reverseIndex());

    private static World world;
    private static String baseline;

    /** A small world with every column kind, dense and sparse edges, keys, random streams and free slots. */
    static void populate(World target) {
        long a = target.spawn(POS.of(new Pos(1, 2)), SCORE.of(-7L), EntityKey.COMPONENT.of("a"));
        long b = target.spawn(POS.of(new Pos(3, 4)), NOTE.of(new Note("hi", 3)), ChildOf.COMPONENT.to(a));
        long c = target.spawn(SCORE.of(Long.MAX_VALUE), WATCHES.to(a), TETHER.of(new Tether(b, 2.5f)));
        target.set(c, WATCHES.to(b));
        target.despawn(target.spawn());
        target.randomStream("fuzz.loot").nextInt();
    }

    private static synchronized World world() {
        if (world == null) {
            world = World.create();
            populate(world);
            baseline = state(world);
        }
        return world;
    }

    /** What a rejected load must leave as it was: the world's whole state ({@link WorldState}). */
    static String state(World target) {
        return WorldState.of(target);
    }

    @FuzzTest(maxDuration = "30s")
    void aBinaryLoadChangesNothingOrLoadsCompletely(byte[] input) {
        World target = world();
        byte[] bytes = input.length > 0 && (input[0] & 1) == 1 ? repairChecksums(input, 1) : input;
        try {
            target.loadSnapshot(bytes);
        } catch (InvalidSnapshotException rejected) {
            assertEquals(baseline, state(target), "a rejected load changed the world");
            return;
        }
        target.saveSnapshot(SnapshotOptions.binary()); // a loaded world saves again
        target.clearEntities();
        populate(target); // back to the baseline for the next input
        baseline = state(target);
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
            new com.fasterxml.jackson.databind.ObjectMapper();
    private static World tableWorld;
    private static String tableBaseline;

    private static synchronized World tableWorld() {
        if (tableWorld == null) {
            tableWorld = World.create();
            populate(tableWorld);
            tableBaseline = state(tableWorld);
        }
        return tableWorld;
    }

    @FuzzTest(maxDuration = "20s")
    @SuppressWarnings("unchecked")
    void aTableLoadChangesNothingOrLoadsCompletely(byte[] input) {
        Object read;
        try {
            read = JSON.readValue(input, Object.class);
        } catch (java.io.IOException notJson) {
            return; // not JSON: nothing a table load is given
        }
        if (!(read instanceof java.util.Map<?, ?> table)) {
            return; // JSON, but not an object: not a table
        }
        World target = tableWorld();
        try {
            target.loadSnapshot((java.util.Map<String, ?>) table);
        } catch (InvalidSnapshotException rejected) {
            assertEquals(tableBaseline, state(target), "a rejected table load changed the world");
            return;
        }
        target.saveSnapshot(SnapshotOptions.table()); // a loaded world saves again
        target.clearEntities();
        populate(target); // back to the baseline for the next input
        tableBaseline = state(target);
    }

    /**
     * The bytes from {@code offset} with the header's and every reachable section's checksums recomputed, so the
     * fuzzer's mutations get past them.
     */
    static byte[] repairChecksums(byte[] input, int offset) {
        byte[] bytes = java.util.Arrays.copyOfRange(input, offset, input.length);
        MemorySegment segment = MemorySegment.ofArray(bytes);
        ValueLayout.OfInt le = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        ValueLayout.OfLong le64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        if (bytes.length < Binary.HEADER) {
            return bytes;
        }
        CRC32C crc = new CRC32C();
        segment.set(le, 60, Binary.crc(crc, segment, 0, 60));
        long at = Binary.HEADER;
        while (bytes.length - at >= Binary.SECTION) {
            long length = segment.get(le64, at + 8);
            long payload = at + Binary.SECTION;
            if (length < 0 || length > bytes.length - payload) {
                segment.set(le, at + 20, Binary.crc(crc, segment, at, 20)); // a hostile length, checksummed
                break;
            }
            segment.set(le, at + 16, Binary.crc(crc, segment, payload, length));
            segment.set(le, at + 20, Binary.crc(crc, segment, at, 20));
            at = payload + Binary.pad(length);
        }
        return bytes;
    }

    /**
     * Writes the seed corpus (run with {@code -Djtecs.writeFuzzSeeds=true}); otherwise checks that it is there, so
     * the regression run is never silently empty.
     */
    @Test
    void theSeedCorpusHoldsValidAndHostileSnapshots() throws Exception {
        Path dir = Path.of("src/test/resources/dev/jtecs/snapshot/internal/SnapshotReaderFuzzTestInputs/"
                + "aBinaryLoadChangesNothingOrLoadsCompletely");
        if (Boolean.getBoolean("jtecs.writeFuzzSeeds")) {
            Files.createDirectories(dir);
            try (World source = World.create()) {
                populate(source);
                byte[] valid = source.saveSnapshot(SnapshotOptions.binary()).toByteArray();
                write(dir, "valid", prefixed((byte) 0, valid));
                write(dir, "valid-repaired", prefixed((byte) 1, valid));
                byte[] truncated = java.util.Arrays.copyOf(valid, valid.length / 2);
                write(dir, "truncated", prefixed((byte) 0, truncated));
                byte[] hostile = valid.clone();
                MemorySegment.ofArray(hostile).set(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN),
                        Binary.HEADER + 8, Long.MAX_VALUE / 2);
                write(dir, "hostile-length", prefixed((byte) 1, hostile));
                source.clearEntities();
                write(dir, "empty-world", prefixed((byte) 0, source.saveSnapshot(SnapshotOptions.binary())
                        .toByteArray()));
            }
        }
        List<Path> seeds;
        try (var files = Files.list(dir)) {
            seeds = files.toList();
        }
        assertEquals(5, seeds.size(), "seed corpus in " + dir);
    }

    /** The table loader's seeds, written and checked as {@link #theSeedCorpusHoldsValidAndHostileSnapshots} does. */
    @Test
    void theTableSeedCorpusHoldsValidAndBrokenTables() throws Exception {
        Path dir = Path.of("src/test/resources/dev/jtecs/snapshot/internal/SnapshotReaderFuzzTestInputs/"
                + "aTableLoadChangesNothingOrLoadsCompletely");
        if (Boolean.getBoolean("jtecs.writeFuzzSeeds")) {
            Files.createDirectories(dir);
            try (World source = World.create()) {
                populate(source);
                String valid = JSON.writeValueAsString(source.saveSnapshot(SnapshotOptions.table()).table());
                write(dir, "valid", valid.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                write(dir, "truncated", valid.substring(0, valid.length() / 2)
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
                write(dir, "numbers-for-strings", valid.replaceAll("\"(-?[0-9]+)\"", "$1")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
                source.clearEntities();
                write(dir, "empty-world", JSON.writeValueAsString(source.saveSnapshot(SnapshotOptions.table())
                        .table()).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        List<Path> seeds;
        try (var files = Files.list(dir)) {
            seeds = files.toList();
        }
        assertEquals(4, seeds.size(), "seed corpus in " + dir);
    }

    private static byte[] prefixed(byte first, byte[] rest) {
        byte[] out = new byte[rest.length + 1];
        out[0] = first;
        System.arraycopy(rest, 0, out, 1, rest.length);
        return out;
    }

    private static void write(Path dir, String name, byte[] bytes) throws Exception {
        Files.write(dir.resolve(name), bytes);
    }
}
