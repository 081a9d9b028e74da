package dev.jtecs.snapshot.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jtecs.builtin.Transform2D;
import dev.jtecs.component.Components;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.snapshot.SnapshotOptions;
import dev.jtecs.world.World;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/** The binary writer: blocks checksummed piece by piece as they are written, the same bytes as checked after. */
class SnapshotWriterTest {
    record Pos(float x, float y) {}

    static final NativeComponent<Pos> POS = Components.registerNative(Pos.class, o -> o.name("writer.Pos"));
    static final ScalarComponent.OfInt HP = Components.scalar("writer.Hp", 0);

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
}
