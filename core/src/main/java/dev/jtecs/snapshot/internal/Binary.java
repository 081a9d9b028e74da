package dev.jtecs.snapshot.internal;

import dev.jtecs.snapshot.InvalidSnapshotException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.zip.CRC32C;

/**
 * The binary framing. All numbers are little-endian; sections start at multiples of 8 bytes.
 *
 * <pre>
 *   header (64 bytes)
 *     0  magic "JTECSNAP"       8  u32 version (1)      12 u32 header bytes (64)   16 u64 total bytes
 *     24 u32 section count      28 u32 archetype frames  32 u64 entity count        40 u32 next entity id
 *     44 u32 flags (0)          48 16 bytes zero                                    60 u32 CRC-32C of [0, 60)
 *   section (24-byte header, then the payload, zero-padded to a multiple of 8)
 *     0 u32 kind   4 u32 argument   8 u64 payload bytes   16 u32 CRC-32C of the payload   20 u32 CRC-32C of [0, 20)
 *   sections, in this order
 *     META (1)    tagged tree: version, counts, componentTable, data, states, pipeline
 *     FREE (6)    the free slot stack, bottom first: (u32 slot, u32 generation) pairs
 *     per archetype frame f:
 *       FRAME (2, f)   tagged tree: components, pairs, count, columns, pairColumns, sparse
 *       IDS (3, f)     count u64 entity ids
 *       COLUMN (4, c)  one per raw native column, in frame order: count elements of the field's kind
 * </pre>
 */
final class Binary {
    static final long MAGIC = 0x50414E534345544AL; // "JTECSNAP" little-endian
    static final int HEADER = 64;
    static final int SECTION = 24;
    static final int META = 1;
    static final int FRAME = 2;
    static final int IDS = 3;
    static final int COLUMN = 4;
    static final int FREE = 6;

    private Binary() {
    }

    static long pad(long length) {
        return (length + 7) & ~7L;
    }

    static String kindName(int kind) {
        return switch (kind) {
            case META -> "META";
            case FRAME -> "FRAME";
            case IDS -> "IDS";
            case COLUMN -> "COLUMN";
            case FREE -> "FREE";
            default -> "unknown(" + kind + ")";
        };
    }

    static int crc(CRC32C crc, MemorySegment segment, long offset, long length) {
        crc.reset();
        update(crc, segment, offset, length);
        return (int) crc.getValue();
    }

