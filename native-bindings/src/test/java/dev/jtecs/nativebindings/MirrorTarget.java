package dev.jtecs.nativebindings;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/** An {@link UploadTarget} in native memory that records every call: the uploader's tests read it back. */
final class MirrorTarget implements UploadTarget, AutoCloseable {
    record Upload(int field, long byteOffset, long byteCount) {}

    private final Arena arena = Arena.ofShared();
    private final MemorySegment[] buffers;
    final List<Upload> uploads = new ArrayList<>();

    MirrorTarget(int fields) {
        buffers = new MemorySegment[fields];
    }

    @Override
    @SuppressWarnings("restricted") // the address and size are the uploader's own column's: what a GL upload reads
    public void upload(int field, long byteOffset, long address, long byteCount) {
        MemorySegment source = MemorySegment.ofAddress(address).reinterpret(byteCount);
        MemorySegment.copy(source, 0, buffers[field], byteOffset, byteCount);
        uploads.add(new Upload(field, byteOffset, byteCount));
    }

    @Override
    public void grow(int field, long capacityBytes, long keptBytes) {
        MemorySegment next = arena.allocate(capacityBytes, 64);
        if (buffers[field] != null) {
            MemorySegment.copy(buffers[field], 0, next, 0, keptBytes);
        }
        buffers[field] = next;
    }

    MemorySegment buffer(int field) {
        return buffers[field];
    }

    @Override
    public void close() {
        arena.close();
    }
}
