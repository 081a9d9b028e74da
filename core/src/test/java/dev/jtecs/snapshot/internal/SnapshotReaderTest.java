package dev.jtecs.snapshot.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.snapshot.InvalidSnapshotException;
import dev.jtecs.snapshot.SnapshotComponentEntry;
import dev.jtecs.snapshot.SnapshotOptions;
import dev.jtecs.world.World;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The reader's checks: migration of older layouts by field name, and every kind of bad input, table and binary,
 * refused with a message naming what is wrong while the world stays as it was.
 */
class SnapshotReaderTest {
    /** The layout a game shipped first. */
    record ShipV1(float x, float y, int hull) {}

    /** The layout it ships now: hull dropped, shield added (default 9 from the factory), x and y kept. */
    record ShipV2(float y, float shield, float x) {}

    /** A field changed type: incompatible. */
    record ShipV3(double x, float y) {}

    static final NativeComponent<ShipV1> OLD = Components.registerNative(ShipV1.class, o -> o.name("mig.ShipA"));
    static final NativeComponent<ShipV2> NEW = Components.registerNative(ShipV2.class,
            o -> o.name("mig.ShipB").defaults(() -> new ShipV2(0, 9, 0)));
    static final NativeComponent<ShipV3> BAD = Components.registerNative(ShipV3.class, o -> o.name("mig.ShipC"));
    static final ScalarComponent.OfInt COUNT = Components.scalar("mig.Count", 3);

    /** A binary snapshot of {@code OLD} values, renamed to {@code name} as if an older build had saved it. */
    private static byte[] savedAs(String name) {
        try (World world = World.create()) {
            world.spawn(OLD.of(new ShipV1(1.5f, -2f, 70)), COUNT.of(4));
            world.spawn(OLD.of(new ShipV1(3f, 4f, 80)));
            byte[] bytes = world.saveSnapshot(SnapshotOptions.binary()).toByteArray();
            return SnapshotReaderFuzzTest.repairChecksums(prefixed(replace(bytes, "mig.ShipA", name)), 1);
        }
    }

    private static byte[] prefixed(byte[] bytes) {
        byte[] out = new byte[bytes.length + 1];
        System.arraycopy(bytes, 0, out, 1, bytes.length);
        return out;
    }

    private static byte[] replace(byte[] bytes, String from, String to) {
        byte[] a = from.getBytes(StandardCharsets.UTF_8);
        byte[] b = to.getBytes(StandardCharsets.UTF_8);
        assertEquals(a.length, b.length);
        byte[] out = bytes.clone();
        int found = 0;
        for (int i = 0; i + a.length <= out.length; i++) {
            if (java.util.Arrays.equals(out, i, i + a.length, a, 0, a.length)) {
                System.arraycopy(b, 0, out, i, b.length);
                found++;
            }
        }
        assertEquals(1, found, "the name appears once, in the component table");
        return out;
    }

    @Test
    void anOlderBinaryLayoutMigratesByFieldName() {
        byte[] older = savedAs("mig.ShipB");
        try (World world = World.create()) {
            world.loadSnapshot(older);
            List<ShipV2> ships = new ArrayList<>();
            world.forEachArchetype(archetype -> {
                for (int row = 0; row < archetype.count(); row++) {
                    ShipV2 ship = archetype.getValue(row, NEW);
                    if (ship != null) {
                        ships.add(ship);
                    }
                }
            });
            assertEquals(List.of(new ShipV2(-2f, 9f, 1.5f), new ShipV2(4f, 9f, 3f)), ships,
                    "x and y kept by name, hull dropped, shield from the defaults factory");
        }
    }

    @Test
    void anOlderTableLayoutMigratesByFieldName() {
        try (World source = World.create(); World world = World.create()) {
            long id = source.spawn(OLD.of(new ShipV1(1.5f, -2f, 70)));
            Map<String, Object> table = source.saveSnapshot().table();
            rename(table, "mig.ShipA", "mig.ShipB");
            world.loadSnapshot(table);
            assertEquals(new ShipV2(-2f, 9f, 1.5f), world.get(id, NEW));
        }
    }

    @SuppressWarnings("unchecked")
    private static void rename(Map<String, Object> table, String from, String to) {
        for (Object entry : (List<Object>) table.get("componentTable")) {
            Map<String, Object> map = (Map<String, Object>) entry;
            if (map.get("name").equals(from)) {
                map.put("name", to);
            }
        }
    }

