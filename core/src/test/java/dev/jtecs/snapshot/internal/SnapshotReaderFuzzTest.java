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

    /** A small world with every column kind, dense and sparse edges, keys, random streams and free slots. */
    static void populate(World target) {
        long a = target.spawn(POS.of(new Pos(1, 2)), SCORE.of(-7L), EntityKey.COMPONENT.of("a"));
        long b = target.spawn(POS.of(new Pos(3, 4)), NOTE.of(new Note("hi", 3)), ChildOf.COMPONENT.to(a));
        long c = target.spawn(SCORE.of(Long.MAX_VALUE), WATCHES.to(a), TETHER.of(new Tether(b, 2.5f)));
        target.set(c, WATCHES.to(b));
        target.despawn(target.spawn());
        target.randomStream("fuzz.loot").nextInt();
    }

    /** What a rejected load must leave as it was: the world's whole state ({@link WorldState}). */
    static String state(World target) {
        return WorldState.of(target);
    }

    /**
     * A world one fuzz target loads into, built on first use and kept at {@link #populate}'s state between inputs:
     * {@link #load} checks the property for one input.
     */
    static final class Target {
        private World world;
        private String baseline;

        /**
         * Runs {@code load} on the world: a rejection must leave the world's whole state as it was; an accepted
         * load must save again ({@code saveAgain}), and the world is put back to the baseline for the next input.
         */
        synchronized void load(java.util.function.Consumer<World> load, SnapshotOptions saveAgain) {
            if (world == null) {
                world = World.create();
                populate(world);
                baseline = state(world);
            }
            try {
                load.accept(world);
            } catch (InvalidSnapshotException rejected) {
                assertEquals(baseline, state(world), "a rejected load changed the world");
                return;
            }
            world.saveSnapshot(saveAgain); // a loaded world saves again
            world.clearEntities();
            populate(world); // back to the baseline for the next input
            baseline = state(world);
        }
    }

    private static final Target BINARY = new Target();
    private static final Target TABLE = new Target();
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
            new com.fasterxml.jackson.databind.ObjectMapper();

    @FuzzTest(maxDuration = "30s")
    void aBinaryLoadChangesNothingOrLoadsCompletely(byte[] input) {
        byte[] bytes = input.length > 0 && (input[0] & 1) == 1 ? repairChecksums(input, 1) : input;
        BINARY.load(world -> world.loadSnapshot(bytes), SnapshotOptions.binary());
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
        if (read instanceof java.util.Map<?, ?> table) { // JSON, but not an object: not a table
            TABLE.load(world -> world.loadSnapshot((java.util.Map<String, ?>) table), SnapshotOptions.table());
        }
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

    /** What writes one fuzz target's seeds into its directory, from a world {@link #populate}d for it. */
    interface Seeds {
        void write(Path dir, World source) throws Exception;
    }

    /**
     * Writes the seed corpus of {@code fuzzTest} with {@code seeds} (run with {@code -Djtecs.writeFuzzSeeds=true});
     * otherwise checks that its {@code count} seeds are there, so the regression run is never silently empty.
     */
    private static void seedCorpus(String fuzzTest, int count, Seeds seeds) throws Exception {
        Path dir = Path.of("src/test/resources/dev/jtecs/snapshot/internal/SnapshotReaderFuzzTestInputs/" + fuzzTest);
        if (Boolean.getBoolean("jtecs.writeFuzzSeeds")) {
            Files.createDirectories(dir);
            try (World source = World.create()) {
                populate(source);
                seeds.write(dir, source);
            }
        }
        List<Path> written;
        try (var files = Files.list(dir)) {
            written = files.toList();
        }
        assertEquals(count, written.size(), "seed corpus in " + dir);
    }

    /** The seed {@code name} of {@code fuzzTest}'s corpus. */
    private static byte[] seed(String fuzzTest, String name) throws Exception {
        return Files.readAllBytes(Path.of("src/test/resources/dev/jtecs/snapshot/internal/SnapshotReaderFuzzTestInputs/"
                + fuzzTest + "/" + name));
    }

    @Test
    void theSeedCorpusHoldsValidAndHostileSnapshots() throws Exception {
        seedCorpus("aBinaryLoadChangesNothingOrLoadsCompletely", 5, (dir, source) -> {
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
        });
        byte[] valid = seed("aBinaryLoadChangesNothingOrLoadsCompletely", "valid");
        try (World loaded = World.create()) { // a seed the format has outgrown would start the fuzzer from nothing
            loaded.loadSnapshot(java.util.Arrays.copyOfRange(valid, 1, valid.length));
            assertEquals(3, loaded.entityCount(), "the valid seed loads whole");
        }
    }

    @Test
    void theTableSeedCorpusHoldsValidAndBrokenTables() throws Exception {
        java.nio.charset.Charset utf8 = java.nio.charset.StandardCharsets.UTF_8;
        seedCorpus("aTableLoadChangesNothingOrLoadsCompletely", 4, (dir, source) -> {
            String valid = JSON.writeValueAsString(source.saveSnapshot(SnapshotOptions.table()).table());
            write(dir, "valid", valid.getBytes(utf8));
            write(dir, "truncated", valid.substring(0, valid.length() / 2).getBytes(utf8));
            write(dir, "numbers-for-strings", valid.replaceAll("\"(-?[0-9]+)\"", "$1").getBytes(utf8));
            source.clearEntities();
            write(dir, "empty-world", JSON.writeValueAsString(source.saveSnapshot(SnapshotOptions.table()).table())
                    .getBytes(utf8));
        });
        @SuppressWarnings("unchecked")
        java.util.Map<String, ?> valid = JSON.readValue(seed("aTableLoadChangesNothingOrLoadsCompletely", "valid"),
                java.util.Map.class);
        try (World loaded = World.create()) {
            loaded.loadSnapshot(valid);
            assertEquals(3, loaded.entityCount(), "the valid seed loads whole");
        }
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
