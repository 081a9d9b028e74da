package dev.jtecs.snapshot.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jtecs.builtin.Transform2D;
import dev.jtecs.component.Components;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.RelationshipDefinition;
import dev.jtecs.component.Relationships;
import dev.jtecs.component.TagComponent;
import dev.jtecs.snapshot.SnapshotBuffer;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.snapshot.SnapshotOptions;
import dev.jtecs.world.World;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/** The binary writer: blocks checksummed piece by piece as they are written, the same bytes as checked after. */
class SnapshotWriterTest {
    record Pos(float x, float y) {}

    static final NativeComponent<Pos> POS = Components.registerNative(Pos.class, o -> o.name("writer.Pos"));
    static final ScalarComponent.OfInt HP = Components.scalar("writer.Hp", 0);

    record Wide(byte b, boolean flag, short s, char c, int i, float f, long l, double d) {}

    record Bag(String label) {}

    record Weight(long target, float kg) {}

    record Note(long target, String text) {}

    static final NativeComponent<Wide> WIDE = Components.registerNative(Wide.class, o -> o.name("writer.Wide"));
    static final ManagedComponent<Bag> BAG = Components.registerManaged(Bag.class, o -> o.name("writer.Bag"));
    static final TagComponent MARK = Components.tag("writer.Mark");
    static final NativeComponent<Pos> CODED = Components.registerNative(Pos.class, o -> o.name("writer.Coded")
            .save(p -> p.x() + "/" + p.y())
            .load(saved -> new Pos(Float.parseFloat(((String) saved).split("/")[0]),
                    Float.parseFloat(((String) saved).split("/")[1]))));
    static final Relationship SEES = Relationships.register("writer.Sees", o -> o.sparse());
    static final RelationshipDefinition<Note> NOTES = Relationships.register(Note.class,
            o -> o.name("writer.Notes").sparse());
    static final RelationshipDefinition<Weight> CARRIES = Relationships.register(Weight.class,
            o -> o.name("writer.Carries"));

    @Test
    void aChecksumFoldedInPiecesEqualsTheChecksumOfTheWholePayload() {
        SplittableRandom random = new SplittableRandom(7);
        try (Arena arena = Arena.ofConfined()) {
            long length = 3 * SnapshotWriter.CopiedCrc.PIECE + 12_345;
            MemorySegment out = arena.allocate(length + 40);
            for (long i = 0; i < out.byteSize(); i++) {
                out.set(ValueLayout.JAVA_BYTE, i, (byte) random.nextInt());
            }
            CRC32C crc = new CRC32C();
            int whole = Binary.crc(crc, out, 40, length);
            // written in runs of every length: one byte, a few, longer than a piece, a run ending the payload
            SnapshotWriter.CopiedCrc pieces = new SnapshotWriter.CopiedCrc(out, 40, crc);
            long end = 40;
            while (end < 40 + length) {
                end = Math.min(40 + length, end + 1 + random.nextInt(random.nextBoolean() ? 9 : 150_000));
                pieces.copied(end);
            }
            assertEquals(whole, pieces.finish(40 + length));
            SnapshotWriter.CopiedCrc empty = new SnapshotWriter.CopiedCrc(out, 40, crc);
            assertEquals(Binary.crc(crc, out, 40, 0), empty.finish(40), "an empty block");
        }
    }