    /** Folds {@code length} bytes of {@code segment} from {@code offset} into {@code crc} (no reset). */
    static void update(CRC32C crc, MemorySegment segment, long offset, long length) {
        if (length > 0) {
            if (segment.isNative()) {
                crc.update(segment.asSlice(offset, length).asByteBuffer());
            } else {
                long done = 0;
                byte[] chunk = new byte[(int) Math.min(length, 1 << 16)];
                while (done < length) {
                    int n = (int) Math.min(chunk.length, length - done);
                    MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, offset + done, chunk, 0, n);
                    crc.update(chunk, 0, n);
                    done += n;
                }
            }
        }
    }

    static void writeHeader(MemorySegment out, long total, int sections, int frames, long entities, int highWater,
            CRC32C crc) {
        out.set(Tagged.LONG, 0, MAGIC);
        out.set(Tagged.INT, 8, dev.jtecs.snapshot.Snapshot.VERSION);
        out.set(Tagged.INT, 12, HEADER);
        out.set(Tagged.LONG, 16, total);
        out.set(Tagged.INT, 24, sections);
        out.set(Tagged.INT, 28, frames);
        out.set(Tagged.LONG, 32, entities);
        out.set(Tagged.INT, 40, highWater);
        out.set(Tagged.INT, 44, 0);
        out.asSlice(48, 12).fill((byte) 0);
        out.set(Tagged.INT, 60, crc(crc, out, 0, 60));
    }

    static void writeSection(MemorySegment out, long at, int kind, int arg, long length, int payloadCrc,
            CRC32C crc) {
        out.set(Tagged.INT, at, kind);
        out.set(Tagged.INT, at + 4, arg);
        out.set(Tagged.LONG, at + 8, length);
        out.set(Tagged.INT, at + 16, payloadCrc);
        out.set(Tagged.INT, at + 20, crc(crc, out, at, 20));
    }

    /** A parsed header. */
    record Header(long total, int sections, int frames, long entities, int highWater) {}

    static Header readHeader(MemorySegment in, CRC32C crc) {
        long size = in.byteSize();
        if (size < HEADER) {
            throw new InvalidSnapshotException("binary snapshot truncated: " + size + " bytes, the header alone needs "
                    + HEADER);
        }
        if (in.get(Tagged.LONG, 0) != MAGIC) {
            throw new InvalidSnapshotException("not a jtecs binary snapshot: the first 8 bytes are not \"JTECSNAP\"");
        }
        int version = in.get(Tagged.INT, 8);
        if (version != dev.jtecs.snapshot.Snapshot.VERSION) {
            throw new InvalidSnapshotException("binary snapshot version " + Integer.toUnsignedString(version)
                    + " is not supported (this build reads version " + dev.jtecs.snapshot.Snapshot.VERSION + ")");
        }
        int stored = in.get(Tagged.INT, 60);
        if (crc(crc, in, 0, 60) != stored) {
            throw new InvalidSnapshotException("binary snapshot header checksum mismatch (corrupted header)");
        }
        if (in.get(Tagged.INT, 12) != HEADER) {
            throw new InvalidSnapshotException("binary snapshot header size " + in.get(Tagged.INT, 12) + " is not "
                    + HEADER);
        }
        long total = in.get(Tagged.LONG, 16);
        if (total < size) {
            throw new InvalidSnapshotException("binary snapshot oversized: the header says " + total + " bytes, the "
                    + "input holds " + size + " (trailing bytes)");
        }
        if (total > size) {
            throw new InvalidSnapshotException("binary snapshot truncated: the header says " + total + " bytes, the "
                    + "input holds " + size);
        }
        int sections = in.get(Tagged.INT, 24);
        int frames = in.get(Tagged.INT, 28);
        long entities = in.get(Tagged.LONG, 32);
        int highWater = in.get(Tagged.INT, 40);
        if (in.get(Tagged.INT, 44) != 0 || in.get(Tagged.LONG, 48) != 0 || in.get(Tagged.INT, 56) != 0) {
            throw new InvalidSnapshotException("binary snapshot header: unknown flags or nonzero reserved bytes");
        }
        long most = (total - HEADER) / SECTION;
        if (sections < 2 || sections > most) {
            throw new InvalidSnapshotException("binary snapshot header: section count " + sections + " is outside 2.."
                    + most + " (what " + total + " bytes can hold)");
        }
        if (frames < 0 || frames > sections) {
            throw new InvalidSnapshotException("binary snapshot header: frame count " + frames + " is inconsistent "
                    + "with " + sections + " sections");
        }
        if (entities < 0 || entities > (total - HEADER) / 8) {
            throw new InvalidSnapshotException("binary snapshot header: entity count " + entities + " cannot fit in "
                    + total + " bytes");
        }
        if (highWater < 1) {
            throw new InvalidSnapshotException("binary snapshot header: next entity id " + highWater + " is below 1");
        }
        return new Header(total, sections, frames, entities, highWater);
    }

    /** One section, checked: its header checksum, its length against what is left, its payload and padding. */
    record Section(int kind, int arg, long payload, long length, long next) {}

    static Section readSection(MemorySegment in, long at, long total, CRC32C crc, String where) {
        if (total - at < SECTION) {
            throw new InvalidSnapshotException(where + ": truncated at byte " + at + ", a section header needs "
                    + SECTION + " bytes and " + (total - at) + " are left");
        }
        if (crc(crc, in, at, 20) != in.get(Tagged.INT, at + 20)) {
            throw new InvalidSnapshotException(where + ": section header checksum mismatch at byte " + at
                    + " (corrupted)");
        }
        int kind = in.get(Tagged.INT, at);
        int arg = in.get(Tagged.INT, at + 4);
        long length = in.get(Tagged.LONG, at + 8);
        long left = total - at - SECTION;
        if (length < 0 || length > left) {
            throw new InvalidSnapshotException(where + ": section " + kindName(kind) + " at byte " + at
                    + " claims " + length + " payload bytes, " + left + " are left (hostile or truncated length)");
        }
        long payload = at + SECTION;
        long padded = pad(length);
        if (padded > left) {
            throw new InvalidSnapshotException(where + ": section " + kindName(kind) + " at byte " + at
                    + " is truncated (its padding runs past the end)");
        }
        for (long b = payload + length; b < payload + padded; b++) {
            if (in.get(ValueLayout.JAVA_BYTE, b) != 0) {
                throw new InvalidSnapshotException(where + ": nonzero padding after section " + kindName(kind)
                        + " at byte " + b + " (corrupted)");
            }
        }
        if (crc(crc, in, payload, length) != in.get(Tagged.INT, at + 16)) {
            throw new InvalidSnapshotException(where + ": section " + kindName(kind) + " (argument " + arg
                    + ") checksum mismatch (corrupted payload at bytes " + payload + ".." + (payload + length) + ")");
        }
        return new Section(kind, arg, payload, length, payload + padded);
    }
}