    @Test
    void aChangedFieldTypeUnknownComponentOrCodecMismatchIsRefused() {
        try (World world = World.create()) {
            InvalidSnapshotException type = assertThrows(InvalidSnapshotException.class,
                    () -> world.loadSnapshot(savedAs("mig.ShipC")));
            assertTrue(type.getMessage().contains("incompatible layout: field x was saved as FLOAT"),
                    type.getMessage());
            InvalidSnapshotException unknown = assertThrows(InvalidSnapshotException.class,
                    () -> world.loadSnapshot(savedAs("mig.ShipZ")));
            assertTrue(unknown.getMessage().contains("no component named mig.ShipZ"), unknown.getMessage());
            assertEquals(0, world.entityCount());
        }
    }

    /** Each bad table, built from a good one, and the words its message must hold. */
    @Test
    @SuppressWarnings("unchecked")
    void badTablesAreRefusedNamingWhatIsWrong() {
        try (World source = World.create(); World world = World.create()) {
            source.spawn(OLD.of(new ShipV1(1, 2, 3)), COUNT.of(1));
            source.spawn(COUNT.of(2));
            long mine = world.spawn(COUNT.of(99));
            Map<String, Consumer<Map<String, Object>>> cases = new LinkedHashMap<>();
            cases.put("version 7", t -> t.put("version", 7));
            cases.put("entityCount says 3", t -> {
                t.put("nextEntityId", 10);
                t.put("entityCount", 3);
            });
            cases.put("archetypeCount says 1", t -> t.put("archetypeCount", 1));
            cases.put("duplicate id", t -> {
                List<Object> frames = (List<Object>) t.get("archetypes");
                Map<String, Object> second = (Map<String, Object>) frames.get(1);
                Map<String, Object> first = (Map<String, Object>) frames.get(0);
                second.put("ids", new ArrayList<>((List<Object>) first.get("ids")));
            });
            cases.put("is outside 1..", t -> ((List<Object>) ((Map<String, Object>) ((List<Object>) t
                    .get("archetypes")).get(0)).get("ids")).set(0, "-5"));
            cases.put("entityCount", t -> t.put("nextEntityId", 2));
            cases.put("fingerprint", t -> ((Map<String, Object>) ((List<Object>) t.get("componentTable")).get(0))
                    .put("fingerprint", "0000000000000000"));
            cases.put("values for", t -> {
                Map<String, Object> frame = (Map<String, Object>) ((List<Object>) t.get("archetypes")).get(1);
                ((List<Object>) frame.get("columns")).set(0, Map.of("value", List.of(1, 2, 3)));
            });
            cases.put("is outside", t -> {
                Map<String, Object> frame = (Map<String, Object>) ((List<Object>) t.get("archetypes")).get(1);
                ((List<Object>) frame.get("columns")).set(0, Map.of("value", List.of(1L << 40)));
            });
            cases.put("not created in this world", t -> t.put("states", List.of("nowhere")));
            cases.put("not a leaf phase", t -> ((Map<String, Object>) ((Map<String, Object>) t.get("pipeline"))
                    .get("phases")).put("game.Nowhere", true));
            cases.put("all-zero state", t -> ((Map<String, Object>) t.get("data")).put("jtecs.random",
                    Map.of("seed", 1, "streams", Map.of("s", List.of(0, 0, 0, 0)))));
            cases.put("needs a world of at least", t -> t.put("nextEntityId", Integer.MAX_VALUE));
            for (Map.Entry<String, Consumer<Map<String, Object>>> bad : cases.entrySet()) {
                Map<String, Object> table = (Map<String, Object>) SnapshotReaderTestSupport.deepCopy(
                        source.saveSnapshot().table());
                bad.getValue().accept(table);
                InvalidSnapshotException refused = assertThrows(InvalidSnapshotException.class,
                        () -> world.loadSnapshot(table), bad.getKey());
                assertTrue(refused.getMessage().contains(bad.getKey()), bad.getKey() + ": " + refused.getMessage());
                assertEquals(1, world.entityCount());
                assertEquals(99, world.get(mine, COUNT));
            }
        }
    }

    @Test
    void badBinaryFramingIsRefusedNamingWhatIsWrong() {
        try (World source = World.create(); World world = World.create()) {
            source.spawn(OLD.of(new ShipV1(1, 2, 3)));
            byte[] good = source.saveSnapshot(SnapshotOptions.binary()).toByteArray();
            ValueLayout.OfLong le64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
            ValueLayout.OfInt le = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
            Map<String, byte[]> cases = new LinkedHashMap<>();
            cases.put("the header alone needs", java.util.Arrays.copyOf(good, 10));
            cases.put("truncated", java.util.Arrays.copyOf(good, good.length - 8));
            byte[] longer = java.util.Arrays.copyOf(good, good.length + 16);
            cases.put("oversized", longer);
            byte[] magic = good.clone();
            magic[0] = 'X';
            cases.put("JTECSNAP", magic);
            byte[] version = good.clone();
            MemorySegment.ofArray(version).set(le, 8, 2);
            cases.put("version 2 is not supported", version);
            byte[] header = good.clone();
            header[33] ^= 1;
            cases.put("header checksum", header);
            byte[] hostile = good.clone();
            MemorySegment.ofArray(hostile).set(le64, Binary.HEADER + 8, 1L << 40);
            cases.put("hostile or truncated length", SnapshotReaderFuzzTest.repairChecksums(prefixed(hostile), 1));
            byte[] flipped = good.clone();
            flipped[Binary.HEADER + Binary.SECTION + 3] ^= 0x40; // inside the metadata block
            cases.put("checksum mismatch", flipped);
            for (Map.Entry<String, byte[]> bad : cases.entrySet()) {
                InvalidSnapshotException refused = assertThrows(InvalidSnapshotException.class,
                        () -> world.loadSnapshot(bad.getValue()), bad.getKey());
                assertTrue(refused.getMessage().contains(bad.getKey()), bad.getKey() + ": " + refused.getMessage());
                assertEquals(0, world.entityCount());
            }
        }
    }

