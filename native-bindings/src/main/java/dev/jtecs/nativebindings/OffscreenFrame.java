package dev.jtecs.nativebindings;

import static org.lwjgl.opengl.GL33C.GL_COLOR_ATTACHMENT0;
import static org.lwjgl.opengl.GL33C.GL_FRAMEBUFFER;
import static org.lwjgl.opengl.GL33C.GL_FRAMEBUFFER_COMPLETE;
import static org.lwjgl.opengl.GL33C.GL_PACK_ALIGNMENT;
import static org.lwjgl.opengl.GL33C.GL_RENDERBUFFER;
import static org.lwjgl.opengl.GL33C.GL_RGBA;
import static org.lwjgl.opengl.GL33C.GL_RGBA8;
import static org.lwjgl.opengl.GL33C.GL_UNSIGNED_BYTE;
import static org.lwjgl.opengl.GL33C.glBindFramebuffer;
import static org.lwjgl.opengl.GL33C.glBindRenderbuffer;
import static org.lwjgl.opengl.GL33C.glCheckFramebufferStatus;
import static org.lwjgl.opengl.GL33C.glDeleteFramebuffers;
import static org.lwjgl.opengl.GL33C.glDeleteRenderbuffers;
import static org.lwjgl.opengl.GL33C.glFinish;
import static org.lwjgl.opengl.GL33C.glFramebufferRenderbuffer;
import static org.lwjgl.opengl.GL33C.glGenFramebuffers;
import static org.lwjgl.opengl.GL33C.glGenRenderbuffers;
import static org.lwjgl.opengl.GL33C.glPixelStorei;
import static org.lwjgl.opengl.GL33C.glRenderbufferStorage;
import static org.lwjgl.opengl.GL33C.nglReadPixels;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import javax.imageio.ImageIO;

/**
 * A framebuffer object with one RGBA8 colour buffer: where offscreen frames are drawn, and where their pixels are
 * read back from ({@code glReadPixels} into native memory, then one copy into a {@link Pixels}).
 *
 * @implNote Needs the current GL context of the {@link GlContext} it was made in for every method.
 */
public final class OffscreenFrame implements AutoCloseable {
    private final int width;
    private final int height;
    private final int framebuffer;
    private final int colour;
    private boolean closed;

    /**
     * A {@code width} by {@code height} frame (each 1 to 16384).
     *
     * @throws IllegalStateException when the driver refuses the framebuffer
     */
    public OffscreenFrame(int width, int height) {
        if (width < 1 || height < 1 || width > 16384 || height > 16384) {
            throw new IllegalArgumentException("width=" + width + " height=" + height + " must lie in 1..16384");
        }
        this.width = width;
        this.height = height;
        this.colour = glGenRenderbuffers();
        glBindRenderbuffer(GL_RENDERBUFFER, colour);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
        this.framebuffer = glGenFramebuffers();
        glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour);
        int status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        if (status != GL_FRAMEBUFFER_COMPLETE) {
            close();
            throw new IllegalStateException("framebuffer " + width + "x" + height + " incomplete: status 0x"
                    + Integer.toHexString(status));
        }
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    /** Makes this frame the draw target (until another framebuffer is bound). */
    public void bind() {
        checkOpen();
        glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    }

    /** Waits for the drawing to finish and reads every pixel back, top row first. */
    public Pixels read() {
        checkOpen();
        glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
        glFinish();
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        long rowBytes = 4L * width;
        byte[] rgba = new byte[Math.toIntExact(rowBytes * height)];
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment native_ = arena.allocate(rowBytes * height, 64);
            nglReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, native_.address());
            for (int y = 0; y < height; y++) { // GL's rows run bottom up; an image's top down
                MemorySegment.copy(native_, ValueLayout.JAVA_BYTE, (height - 1 - y) * rowBytes, rgba,
                        (int) (y * rowBytes), (int) rowBytes);
            }
        }
        return new Pixels(width, height, rgba);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("offscreen frame is closed");
        }
    }

    /** Deletes the framebuffer and its colour buffer; closing twice does nothing. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            glBindFramebuffer(GL_FRAMEBUFFER, 0);
            glDeleteFramebuffers(framebuffer);
            glDeleteRenderbuffers(colour);
        }
    }

    /**
     * An RGBA image read back from the GPU, top row first, four bytes a pixel.
     *
     * @param rgba {@code width * height * 4} bytes (kept, not copied: treat it as read-only)
     */
    public record Pixels(int width, int height, byte[] rgba) {
        public Pixels {
            Objects.requireNonNull(rgba, "rgba");
            if (width < 1 || height < 1 || (long) width * height * 4 != rgba.length) {
                throw new IllegalArgumentException("width=" + width + " height=" + height + " rgba.length="
                        + rgba.length + " (expected width * height * 4)");
            }
        }

        /** The pixel at column {@code x}, row {@code y} (from the top) as {@code 0xRRGGBB}. */
        public int rgb(int x, int y) {
            Objects.checkIndex(x, width);
            Objects.checkIndex(y, height);
            int i = (y * width + x) * 4;
            return (rgba[i] & 0xff) << 16 | (rgba[i + 1] & 0xff) << 8 | (rgba[i + 2] & 0xff);
        }

        /** Pixels whose red, green or blue channel is above {@code threshold} (0 to 255). */
        public int litCount(int threshold) {
            int lit = 0;
            for (int i = 0; i < rgba.length; i += 4) {
                if ((rgba[i] & 0xff) > threshold || (rgba[i + 1] & 0xff) > threshold
                        || (rgba[i + 2] & 0xff) > threshold) {
                    lit++;
                }
            }
            return lit;
        }

        /** Pixels that differ between this image and {@code other}, of the same size. */
        public int differingPixels(Pixels other) {
            if (other.width != width || other.height != height) {
                throw new IllegalArgumentException("sizes differ: " + width + "x" + height + " and " + other.width
                        + "x" + other.height);
            }
            int differing = 0;
            for (int i = 0; i < rgba.length; i += 4) {
                if (!Arrays.equals(rgba, i, i + 4, other.rgba, i, i + 4)) {
                    differing++;
                }
            }
            return differing;
        }

        /** Writes the image as a PNG (alpha dropped), replacing {@code file}. */
        public void writePng(Path file) throws IOException {
            BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
            for (int y = 0; y < height; y++) {
                for (int x = 0; x < width; x++) {
                    image.setRGB(x, y, rgb(x, y));
                }
            }
            Path absolute = file.toAbsolutePath();
            Files.createDirectories(absolute.getParent());
            if (!ImageIO.write(image, "png", absolute.toFile())) {
                throw new IOException("no PNG writer in this JVM for " + absolute);
            }
        }
    }
}