    @Test
    void blocksOfManyPiecesAndScatteredRunsSaveTheBytesAWholeSaveChecksAndLoadBack() {
        try (World world = World.create(); World copy = World.create(); World part = World.create()) {
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < 40_000; i++) { // a 160 KB column block: several pieces
                Transform2D at = new Transform2D(i, 0, 0, i % 5 == 0 ? 1 : 0, 0, 1, 1);
                ids.add(world.spawn(POS.of(new Pos(i, -i)), HP.of(i), Transform2D.COMPONENT.of(at)));
            }
            for (int i = 0; i < ids.size(); i += 3) { // swap-removes scatter the rows' slots
                world.despawn(ids.get(i));
            }
            byte[] bytes = world.saveSnapshot(SnapshotOptions.binary()).toByteArray();
            checkEveryBlock(bytes);
            copy.loadSnapshot(bytes); // checks every block's checksum again
            for (int i = 1; i < ids.size(); i += 3) {
                assertEquals(new Pos(i, -i), copy.get(ids.get(i), POS));
                assertEquals(i, copy.get(ids.get(i), HP));
            }
            assertEquals(world.entityCount(), copy.entityCount());
            assertArrayEquals(bytes, copy.saveSnapshot(SnapshotOptions.binary()).toByteArray(),
                    "the loaded world saves the same bytes");

            // layer 0 only: four rows in five, runs of a few rows each, gathered into pieces
            byte[] filtered = world.saveSnapshot(SnapshotOptions.binary().layers(0)).toByteArray();
            checkEveryBlock(filtered);
            part.loadSnapshot(filtered);
            int saved = 0;
            for (int i = 0; i < ids.size(); i++) {
                if (i % 3 != 0) {
                    boolean kept = i % 5 != 0;
                    assertEquals(kept, part.isAlive(ids.get(i)), "entity " + i);
                    if (kept) {
                        assertEquals(new Pos(i, -i), part.get(ids.get(i), POS));
                        saved++;
                    }
                }
            }
            assertEquals(saved, part.entityCount());
        }
    }

    /** Recomputes every section's checksum from its payload, as the reader does. */
    private static void checkEveryBlock(byte[] bytes) {
        MemorySegment in = MemorySegment.ofArray(bytes);
        CRC32C crc = new CRC32C();
        Binary.Header header = Binary.readHeader(in, crc);
        long at = Binary.HEADER;
        for (int s = 0; s < header.sections(); s++) {
            at = Binary.readSection(in, at, header.total(), crc, "section " + s).next(); // throws on a mismatch
        }
        assertEquals(header.total(), at);
    }

    private static Map<?, ?> frameWith(Map<String, Object> root, long id) {
        for (Object frame : (List<?>) root.get("archetypes")) {
            if (((List<?>) ((Map<?, ?>) frame).get("ids")).contains(Long.toString(id))) {
                return (Map<?, ?>) frame;
            }
        }
        throw new AssertionError("no frame holds " + id);
    }

    /** The frame's column entry of one component, by its name in the component table. */
    private static Object columnOf(Map<String, Object> root, Map<?, ?> frame, String name) {
        List<?> table = (List<?>) root.get("componentTable");
        List<?> components = (List<?>) frame.get("components");
        for (int c = 0; c < components.size(); c++) {
            int index = (Integer) components.get(c);
            if (((Map<?, ?>) table.get(index)).get("name").equals(name)) {
                return ((List<?>) frame.get("columns")).get(c);
            }
        }
        throw new AssertionError(name + " is not in the frame");
    }

    @Test
    void aTableFrameHoldsEachKindOfColumnRowByRow() {
        try (World world = World.create(); World copy = World.create()) {
            long target = world.spawn(HP.of(1));
            long[] ids = new long[3];
            for (int i = 0; i < 3; i++) {
                ids[i] = world.spawn(WIDE.of(new Wide((byte) (i - 1), i == 1, (short) (300 * i), (char) ('a' + i),
                        70_000 * i, i + 0.5f, (1L << 40) * i, -i - 0.25)), BAG.of(new Bag("bag" + i)), MARK,
                        CODED.of(new Pos(i, 2 * i)), SEES.to(target), NOTES.of(new Note(target, "n" + i)));
            }
            world.set(ids[2], SEES.to(ids[0]));
            Map<String, Object> root = world.saveSnapshot().table();
            Map<?, ?> frame = frameWith(root, ids[0]);
            assertEquals(List.of(Long.toString(ids[0]), Long.toString(ids[1]), Long.toString(ids[2])),
                    frame.get("ids"));
            Map<?, ?> wide = (Map<?, ?>) columnOf(root, frame, "writer.Wide");
            assertEquals(List.of(-1, 0, 1), wide.get("b"));
            assertEquals(List.of(false, true, false), wide.get("flag"));
            assertEquals(List.of(0, 300, 600), wide.get("s"));
            assertEquals(List.of(70_000 * 0, 70_000, 140_000), wide.get("i"));
            assertEquals(List.of(0.5f, 1.5f, 2.5f), wide.get("f"));
            assertEquals(List.of("0", Long.toString(1L << 40), Long.toString(2L << 40)), wide.get("l"));
            assertEquals(List.of(-0.25, -1.25, -2.25), wide.get("d"));
            assertEquals(3, ((List<?>) wide.get("c")).size());
            assertEquals(List.of(Map.of("label", "bag0"), Map.of("label", "bag1"), Map.of("label", "bag2")),
                    columnOf(root, frame, "writer.Bag"));
            assertEquals(null, columnOf(root, frame, "writer.Mark"), "a tag stores nothing");
            assertEquals(null, columnOf(root, frame, "writer.Sees"), "a sparse marker stores nothing");
            assertEquals(List.of("0.0/0.0", "1.0/2.0", "2.0/4.0"), columnOf(root, frame, "writer.Coded"),
                    "a custom codec's saves, read from the native columns");
            List<?> componentTable = (List<?>) root.get("componentTable");
            List<Object> sparse = new ArrayList<>();
            for (Object entry : (List<?>) frame.get("sparse")) {
                Map<?, ?> map = (Map<?, ?>) entry;
                sparse.add(((Map<?, ?>) componentTable.get((Integer) map.get("relationship"))).get("name"));
                sparse.add(map.get("edges"));
            }
            String t = Long.toString(target);
            List<Object> sorted = new ArrayList<>(List.of(Long.toString(target), Long.toString(ids[0])));
            sorted.sort(java.util.Comparator.comparingLong(x -> Long.parseLong((String) x)));
            assertEquals(List.of("writer.Notes", List.of(
                            List.of(Map.of("target", t, "payload", Map.of("target", t, "text", "n0"))),
                            List.of(Map.of("target", t, "payload", Map.of("target", t, "text", "n1"))),
                            List.of(Map.of("target", t, "payload", Map.of("target", t, "text", "n2")))),
                    "writer.Sees", List.of(List.of(t), List.of(t), sorted)), sparse);
            copy.loadSnapshot(root);
            for (int i = 0; i < 3; i++) {
                assertEquals(world.get(ids[i], WIDE), copy.get(ids[i], WIDE));
                assertEquals(new Pos(i, 2 * i), copy.get(ids[i], CODED));
            }
        }
    }

    @Test
    void aLayerFilteredTableSavesEachRunsValuesAtItsOwnPlace() {
        try (World world = World.create(); World copy = World.create()) {
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                Transform2D at = new Transform2D(i, -i, 0, i % 4 == 1 ? 1 : 0, 0, 1, 1);
                ids.add(world.spawn(POS.of(new Pos(i, i * 10)), Transform2D.COMPONENT.of(at)));
            }
            Map<String, Object> root = world.saveSnapshot(SnapshotOptions.table().layers(0)).table();
            Map<?, ?> frame = frameWith(root, ids.get(0));
            Map<?, ?> pos = (Map<?, ?>) columnOf(root, frame, "writer.Pos");
            List<Object> xs = new ArrayList<>();
            List<Object> savedIds = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                if (i % 4 != 1) {
                    xs.add((float) i);
                    savedIds.add(Long.toString(ids.get(i)));
                }
            }
            assertEquals(savedIds, frame.get("ids"));
            assertEquals(xs, pos.get("x"), "runs of rows between the left-out ones");
            copy.loadSnapshot(root);
            assertEquals(new Pos(11, 110), copy.get(ids.get(11), POS));
        }
    }

    @Test
    void sectionsComeInTheirOrderWithEachFramesColumnsNumberedFromZero() {
        try (World world = World.create(); World copy = World.create()) {
            long target = world.spawn(HP.of(3));
            long a = world.spawn(POS.of(new Pos(1, 2)), HP.of(4), CARRIES.of(new Weight(target, 2.5f)));
            long b = world.spawn(POS.of(new Pos(3, 4)), HP.of(5), CARRIES.of(new Weight(target, 7.5f)));
            byte[] bytes = world.saveSnapshot(SnapshotOptions.binary()).toByteArray();
            MemorySegment in = MemorySegment.ofArray(bytes);
            CRC32C crc = new CRC32C();
            Binary.Header header = Binary.readHeader(in, crc);
            List<String> sections = new ArrayList<>();
            long at = Binary.HEADER;
            while (at < header.total()) {
                Binary.Section section = Binary.readSection(in, at, header.total(), crc, "s");
                sections.add(Binary.kindName(section.kind()) + " " + section.arg());
                at = section.next();
            }
            assertEquals(header.sections(), sections.size(), "the header counts every section written");
            // frame 0 holds the target (one raw column: Hp); frame 1 holds a and b: Pos x, Pos y, Hp, the payload
            int payloadFields = CARRIES.edgeLayout().nativeColumnCount();
            List<String> expected = new ArrayList<>(List.of("META 0", "FREE 0", "FRAME 0", "IDS 0", "COLUMN 0",
                    "FRAME 1", "IDS 1"));
            for (int c = 0; c < 3 + payloadFields; c++) {
                expected.add("COLUMN " + c);
            }
            assertEquals(expected, sections);
            copy.loadSnapshot(bytes);
            List<Weight> weights = new ArrayList<>();
            copy.forEachRelationship(a, CARRIES, weights::add);
            copy.forEachRelationship(b, CARRIES, weights::add);
            assertEquals(List.of(new Weight(target, 2.5f), new Weight(target, 7.5f)), weights);
        }
    }

    @Test
    void aReusedBufferHoldingOldBytesSavesTheBytesOfAFreshSave() {
        try (World world = World.create(); SnapshotBuffer buffer = new SnapshotBuffer(1 << 16)) {
            for (int i = 0; i < 3; i++) { // three floats per column: 12 bytes, padded to 16
                world.spawn(POS.of(new Pos(i, -i)), HP.of(i));
            }
            byte[] fresh = world.saveSnapshot(SnapshotOptions.binary()).toByteArray();
            buffer.ensure(1 << 16).fill((byte) 0xA5);
            byte[] reused = world.saveSnapshot(SnapshotOptions.binary().buffer(buffer)).toByteArray();
            assertArrayEquals(fresh, reused, "every padding byte is written, not left from before");
        }
    }
}
