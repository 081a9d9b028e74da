package dev.jtecs.nativebindings;

/**
 * Where a {@link DirtyUploader} sends column bytes: one growable destination buffer per uploaded field, written
 * from native addresses (a GL buffer object in {@link GlColumnBuffers}).
 *
 * <p>Invariants the uploader keeps: every {@code upload} lies inside the field's current capacity; {@code grow}
 * is called before any upload that needs more, with the bytes already written that must survive.
 */
public interface UploadTarget {
    /**
     * Copies {@code byteCount} bytes starting at native address {@code address} into field {@code field}'s
     * buffer at {@code byteOffset}. The memory at {@code address} is a live column: read it before returning.
     */
    void upload(int field, long byteOffset, long address, long byteCount);

    /**
     * Replaces field {@code field}'s buffer by one of {@code capacityBytes} bytes whose first {@code keptBytes}
     * equal the old buffer's ({@code keptBytes} is 0 for the first buffer).
     */
    void grow(int field, long capacityBytes, long keptBytes);
}
