package dev.jtecs.snapshot.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.Components;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.snapshot.InvalidSnapshotException;
import dev.jtecs.snapshot.SnapshotComponentEntry;
import dev.jtecs.snapshot.SnapshotOptions;
import dev.jtecs.schedule.Phases;
import dev.jtecs.state.StatePolicy;
import dev.jtecs.testing.Allocations;
import dev.jtecs.testing.WorldState;
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
import java.util.zip.CRC32C;
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

    /** Transient here, laid out as {@code mig.Count}: a snapshot naming it loads without its values. */
    static final ScalarComponent.OfInt GHOST = Components.scalar("mig.Coun2", 0, o -> o.transient_(true));

    record Debt(long target, int amount) {}

    record Named(long target, String name) {}

    static final dev.jtecs.component.RelationshipDefinition<Debt> OWES = dev.jtecs.component.Relationships.register(
            Debt.class, o -> o.name("reader.Owes").sparse());
    static final dev.jtecs.component.RelationshipDefinition<Named> NAMES = dev.jtecs.component.Relationships
            .register(Named.class, o -> o.name("reader.Names"));
    static final dev.jtecs.component.Relationship SEES = dev.jtecs.component.Relationships.register("reader.Sees",
            o -> o.sparse());

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
            populate(world);
            String before = WorldState.of(world);
            InvalidSnapshotException type = assertThrows(InvalidSnapshotException.class,
                    () -> world.loadSnapshot(savedAs("mig.ShipC")));
            assertTrue(type.getMessage().contains("incompatible layout: field x was saved as FLOAT"),
                    type.getMessage());
            InvalidSnapshotException unknown = assertThrows(InvalidSnapshotException.class,
                    () -> world.loadSnapshot(savedAs("mig.ShipZ")));
            assertTrue(unknown.getMessage().contains("no component named mig.ShipZ"), unknown.getMessage());
            assertEquals(before, WorldState.of(world));
        }
    }

    /**
     * What the destination holds before each bad load: values, a key, a free slot, random streams, a state on
     * the stack, a switched-off phase, a fixed-step remainder, so that a full state comparison has something to
     * compare.
     */
    private static long populate(World world) {
        long mine = world.spawn(COUNT.of(99), EntityKey.COMPONENT.of("mine"));
        world.spawn(OLD.of(new ShipV1(7, 8, 9)));
        world.despawn(world.spawn());
        world.seedRandom(5);
        world.randomStream("reader.loot").nextInt();
        world.createState("reader.menu", StatePolicy.none());
        world.pushState("reader.menu");
        world.disablePhase(Phases.RENDER);
        world.update(world.config().timestep() * 1.5);
        return mine;
    }

    /** Each bad table, built from a good one, and the words its message must hold. */
    @Test
    @SuppressWarnings("unchecked")
    void badTablesAreRefusedNamingWhatIsWrong() {
        try (World source = World.create(); World world = World.create()) {
            source.spawn(OLD.of(new ShipV1(1, 2, 3)), COUNT.of(1));
            source.spawn(COUNT.of(2));
            populate(world);
            String before = WorldState.of(world);
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
            refuseEach(cases, source, world, before);
        }
    }

    private static final ValueLayout.OfLong LE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt LE32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** A section of a binary snapshot as it lies in the bytes. */
    private record Section(int kind, int arg, int payload, int length) {}

    /** The sections of well-framed bytes, in order. */
    private static List<Section> sections(byte[] bytes) {
        MemorySegment segment = MemorySegment.ofArray(bytes);
        List<Section> out = new ArrayList<>();
        long at = Binary.HEADER;
        while (at < bytes.length) {
            long length = segment.get(LE64, at + 8);
            out.add(new Section(segment.get(LE32, at), segment.get(LE32, at + 4), (int) (at + Binary.SECTION),
                    (int) length));
            at += Binary.SECTION + Binary.pad(length);
        }
        return out;
    }

    /** {@code bytes} with one header field changed and every checksum repaired. */
    private static byte[] withHeaderInt(byte[] bytes, int offset, int value) {
        byte[] out = bytes.clone();
        MemorySegment.ofArray(out).set(LE32, offset, value);
        return SnapshotReaderFuzzTest.repairChecksums(prefixed(out), 1);
    }

    @Test
    void badBinaryFramingIsRefusedNamingWhatIsWrong() {
        try (World source = World.create(); World world = World.create()) {
            source.spawn(OLD.of(new ShipV1(1, 2, 3)));
            byte[] good = source.saveSnapshot(SnapshotOptions.binary()).toByteArray();
            ValueLayout.OfLong le64 = LE64;
            ValueLayout.OfInt le = LE32;
            populate(world);
            String before = WorldState.of(world);
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
            assertRefusedChangingNothing(world, before, cases);
        }
    }

    /** Each case must be refused with a message holding its key, and the world's whole state must stay. */
    private static void assertRefusedChangingNothing(World world, String before, Map<String, byte[]> cases) {
        for (Map.Entry<String, byte[]> bad : cases.entrySet()) {
            InvalidSnapshotException refused = assertThrows(InvalidSnapshotException.class,
                    () -> world.loadSnapshot(bad.getValue()), bad.getKey());
            assertTrue(refused.getMessage().contains(bad.getKey()), bad.getKey() + ": " + refused.getMessage());
            assertEquals(before, WorldState.of(world), bad.getKey());
        }
    }

    /** Two archetypes of one entity each: {@code OLD} with {@code COUNT}, and {@code COUNT} alone. */
    private static byte[] twoFrames() {
        try (World source = World.create()) {
            source.spawn(OLD.of(new ShipV1(1, 2, 3)), COUNT.of(1));
            source.spawn(COUNT.of(2));
            byte[] bytes = source.saveSnapshot(SnapshotOptions.binary()).toByteArray();
            try (World check = World.create()) {
                check.loadSnapshot(bytes); // the unchanged bytes load: every case below is refused for its change
                assertEquals(2, check.entityCount());
            }
            return bytes;
        }
    }

    @Test
    void aDuplicateIdInTheBinaryFormIsRefused() {
        byte[] good = twoFrames();
        List<Section> ids = sections(good).stream().filter(section -> section.kind() == Binary.IDS).toList();
        assertEquals(2, ids.size());
        byte[] twice = good.clone();
        System.arraycopy(good, ids.get(0).payload(), twice, ids.get(1).payload(), 8); // frame 1 repeats frame 0's id
        try (World world = World.create()) {
            populate(world);
            assertRefusedChangingNothing(world, WorldState.of(world), Map.of("duplicate id: slot 1 appears twice",
                    SnapshotReaderFuzzTest.repairChecksums(prefixed(twice), 1)));
        }
    }

    /**
     * Inside one frame too, past the first chunk the reader records ids in (4,096): the ids are recorded without
     * a look for duplicates, and the duplicate is found when the slots are laid out and then named as before.
     */
    @Test
    void aDuplicateIdFarIntoOneLargeFrameIsRefusedNamingItsSlot() {
        byte[] good;
        try (World source = World.create()) {
            for (int i = 0; i < 5000; i++) {
                source.spawn(COUNT.of(i));
            }
            good = source.saveSnapshot(SnapshotOptions.binary()).toByteArray();
        }
        List<Section> ids = sections(good).stream().filter(section -> section.kind() == Binary.IDS).toList();
        assertEquals(1, ids.size());
        int payload = ids.get(0).payload();
        MemorySegment bytes = MemorySegment.ofArray(good);
        long named = bytes.get(LE64, payload + 8L * 10);
        byte[] twice = good.clone();
        MemorySegment.ofArray(twice).set(LE64, payload + 8L * 4500, named); // row 4,500 names row 10's entity
        try (World world = World.create()) {
            populate(world);
            assertRefusedChangingNothing(world, WorldState.of(world), Map.of("duplicate id: slot "
                    + Entity.slot(named) + " appears twice", SnapshotReaderFuzzTest.repairChecksums(prefixed(twice),
                    1)));
        }
    }

    @Test
    void aBinaryHeaderThatDisagreesWithItsMetadataIsRefused() {
        byte[] good = twoFrames();
        Map<String, byte[]> cases = new LinkedHashMap<>();
        cases.put("the header and the metadata disagree: the header says 1 archetype frames, archetypeCount says 2",
                withHeaderInt(good, 28, 1));
        cases.put("the header and the metadata disagree: the header says 3 entities, entityCount says 2",
                withHeaderInt(good, 32, 3));
        cases.put("the header and the metadata disagree: the header says next entity id 9, nextEntityId says 3",
                withHeaderInt(good, 40, 9));
        try (World world = World.create()) {
            populate(world);
            assertRefusedChangingNothing(world, WorldState.of(world), cases);
        }
    }

    @Test
    void aBinarySectionCountThatDisagreesWithItsFramesIsRefused() {
        byte[] good = twoFrames();
        int sections = sections(good).size();
        assertEquals(2 + (2 + 4) + (2 + 1), sections, "META, FREE, per frame FRAME, IDS and one block per column");
        Map<String, byte[]> cases = new LinkedHashMap<>();
        cases.put("after " + sections + " of " + (sections + 1) + " sections", withHeaderInt(good, 24, sections + 1));
        cases.put("after " + sections + " of " + (sections - 1) + " sections", withHeaderInt(good, 24, sections - 1));
        cases.put("frame count " + (sections + 1) + " is inconsistent with " + sections + " sections",
                withHeaderInt(good, 28, sections + 1));
        try (World world = World.create()) {
            populate(world);
            assertRefusedChangingNothing(world, WorldState.of(world), cases);
        }
    }

    /**
     * A binary snapshot of no archetypes built by hand: the header, {@code meta} (a table snapshot's tree without
     * its ids, free slots and archetypes) as the META block, and an empty FREE block.
     */
    private static byte[] binaryWithoutFrames(Map<String, Object> meta) {
        Tagged.Bytes tree = new Tagged.Bytes();
        Tagged.write(tree, meta);
        long metaSection = Binary.SECTION + Binary.pad(tree.size());
        long total = Binary.HEADER + metaSection + Binary.SECTION;
        MemorySegment out = MemorySegment.ofArray(new byte[(int) total]);
        CRC32C crc = new CRC32C();
        Binary.writeHeader(out, total, 2, 0, 0, (Integer) meta.get("nextEntityId"), crc);
        long payload = Binary.HEADER + Binary.SECTION;
        MemorySegment.copy(tree.array(), 0, out, ValueLayout.JAVA_BYTE, payload, tree.size());
        Binary.writeSection(out, Binary.HEADER, Binary.META, 0, tree.size(),
                Binary.crc(crc, out, payload, tree.size()), crc);
        Binary.writeSection(out, Binary.HEADER + metaSection, Binary.FREE, 0, 0, Binary.crc(crc, out, 0, 0), crc);
        return out.toArray(ValueLayout.JAVA_BYTE);
    }

    /**
     * The most a refused load of a few hundred bytes may allocate: its trees, checksums, messages and bookkeeping
     * (about 4 KB for the table, 22 KB for the bytes when this was written; sizing by the claim takes 20 MB).
     */
    private static final long SMALL_INPUT_BUDGET = 128 * 1024;

    /**
     * A tiny snapshot claiming {@code nextEntityId} 4,000,000 (within the default capacity, so only its size
     * could refuse it) is refused at its very last check, a state this world never created, so every step of the
     * reader ran: none of them may size anything by the claim, only by the ids and free slots present (zero).
     */
    @Test
    @SuppressWarnings("unchecked")
    void aHugeClaimedNextEntityIdAllocatesNothingTheInputDoesNotHold() {
        int claimed = 4_000_000;
        try (World source = World.create(); World world = World.create()) {
            assertTrue(claimed <= world.config().maxEntities());
            Map<String, Object> meta = (Map<String, Object>) SnapshotReaderTestSupport.deepCopy(
                    source.saveSnapshot().table());
            meta.remove("freeSlots");
            meta.remove("archetypes");
            world.loadSnapshot(binaryWithoutFrames(meta)); // the hand-made framing is sound: it loads as it is

            Map<String, Object> table = (Map<String, Object>) SnapshotReaderTestSupport.deepCopy(
                    source.saveSnapshot().table());
            table.put("nextEntityId", claimed);
            table.put("states", List.of("nowhere"));
            meta.put("nextEntityId", claimed);
            meta.put("states", List.of("nowhere"));
            byte[] binary = binaryWithoutFrames(meta);
            assertTrue(binary.length < 1024, binary.length + " bytes");

            populate(world);
            String before = WorldState.of(world);
            for (Runnable load : List.<Runnable>of(() -> world.loadSnapshot(table), () -> world.loadSnapshot(binary))) {
                long bytes = Allocations.fewestBytes(5, () -> {
                    InvalidSnapshotException refused = assertThrows(InvalidSnapshotException.class, load::run);
                    assertTrue(refused.getMessage().contains("state nowhere was not created in this world"),
                            refused.getMessage());
                });
                assertTrue(bytes < SMALL_INPUT_BUDGET, "a refused load of a tiny input allocated " + bytes
                        + " bytes (sizing by the claimed nextEntityId " + claimed + " takes about "
                        + 5L * claimed + ")");
                assertEquals(before, WorldState.of(world));
            }
        }
    }

    /** A list count asks for as many elements as bytes remain: what it pre-sizes is bounded, not 4 bytes each. */
    @Test
    void aTaggedListIsNotPreSizedByItsCount() {
        int n = 1 << 20;
        byte[] bytes = new byte[5 + n];
        MemorySegment segment = MemorySegment.ofArray(bytes);
        segment.set(ValueLayout.JAVA_BYTE, 0, (byte) 8); // LIST
        segment.set(LE32, 1, n);
        java.util.Arrays.fill(bytes, 5, bytes.length, (byte) 0x7F); // no element is a known tag
        long allocated = Allocations.fewestBytes(5, () -> {
            InvalidSnapshotException refused = assertThrows(InvalidSnapshotException.class,
                    () -> Tagged.read(segment, 0, bytes.length, "list"));
            assertTrue(refused.getMessage().contains("unknown value tag 127"), refused.getMessage());
        });
        assertTrue(allocated < n / 8, "a refused list of " + n + " one-byte elements allocated " + allocated + " bytes");
        Object read = Tagged.read(MemorySegment.ofArray(new byte[] {8, 3, 0, 0, 0, 0, 0, 0}), 0, 8, "nulls");
        assertEquals(java.util.Arrays.asList(null, null, null), read, "lists still read whole");
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
            SnapshotReaderTest.populate(world);
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
                String before = WorldState.of(world);
                try {
                    world.loadSnapshot(repaired);
                } catch (InvalidSnapshotException expected) {
                    refused++;
                    assertEquals(before, WorldState.of(world), "mutation " + i + ": " + expected.getMessage());
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

    @Test
    void aSectionOfTheWrongKindOrArgumentIsRefused() {
        byte[] good = twoFrames();
        List<Section> all = sections(good);
        try (World world = World.create()) {
            populate(world);
            String before = WorldState.of(world);
            Map<String, byte[]> cases = new LinkedHashMap<>();
            // META, FREE, FRAME 0, IDS 0, COLUMN 0: each with its argument changed, then its kind
            for (int s = 0; s < 5; s++) {
                Section section = all.get(s);
                int header = section.payload() - Binary.SECTION;
                byte[] arg = good.clone();
                MemorySegment.ofArray(arg).set(LE32, header + 4, section.arg() + 7);
                cases.put("expected section " + Binary.kindName(section.kind()) + " " + section.arg() + ", found "
                        + Binary.kindName(section.kind()) + " " + (section.arg() + 7),
                        SnapshotReaderFuzzTest.repairChecksums(prefixed(arg), 1));
            }
            byte[] kind = good.clone();
            MemorySegment.ofArray(kind).set(LE32, all.get(1).payload() - Binary.SECTION, Binary.IDS);
            cases.put("expected section FREE 0, found IDS 0",
                    SnapshotReaderFuzzTest.repairChecksums(prefixed(kind), 1));
            assertRefusedChangingNothing(world, before, cases);
        }
    }

    /** The frame of a table snapshot that holds {@code id}. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> frameOf(Map<String, Object> table, long id) {
        for (Object frame : (List<?>) table.get("archetypes")) {
            if (((List<?>) ((Map<?, ?>) frame).get("ids")).contains(Long.toString(id))) {
                return (Map<String, Object>) frame;
            }
        }
        throw new AssertionError("no frame holds " + id);
    }

    private static int indexOf(Map<String, Object> table, String name) {
        List<?> entries = (List<?>) table.get("componentTable");
        for (int i = 0; i < entries.size(); i++) {
            if (((Map<?, ?>) entries.get(i)).get("name").equals(name)) {
                return i;
            }
        }
        throw new AssertionError(name);
    }

    @Test
    @SuppressWarnings("unchecked")
    void tablesAreRefusedAtEachBoundOfTheirFreeSlotsIndicesKeysAndEdges() {
        try (World source = World.create(); World world = World.create()) {
            long a = source.spawn(COUNT.of(1), EntityKey.COMPONENT.of("a"));
            long b = source.spawn(COUNT.of(2), EntityKey.COMPONENT.of("b"));
            long c = source.spawn(COUNT.of(3), OWES.of(new Debt(a, 5)), SEES.to(a), NAMES.of(new Named(b, "n")));
            source.set(c, SEES.to(b));
            long d = source.spawn(COUNT.of(4), dev.jtecs.builtin.ChildOf.COMPONENT.to(a));
            source.despawn(source.spawn());
            int highWater = Entity.slot(d) + 2;
            populate(world);
            String before = WorldState.of(world);
            Map<String, Consumer<Map<String, Object>>> cases = new LinkedHashMap<>();
            cases.put(highWater + " free slots cannot lie below nextEntityId " + highWater, t -> {
                List<Object> free = new ArrayList<>();
                for (int i = 0; i < highWater; i++) {
                    free.add(highWater - 1);
                    free.add(1);
                }
                t.put("freeSlots", free);
            });
            cases.put("free slot " + highWater + " is outside 1.." + (highWater - 1),
                    t -> t.put("freeSlots", List.of(highWater, 1)));
            cases.put("free slot 0 is outside 1.." + (highWater - 1), t -> t.put("freeSlots", List.of(0, 1)));
            cases.put("free slot " + (highWater - 1) + " has a negative generation",
                    t -> t.put("freeSlots", List.of(highWater - 1, -1)));
            cases.put("EntityKey 'a' is held twice", t -> {
                Map<String, Object> frame = frameOf(t, a);
                List<Object> columns = (List<Object>) frame.get("columns");
                int key = ((List<?>) frame.get("components")).indexOf(indexOf(t, EntityKey.COMPONENT.name()));
                columns.set(key, List.of("a", "a"));
            });
            cases.put("an EntityKey must be a non-empty string", t -> {
                Map<String, Object> frame = frameOf(t, a);
                int key = ((List<?>) frame.get("components")).indexOf(indexOf(t, EntityKey.COMPONENT.name()));
                ((List<Object>) frame.get("columns")).set(key, List.of("a", ""));
            });
            cases.put("component indices must ascend without repeats", t -> {
                Map<String, Object> frame = frameOf(t, a);
                List<Object> components = (List<Object>) frame.get("components");
                components.set(1, components.get(0));
            });
            cases.put("archetype 0.components[0]", t -> {
                List<Object> components = (List<Object>) frameOf(t, a).get("components");
                components.set(0, ((List<?>) t.get("componentTable")).size());
            });
            cases.put(".pairs[0]", t -> ((Map<String, Object>) ((List<Object>) frameOf(t, c).get("pairs")).get(0))
                    .put("relationship", ((List<?>) t.get("componentTable")).size()));
            cases.put(".sparse[0]", t -> ((Map<String, Object>) ((List<Object>) frameOf(t, c).get("sparse")).get(0))
                    .put("relationship", ((List<?>) t.get("componentTable")).size()));
            cases.put("targets must ascend without repeats", t -> sparseEdges(t, c, "reader.Sees")
                    .set(0, List.of(Long.toString(b), Long.toString(a))));
            cases.put("targets must ascend without repeats (" + a + " after " + a + ")", t -> sparseEdges(t, c,
                    "reader.Sees").set(0, List.of(Long.toString(a), Long.toString(a))));
            cases.put("the edge record names target " + b + ", its edge is to " + a, t -> sparseEdges(t, c,
                    "reader.Owes").set(0, List.of(Map.of("target", Long.toString(a), "payload",
                    Map.of("target", Long.toString(b), "amount", 5)))));
            cases.put("the edge record names target " + a + ", its edge is to " + b, t -> {
                Map<String, Object> frame = frameOf(t, c);
                List<Object> pairColumns = (List<Object>) frame.get("pairColumns");
                pairColumns.set(0, List.of(Map.of("target", Long.toString(a), "name", "n")));
            });
            long stale = Entity.pack(Entity.slot(a), Entity.generation(a) + 1);
            cases.put("ChildOf cascades, but target " + Entity.toString(stale) + " is not an entity of the snapshot",
                    t -> sparseEdges(t, d, "ChildOf").set(0, List.of(Long.toString(stale))));
            refuseEach(cases, source, world, before);

            // and just inside the bounds: all slots but one free, a generation of 0, streams with one word set
            Map<String, Object> edge = (Map<String, Object>) SnapshotReaderTestSupport.deepCopy(
                    source.saveSnapshot().table());
            edge.put("freeSlots", List.of(highWater - 1, 0));
            ((Map<String, Object>) edge.get("data")).put("jtecs.random",
                    Map.of("seed", 1, "streams", Map.of("s", List.of(0, 0, 0, 1), "t", List.of(1, 0, 0, 0))));
            world.loadSnapshot(edge);
            assertEquals(Entity.pack(highWater - 1, 0), world.spawn(), "the free slot comes back with generation 0");
            assertEquals(List.of(b), List.of(world.byKey("b")));
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Object> sparseEdges(Map<String, Object> table, long source, String relationship) {
        Map<String, Object> frame = frameOf(table, source);
        int index = indexOf(table, relationship);
        for (Object entry : (List<?>) frame.get("sparse")) {
            Map<String, Object> map = (Map<String, Object>) entry;
            if (((Integer) map.get("relationship")) == index) {
                return (List<Object>) map.get("edges");
            }
        }
        throw new AssertionError(relationship);
    }

    @Test
    void aTableLoadRestoresTheFreeSlotsAndTheWorldsSizeIsCheckedAtItsBound() {
        try (World source = World.create(); World copy = World.create()) {
            long first = source.spawn(COUNT.of(1));
            source.despawn(source.spawn(COUNT.of(2)));
            source.despawn(source.spawn(COUNT.of(3)));
            Map<String, Object> table = source.saveSnapshot().table();
            copy.loadSnapshot(table);
            assertEquals(source.spawn(), copy.spawn(), "the free stack came back");
            assertEquals(source.spawn(), copy.spawn());
            assertEquals(1, copy.get(first, COUNT));
        }
        try (World source = World.create(); World small = World.create(
                dev.jtecs.world.WorldConfig.defaults().maxEntities(8))) {
            source.spawn(COUNT.of(1));
            @SuppressWarnings("unchecked")
            Map<String, Object> fits = (Map<String, Object>) SnapshotReaderTestSupport.deepCopy(
                    source.saveSnapshot().table());
            fits.put("nextEntityId", 9); // slots 1..8: as many as the world holds
            small.loadSnapshot(fits);
            assertEquals(1, small.entityCount());
            fits.put("nextEntityId", 10);
            InvalidSnapshotException refused = assertThrows(InvalidSnapshotException.class,
                    () -> small.loadSnapshot(fits));
            assertTrue(refused.getMessage().contains("nextEntityId 10 needs a world of at least 9 entities; this one "
                    + "holds 8"), refused.getMessage());
        }
    }

    /** A table snapshot of three entities of {@code COUNT} 0, 1 and 2 (one archetype, slots 1 to 3). */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> threeCounts(long[] ids) {
        try (World source = World.create()) {
            for (int i = 0; i < 3; i++) {
                ids[i] = source.spawn(COUNT.of(i));
            }
            return (Map<String, Object>) SnapshotReaderTestSupport.deepCopy(source.saveSnapshot().table());
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Object> idsOf(Map<String, Object> table) {
        return (List<Object>) ((Map<String, Object>) ((List<Object>) table.get("archetypes")).get(0)).get("ids");
    }

    @Test
    void anIdIsRefusedAtTheSlotBoundsNamingItsEntity() {
        long[] ids = new long[3];
        Map<String, Consumer<List<Object>>> cases = new LinkedHashMap<>();
        cases.put("archetype 0: id 4294967296 (entity 2) is not an entity id",
                list -> list.set(2, Long.toString(1L << 32))); // slot 0, generation 1: positive, yet no entity
        cases.put("archetype 0: entity 4#0 lies past nextEntityId 4", list -> list.set(1, Long.toString(4)));
        try (World world = World.create()) {
            populate(world);
            String before = WorldState.of(world);
            for (Map.Entry<String, Consumer<List<Object>>> bad : cases.entrySet()) {
                Map<String, Object> table = threeCounts(ids);
                assertEquals(4, ((Number) table.get("nextEntityId")).intValue());
                bad.getValue().accept(idsOf(table));
                InvalidSnapshotException refused = assertThrows(InvalidSnapshotException.class,
                        () -> world.loadSnapshot(table), bad.getKey());
                assertEquals(bad.getKey(), refused.getMessage());
                assertEquals(before, WorldState.of(world), bad.getKey());
            }
        }
    }

    /**
     * An id whose generation does not fit the slot table's packed cell (two bits of position for three entities
     * leave 30 for the generation) is recorded the long way; it and the ids after it still land on their rows.
     */
    @Test
    void anIdWhoseGenerationNoPackedCellHoldsLandsOnItsOwnRow() {
        long[] ids = new long[3];
        Map<String, Object> table = threeCounts(ids);
        long old = Entity.pack(Entity.slot(ids[1]), 1 << 30);
        idsOf(table).set(1, Long.toString(old));
        try (World world = World.create()) {
            world.loadSnapshot(table);
            assertEquals(3, world.entityCount());
            assertEquals(0, world.get(ids[0], COUNT));
            assertEquals(1, world.get(old, COUNT));
            assertEquals(2, world.get(ids[2], COUNT));
            assertTrue(!world.isAlive(ids[1]));
        }
    }

    /**
     * Two binary frames of more ids than the reader copies at once (4,096), so the second frame's later copies
     * start past the first frame's positions, and one id of the second frame's second copy with a generation no
     * packed cell holds (14 bits of position leave 18): every entity gets its own row's values.
     */
    @Test
    void binaryFramesOfMoreIdsThanOneCopyLandEveryIdOnItsRow() {
        int n = 9600; // 5000 of COUNT alone, then 4600 of COUNT and OLD
        long[] ids = new long[n];
        byte[] bytes;
        try (World source = World.create()) {
            for (int i = 0; i < n; i++) {
                ids[i] = i < 5000 ? source.spawn(COUNT.of(i)) : source.spawn(COUNT.of(i), OLD.of(new ShipV1(i, 0, i)));
            }
            bytes = source.saveSnapshot(SnapshotOptions.binary()).toByteArray();
        }
        List<Section> blocks = sections(bytes).stream().filter(section -> section.kind() == Binary.IDS).toList();
        assertEquals(2, blocks.size());
        assertTrue(blocks.get(0).length() > 8 * 4096 && blocks.get(1).length() > 8 * 4096);
        MemorySegment segment = MemorySegment.ofArray(bytes);
        int odd = 4500;
        long id = segment.get(LE64, blocks.get(1).payload() + 8L * odd); // after the fast path took 404 of the copy
        int at = java.util.Arrays.stream(ids).boxed().toList().indexOf(id);
        assertTrue(at >= 0, "an id the source spawned");
        ids[at] = Entity.pack(Entity.slot(id), 1 << 30);
        segment.set(LE64, blocks.get(1).payload() + 8L * odd, ids[at]);
        byte[] edited = SnapshotReaderFuzzTest.repairChecksums(prefixed(bytes), 1);
        try (World world = World.create()) {
            world.loadSnapshot(edited);
            assertEquals(n, world.entityCount());
            for (int i = 0; i < n; i++) {
                assertEquals(i, world.get(ids[i], COUNT), "entity " + i);
                if (i >= 5000) {
                    assertEquals(new ShipV1(i, 0, i), world.get(ids[i], OLD), "entity " + i);
                }
            }
        }
    }

    /** The offset of the first occurrence of {@code text} (UTF-8) in {@code bytes}. */
    private static int find(byte[] bytes, String text) {
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i + needle.length <= bytes.length; i++) {
            if (java.util.Arrays.equals(bytes, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        throw new AssertionError(text);
    }

    @Test
    void aBinarySnapshotWhoseFramesDisagreeWithItsCountsOrItsComponentTableIsRefused() {
        byte[] good;
        try (World source = World.create()) {
            source.spawn(OLD.of(new ShipV1(1, 2, 3)), COUNT.of(1));
            source.spawn(COUNT.of(2));
            source.despawn(source.spawn()); // nextEntityId 4: room for an entityCount of 3
            good = source.saveSnapshot(SnapshotOptions.binary()).toByteArray();
        }
        Map<String, byte[]> cases = new LinkedHashMap<>();
        // the header and the metadata agree on 3 entities, the frames hold 2
        byte[] count = withHeaderInt(good, 32, 3);
        int value = find(count, "entityCount") + "entityCount".length();
        assertEquals(4, count[value], "an int64 follows the key");
        MemorySegment.ofArray(count).set(LE64, value + 1, 3L);
        cases.put("entityCount says 3 but the archetypes hold 2 entities",
                SnapshotReaderFuzzTest.repairChecksums(prefixed(count), 1));
        // frame 0's first component index, one past the component table (its column is raw)
        byte[] index = good.clone();
        Section frame = sections(good).get(2);
        assertEquals(Binary.FRAME, frame.kind());
        int first = frame.payload() + 1 + 4 + 4 + "components".length() + 1 + 4; // map, count, key, list, count
        assertEquals(3, index[first], "an int32 component index");
        MemorySegment.ofArray(index).set(LE32, first + 1, 2);
        cases.put("archetype 0.components[0]", SnapshotReaderFuzzTest.repairChecksums(prefixed(index), 1));
        try (World world = World.create()) {
            populate(world);
            assertRefusedChangingNothing(world, WorldState.of(world), cases);
            world.loadSnapshot(good);
            assertEquals(2, world.entityCount());
        }
    }

    @Test
    void aWorldFullOfFreeSlotsLoadsIntoAWorldOfTheSameCapacity() {
        dev.jtecs.world.WorldConfig eight = dev.jtecs.world.WorldConfig.defaults().maxEntities(8);
        try (World source = World.create(eight); World copy = World.create(eight)) {
            long[] ids = new long[8];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = source.spawn(COUNT.of(i));
            }
            for (long id : ids) {
                source.despawn(id);
            }
            byte[] bytes = source.saveSnapshot(SnapshotOptions.binary()).toByteArray();
            copy.loadSnapshot(bytes); // eight free slots: as many as the world holds
            assertEquals(0, copy.entityCount());
            for (int i = 0; i < ids.length; i++) {
                assertEquals(source.spawn(), copy.spawn(), "spawn " + i);
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aComponentTransientHereLoadsWithoutItsValuesAndTheColumnsAfterItStillLineUp() {
        try (World source = World.create()) {
            long a = source.spawn(OLD.of(new ShipV1(1.5f, -2f, 70)), COUNT.of(4));
            long b = source.spawn(COUNT.of(5));
            byte[] bytes = source.saveSnapshot(SnapshotOptions.binary()).toByteArray();
            byte[] ghostly = SnapshotReaderFuzzTest.repairChecksums(
                    prefixed(replace(bytes, "mig.Count", "mig.Coun2")), 1);
            Map<String, Object> table = (Map<String, Object>) SnapshotReaderTestSupport.deepCopy(
                    source.saveSnapshot().table());
            for (Object entry : (List<?>) table.get("componentTable")) {
                Map<String, Object> map = (Map<String, Object>) entry;
                if (map.get("name").equals("mig.Count")) {
                    map.put("name", "mig.Coun2");
                }
            }
            for (Object snapshot : List.of(ghostly, table)) {
                try (World world = World.create()) {
                    if (snapshot instanceof byte[] raw) {
                        world.loadSnapshot(raw);
                    } else {
                        world.loadSnapshot((Map<String, Object>) snapshot);
                    }
                    assertEquals(new ShipV1(1.5f, -2f, 70), world.get(a, OLD), "the raw blocks after the skipped ones");
                    assertTrue(world.isAlive(b));
                    assertEquals(false, world.has(a, GHOST));
                    assertEquals(false, world.has(b, COUNT));
                }
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aCodecThatChangedSidesIsRefusedNamingBoth() {
        try (World source = World.create(); World world = World.create()) {
            source.spawn(COUNT.of(1));
            Map<String, Object> table = source.saveSnapshot().table();
            Map<String, Object> custom = (Map<String, Object>) SnapshotReaderTestSupport.deepCopy(table);
            for (Object entry : (List<?>) custom.get("componentTable")) {
                ((Map<String, Object>) entry).put("codec", "custom");
            }
            InvalidSnapshotException refused = assertThrows(InvalidSnapshotException.class,
                    () -> world.loadSnapshot(custom));
            assertTrue(refused.getMessage().contains("codec mismatch: saved with a custom codec, registered here with "
                    + "the automatic one"), refused.getMessage());
            assertEquals(0, world.entityCount());
        }
    }

    /**
     * Loads {@code source}'s table snapshot into {@code world} once per case, the case's change applied to a copy:
     * each load is refused with a message containing the case's name, and the world stays {@code before}.
     */
    @SuppressWarnings("unchecked")
    private static void refuseEach(Map<String, Consumer<Map<String, Object>>> cases, World source, World world,
            String before) {
        for (Map.Entry<String, Consumer<Map<String, Object>>> bad : cases.entrySet()) {
            Map<String, Object> table = (Map<String, Object>) SnapshotReaderTestSupport.deepCopy(
                    source.saveSnapshot().table());
            bad.getValue().accept(table);
            InvalidSnapshotException refused = assertThrows(InvalidSnapshotException.class,
                    () -> world.loadSnapshot(table), bad.getKey());
            assertTrue(refused.getMessage().contains(bad.getKey()), bad.getKey() + ": " + refused.getMessage());
            assertEquals(before, WorldState.of(world), bad.getKey());
        }
    }

    /**
     * Every built-in component (each top-level class of {@code dev.jtecs.builtin} with a {@code COMPONENT}) is in
     * the reader's list, so a process that loads a save before it touched a built-in still finds it by name (a
     * fresh process could not load a save holding an {@code EntityKey} until this list existed).
     */
    @Test
    void everyBuiltinComponentIsKnownByNameBeforeALoadLooksItUp() throws Exception {
        java.nio.file.Path classes = java.nio.file.Path.of(
                dev.jtecs.builtin.ChildOf.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("dev/jtecs/builtin");
        List<dev.jtecs.component.Component<?>> declared = new ArrayList<>();
        try (var files = java.nio.file.Files.list(classes)) {
            for (java.nio.file.Path file : files.sorted().toList()) {
                String name = file.getFileName().toString();
                if (!name.endsWith(".class") || name.contains("$") || name.equals("package-info.class")) {
                    continue;
                }
                Class<?> type = Class.forName("dev.jtecs.builtin." + name.substring(0, name.length() - 6));
                for (java.lang.reflect.Field field : type.getFields()) {
                    if (field.getName().equals("COMPONENT")) {
                        declared.add((dev.jtecs.component.Component<?>) field.get(null));
                    }
                }
            }
        }
        assertEquals(10, declared.size(), "the built-ins found: " + declared);
        assertEquals(new java.util.HashSet<>(declared), new java.util.HashSet<>(SnapshotReader.BUILTINS));
        for (dev.jtecs.component.Component<?> builtin : SnapshotReader.BUILTINS) {
            assertEquals(builtin, Components.findByName(builtin.name()));
        }
    }

}
