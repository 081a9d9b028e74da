package dev.jtecs.snapshot.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jtecs.snapshot.InvalidSnapshotException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * The binary framing on its own: every bound of the header and of a section, checked on bytes built by hand just
 * inside it (accepted) and just outside it (refused with a message that names the numbers). The loader's tests
 * ({@code SnapshotReaderTest}) check the same refusals on saved snapshots; here the bounds meet exactly.
 */
class BinaryTest {
    private static final CRC32C CRC = new CRC32C();

    /** {@code total} bytes with a header written over the first 64 and zeros after it. */
    private static MemorySegment header(long total, int sections, int frames, long entities, int highWater) {
        MemorySegment out = MemorySegment.ofArray(new byte[(int) total]);
        Binary.writeHeader(out, total, sections, frames, entities, highWater, CRC);
        return out;
    }

    private static String refusal(MemorySegment in) {
        return assertThrows(InvalidSnapshotException.class, () -> Binary.readHeader(in, CRC)).getMessage();
    }

    @Test
    void theHeaderNeedsItsSixtyFourBytesAndNoMore() {
        assertEquals("binary snapshot truncated: 63 bytes, the header alone needs 64",
                refusal(MemorySegment.ofArray(new byte[63])));
        assertEquals("not a jtecs binary snapshot: the first 8 bytes are not \"JTECSNAP\"",
                refusal(MemorySegment.ofArray(new byte[64])), "64 bytes are enough to be read as a header");
    }

    @Test
    void theHeadersCountsAreCheckedAgainstWhatItsBytesCanHold() {
        long total = Binary.HEADER + 3 * Binary.SECTION; // room for three section headers, nine ids
        Binary.Header most = Binary.readHeader(header(total, 3, 3, 9, 1), CRC);
        assertEquals(new Binary.Header(total, 3, 3, 9, 1), most, "every count at its largest is accepted");
        assertEquals(new Binary.Header(total, 2, 0, 0, 1), Binary.readHeader(header(total, 2, 0, 0, 1), CRC),
                "and at its smallest");

        assertEquals("binary snapshot header: section count 4 is outside 2..3 (what 136 bytes can hold)",
                refusal(header(total, 4, 0, 0, 1)));
        assertEquals("binary snapshot header: section count 1 is outside 2..3 (what 136 bytes can hold)",
                refusal(header(total, 1, 0, 0, 1)));
        assertEquals("binary snapshot header: frame count 4 is inconsistent with 3 sections",
                refusal(header(total, 3, 4, 0, 1)));
        assertEquals("binary snapshot header: frame count -1 is inconsistent with 3 sections",
                refusal(header(total, 3, -1, 0, 1)));
        assertEquals("binary snapshot header: entity count 10 cannot fit in 136 bytes",
                refusal(header(total, 3, 3, 10, 1)));
        assertEquals("binary snapshot header: entity count -1 cannot fit in 136 bytes",
                refusal(header(total, 3, 3, -1, 1)));
        assertEquals("binary snapshot header: next entity id 0 is below 1", refusal(header(total, 3, 3, 0, 0)));
    }

    /** A payload of {@code length} bytes at byte 64, framed as section {@code kind}, inside {@code total} bytes. */
    private static MemorySegment section(long total, int kind, int arg, int length) {
        MemorySegment out = MemorySegment.ofArray(new byte[(int) total]);
        long payload = Binary.HEADER + Binary.SECTION;
        for (int i = 0; i < length && payload + i < total; i++) { // a length past the end has no bytes there
            out.set(ValueLayout.JAVA_BYTE, payload + i, (byte) (i + 1));
        }
        long present = Math.min(length, total - payload);
        Binary.writeSection(out, Binary.HEADER, kind, arg, length, Binary.crc(CRC, out, payload, present), CRC);
        return out;
    }

    private static String sectionRefusal(MemorySegment in, long at) {
        return assertThrows(InvalidSnapshotException.class,
                () -> Binary.readSection(in, at, in.byteSize(), CRC, "s")).getMessage();
    }

    @Test
    void aSectionIsReadWithItsPaddingAndChecksum() {
        MemorySegment in = section(Binary.HEADER + Binary.SECTION + 8, Binary.FRAME, 4, 5);
        assertEquals(new Binary.Section(Binary.FRAME, 4, 88, 5, 96),
                Binary.readSection(in, Binary.HEADER, in.byteSize(), CRC, "s"));
    }

    @Test
    void aSectionHeaderPastTheEndIsRefusedNamingTheBytesLeft() {
        MemorySegment in = section(Binary.HEADER + Binary.SECTION + 8, Binary.FRAME, 0, 5);
        assertEquals("s: truncated at byte 80, a section header needs 24 bytes and 16 are left",
                sectionRefusal(in, 80));
        assertEquals("s: truncated at byte 96, a section header needs 24 bytes and 0 are left",
                sectionRefusal(in, 96));
    }

    @Test
    void aSectionClaimingMoreThanIsLeftIsRefusedNamingBoth() {
        MemorySegment in = section(Binary.HEADER + Binary.SECTION + 16, Binary.IDS, 1, 17);
        assertEquals("s: section IDS at byte 64 claims 17 payload bytes, 16 are left (hostile or truncated length)",
                sectionRefusal(in, Binary.HEADER));
        MemorySegment unpadded = section(Binary.HEADER + Binary.SECTION + 13, Binary.IDS, 1, 13);
        assertEquals("s: section IDS at byte 64 is truncated (its padding runs past the end)",
                sectionRefusal(unpadded, Binary.HEADER));
    }

    @Test
    void everyPaddingByteMustBeZeroThoughNoChecksumCoversIt() {
        for (int b = 5; b < 8; b++) {
            MemorySegment in = section(Binary.HEADER + Binary.SECTION + 8, Binary.META, 0, 5);
            in.set(ValueLayout.JAVA_BYTE, Binary.HEADER + Binary.SECTION + b, (byte) 1);
            assertEquals("s: nonzero padding after section META at byte " + (Binary.HEADER + Binary.SECTION + b)
                    + " (corrupted)", sectionRefusal(in, Binary.HEADER));
        }
    }

    @Test
    void aCorruptedPayloadIsRefusedNamingItsBytes() {
        MemorySegment in = section(Binary.HEADER + Binary.SECTION + 8, Binary.COLUMN, 2, 6);
        in.set(ValueLayout.JAVA_BYTE, Binary.HEADER + Binary.SECTION + 3, (byte) 99);
        assertEquals("s: section COLUMN (argument 2) checksum mismatch (corrupted payload at bytes 88..94)",
                sectionRefusal(in, Binary.HEADER));
    }

    /** The checksum folds heap and native bytes alike, across its copy chunk, and nothing for an empty range. */
    @Test
    void theChecksumIsTheSameForHeapAndNativeBytes() {
        byte[] bytes = new byte[(1 << 16) * 2 + 77];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 31 + (i >>> 9));
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment heap = MemorySegment.ofArray(bytes);
            MemorySegment off = arena.allocate(bytes.length);
            MemorySegment.copy(heap, 0, off, 0, bytes.length);
            CRC32C expected = new CRC32C();
            expected.update(bytes, 3, bytes.length - 3);
            assertEquals((int) expected.getValue(), Binary.crc(CRC, heap, 3, bytes.length - 3));
            assertEquals((int) expected.getValue(), Binary.crc(CRC, off, 3, bytes.length - 3));
            assertEquals((int) new CRC32C().getValue(), Binary.crc(CRC, heap, 5, 0));
            assertEquals((int) new CRC32C().getValue(), Binary.crc(CRC, off, 5, 0));
        }
    }
}
