package dev.jtecs.nativebindings;

import static org.lwjgl.opengl.GL33C.GL_COPY_READ_BUFFER;
import static org.lwjgl.opengl.GL33C.GL_COPY_WRITE_BUFFER;
import static org.lwjgl.opengl.GL33C.GL_DYNAMIC_DRAW;
import static org.lwjgl.opengl.GL33C.glBindBuffer;
import static org.lwjgl.opengl.GL33C.glBufferData;
import static org.lwjgl.opengl.GL33C.glCopyBufferSubData;
import static org.lwjgl.opengl.GL33C.glDeleteBuffers;
import static org.lwjgl.opengl.GL33C.glGenBuffers;
import static org.lwjgl.opengl.GL33C.nglBufferSubData;
import static org.lwjgl.opengl.GL33C.nglGetBufferSubData;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.function.IntConsumer;

/**
 * The {@link UploadTarget} of an OpenGL context: one buffer object per field, written with {@code glBufferSubData}
 * from the column's native address (LWJGL's address-taking {@code nglBufferSubData}: no heap copy, no staging
 * buffer on the Java side), grown by copying on the GPU ({@code glCopyBufferSubData}).
 *
 * <p>Invariants: {@link #buffer(int)} names the field's current buffer object, which changes when it grows
 * (a renderer re-binds its vertex attributes through {@link #onGrow}); every upload lies inside
 * {@link #capacityBytes(int)}, checked before GL sees it.
 *
 * @implNote Needs a current OpenGL 3.3 context on the calling thread for every method. The buffers are bound to
 *     {@code GL_COPY_WRITE_BUFFER}, a binding point no draw state depends on.
 */
public final class GlColumnBuffers implements UploadTarget, AutoCloseable {
    private final int[] buffers;
    private final long[] capacity;
    private IntConsumer onGrow = f -> { };
    private boolean closed;

    /** Buffers for {@code fieldCount} fields, created on first {@link #grow}. */
    public GlColumnBuffers(int fieldCount) {
        if (fieldCount < 1) {
            throw new IllegalArgumentException("fieldCount=" + fieldCount + " must be at least 1");
        }
        this.buffers = new int[fieldCount];
        this.capacity = new long[fieldCount];
    }

    /** Runs {@code listener} with the field index each time a field's buffer object is replaced. */
    public void onGrow(IntConsumer listener) {
        this.onGrow = Objects.requireNonNull(listener, "listener");
    }

    @Override
    public void upload(int field, long byteOffset, long address, long byteCount) {
        checkOpen();
        Objects.checkIndex(field, buffers.length);
        if (byteOffset < 0 || byteCount < 0 || byteOffset + byteCount > capacity[field] || address == 0) {
            throw new IllegalArgumentException("field=" + field + " byteOffset=" + byteOffset + " byteCount="
                    + byteCount + " capacityBytes=" + capacity[field] + " address=" + address);
        }
        glBindBuffer(GL_COPY_WRITE_BUFFER, buffers[field]);
        nglBufferSubData(GL_COPY_WRITE_BUFFER, byteOffset, byteCount, address);
    }

    @Override
    public void grow(int field, long capacityBytes, long keptBytes) {
        checkOpen();
        Objects.checkIndex(field, buffers.length);
        if (capacityBytes < keptBytes || keptBytes < 0 || keptBytes > capacity[field]) {
            throw new IllegalArgumentException("field=" + field + " capacityBytes=" + capacityBytes + " keptBytes="
                    + keptBytes + " current capacityBytes=" + capacity[field]);
        }
        int next = glGenBuffers();
        glBindBuffer(GL_COPY_WRITE_BUFFER, next);
        glBufferData(GL_COPY_WRITE_BUFFER, capacityBytes, GL_DYNAMIC_DRAW);
        if (buffers[field] != 0) {
            if (keptBytes > 0) {
                glBindBuffer(GL_COPY_READ_BUFFER, buffers[field]);
                glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, keptBytes);
            }
            glDeleteBuffers(buffers[field]);
        }
        buffers[field] = next;
        capacity[field] = capacityBytes;
        onGrow.accept(field);
    }

    /** The GL name of field {@code field}'s buffer (0 before its first growth). */
    public int buffer(int field) {
        return buffers[Objects.checkIndex(field, buffers.length)];
    }

    /** The bytes field {@code field}'s buffer holds. */
    public long capacityBytes(int field) {
        return capacity[Objects.checkIndex(field, buffers.length)];
    }

    /**
     * Reads {@code into.byteSize()} bytes of field {@code field}'s buffer from {@code byteOffset} back into a
     * native segment (for checks; a GPU read-back stalls the pipeline).
     */
    public void readBack(int field, long byteOffset, MemorySegment into) {
        checkOpen();
        Objects.checkIndex(field, buffers.length);
        if (!into.isNative() || byteOffset < 0 || byteOffset + into.byteSize() > capacity[field]) {
            throw new IllegalArgumentException("field=" + field + " byteOffset=" + byteOffset + " byteCount="
                    + into.byteSize() + " capacityBytes=" + capacity[field] + " native=" + into.isNative());
        }
        glBindBuffer(GL_COPY_READ_BUFFER, buffers[field]);
        nglGetBufferSubData(GL_COPY_READ_BUFFER, byteOffset, into.byteSize(), into.address());
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("GL column buffers are closed");
        }
    }

    /** Deletes the buffer objects (the context must still be current); closing twice does nothing. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            for (int buffer : buffers) {
                if (buffer != 0) {
                    glDeleteBuffers(buffer);
                }
            }
        }
    }
}