    /** A seeded sweep of structural mutations with checksums repaired: every one loads or is refused cleanly. */
    @Test
    void mutatedSnapshotsWithRepairedChecksumsLoadOrAreRefusedCleanly() {
        long seed = Long.getLong("jtecs.seed", 20261201L);
        System.out.println("SnapshotReaderTest mutation sweep seed=" + seed + " (replay with -Djtecs.seed=" + seed
                + ")");
        SplittableRandom random = new SplittableRandom(seed);
        try (World source = World.create(); World world = World.create()) {
            SnapshotReaderFuzzTest.populate(source);
            byte[] good = source.saveSnapshot(SnapshotOptions.binary()).toByteArray();
            int refused = 0;
            for (int i = 0; i < 3000; i++) {
                byte[] bytes = good.clone();
                int flips = 1 + random.nextInt(4);
                for (int f = 0; f < flips; f++) {
                    int at = random.nextInt(bytes.length);
                    bytes[at] = random.nextInt(3) == 0 ? (byte) random.nextInt(256) : (byte) (bytes[at] ^ 1 << random
                            .nextInt(8));
                }
                byte[] repaired = SnapshotReaderFuzzTest.repairChecksums(prefixed(bytes), 1);
                try {
                    world.loadSnapshot(repaired);
                } catch (InvalidSnapshotException expected) {
                    refused++;
                }
            }
            assertTrue(refused > 1000, "most mutations are caught: " + refused);
        }
    }

    @Test
    void theComponentTableFingerprintIsTheLayoutsHash() {
        assertEquals(SnapshotComponentEntry.fingerprint(List.of("x", "y", "hull"), List.of(
                dev.jtecs.component.PrimitiveKind.FLOAT, dev.jtecs.component.PrimitiveKind.FLOAT,
                dev.jtecs.component.PrimitiveKind.INT)), Schema.entry(OLD).fingerprint());
    }

    // issue 18, smaller item: a misaligned restore array gave a raw FFM message
    @Test
    void aBinarySnapshotLoadsFromAMisalignedSegment() {
        try (World world = World.create(); java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            long a = world.spawn(OLD.of(new ShipV1(1.5f, -2f, 70)), COUNT.of(4));
            long doomed = world.spawn(OLD.of(new ShipV1(0f, 0f, 1)));
            long b = world.spawn(OLD.of(new ShipV1(3f, 4f, 80)));
            world.despawn(doomed); // a free slot with a later generation, so the id blocks hold more than a range
            byte[] bytes = world.saveSnapshot(SnapshotOptions.binary()).toByteArray();
            MemorySegment offHeap = arena.allocate(bytes.length + 1L, 8).asSlice(1);
            MemorySegment.copy(MemorySegment.ofArray(bytes), 0, offHeap, 0, bytes.length);
            MemorySegment onHeap = MemorySegment.ofArray(prefixed(bytes)).asSlice(1);
            for (MemorySegment misaligned : List.of(offHeap, onHeap)) {
                assertThrows(IllegalArgumentException.class, () -> misaligned.get(ValueLayout.JAVA_LONG, 0),
                        "an aligned read of it fails in FFM: " + misaligned);
                try (World restored = World.create()) {
                    restored.loadSnapshot(misaligned);
                    assertEquals(new ShipV1(1.5f, -2f, 70), restored.get(a, OLD));
                    assertEquals(4, restored.get(a, COUNT));
                    assertEquals(new ShipV1(3f, 4f, 80), restored.get(b, OLD));
                    assertEquals(2, restored.entityCount());
                    assertTrue(!restored.isAlive(doomed));
                    assertEquals(Entity.pack(Entity.slot(doomed), Entity.generation(doomed) + 1), restored.spawn(),
                            "the free slot came back with its generation");
                }
            }
        }
    }
}
