package dev.jtecs.nativebindings;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.lwjgl.opengl.GL33C.GL_COLOR_BUFFER_BIT;
import static org.lwjgl.opengl.GL33C.GL_SCISSOR_TEST;
import static org.lwjgl.opengl.GL33C.glClear;
import static org.lwjgl.opengl.GL33C.glClearColor;
import static org.lwjgl.opengl.GL33C.glDisable;
import static org.lwjgl.opengl.GL33C.glEnable;
import static org.lwjgl.opengl.GL33C.glScissor;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OffscreenFrameTest {
    private static GlContext context;

    @BeforeAll
    static void openContext() {
        context = GlContext.open(GlContext.Surface.OFFSCREEN, 16, 16, "OffscreenFrameTest");
    }

    @AfterAll
    static void closeContext() {
        context.close();
    }

    /** Clears the frame to blue, then a 3x2 block at GL's lower left (x 0..2, y 0..1) to red. */
    private static OffscreenFrame.Pixels drawBlock(OffscreenFrame frame) {
        frame.bind();
        glClearColor(0f, 0f, 1f, 1f);
        glClear(GL_COLOR_BUFFER_BIT);
        glEnable(GL_SCISSOR_TEST);
        glScissor(0, 0, 3, 2);
        glClearColor(1f, 0f, 0f, 1f);
        glClear(GL_COLOR_BUFFER_BIT);
        glDisable(GL_SCISSOR_TEST);
        return frame.read();
    }

    private static int countRgb(OffscreenFrame.Pixels pixels, int rgb) {
        int n = 0;
        for (int y = 0; y < pixels.height(); y++) {
            for (int x = 0; x < pixels.width(); x++) {
                n += pixels.rgb(x, y) == rgb ? 1 : 0;
            }
        }
        return n;
    }

    @Test
    void readBackPutsTheTopRowFirst() {
        try (OffscreenFrame frame = new OffscreenFrame(10, 8)) {
            OffscreenFrame.Pixels pixels = drawBlock(frame);
            assertEquals(0xff0000, pixels.rgb(0, 7)); // GL's row 0 is the image's bottom row
            assertEquals(0xff0000, pixels.rgb(2, 6));
            assertEquals(0x0000ff, pixels.rgb(3, 7));
            assertEquals(0x0000ff, pixels.rgb(0, 0));
            assertEquals(80, pixels.litCount(200)); // every pixel has a full channel
            assertEquals(6, countRgb(pixels, 0xff0000));
        }
    }

    @Test
    void pngsHoldThePixels(@TempDir Path folder) throws Exception {
        try (OffscreenFrame frame = new OffscreenFrame(10, 8)) {
            OffscreenFrame.Pixels pixels = drawBlock(frame);
            Path file = folder.resolve("sub/block.png");
            pixels.writePng(file);
            BufferedImage image = ImageIO.read(file.toFile());
            assertEquals(10, image.getWidth());
            assertEquals(8, image.getHeight());
            for (int y = 0; y < 8; y++) {
                for (int x = 0; x < 10; x++) {
                    assertEquals(pixels.rgb(x, y), image.getRGB(x, y) & 0xffffff, "pixel " + x + "," + y);
                }
            }
        }
    }

    @Test
    void differingPixelsCountsChangedPixels() {
        byte[] a = new byte[4 * 4];
        byte[] b = a.clone();
        b[5] = 1; // pixel 1, green
        b[15] = 9; // pixel 3, alpha only: still a different pixel
        OffscreenFrame.Pixels left = new OffscreenFrame.Pixels(2, 2, a);
        assertEquals(2, left.differingPixels(new OffscreenFrame.Pixels(2, 2, b)));
        assertEquals(0, left.differingPixels(new OffscreenFrame.Pixels(2, 2, a.clone())));
        assertThrows(IllegalArgumentException.class,
                () -> left.differingPixels(new OffscreenFrame.Pixels(4, 1, a)));
        assertThrows(IllegalArgumentException.class, () -> new OffscreenFrame.Pixels(3, 2, a));
        assertArrayEquals(a, left.rgba());
    }

    @Test
    void badSizesAndClosedFramesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new OffscreenFrame(0, 4));
        OffscreenFrame frame = new OffscreenFrame(4, 4);
        frame.close();
        frame.close();
        assertThrows(IllegalStateException.class, frame::read);
        assertThrows(IllegalStateException.class, frame::bind);
    }
}
