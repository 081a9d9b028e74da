package dev.jtecs.nativebindings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_Q;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_SPACE;
import static org.lwjgl.glfw.GLFW.GLFW_PRESS;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ViewerTest {
    private static GlContext context;

    @BeforeAll
    static void openContext() {
        context = GlContext.open(GlContext.Surface.OFFSCREEN, 64, 64, "ViewerTest");
    }

    @AfterAll
    static void closeContext() {
        context.close();
    }

    @Test
    void aWindowRunStopsAfterItsFramesAndUploadsOnlyInTheFirst() {
        try (DotScene scene = new DotScene(200, 1, 0);
                PointRenderer renderer = new PointRenderer(scene.uploader, scene.buffers, Dots.style())) {
            Viewer viewer = new Viewer(scene, renderer);
            assertEquals(new Viewer.WindowRun(5, false), viewer.runWindow(context, 5));
            assertEquals(200L * Dots.ROW_BYTES, scene.uploader.totalBytes(), "nothing moved after the first frame");
            assertEquals(0, scene.lastUploadBytes());
        }
    }

    @Test
    void aQuitKeyEndsTheRunBeforeAnotherFrame() {
        try (DotScene scene = new DotScene(10, 2, 1f);
                PointRenderer renderer = new PointRenderer(scene.uploader, scene.buffers, Dots.style())) {
            Viewer viewer = new Viewer(scene, renderer);
            viewer.controls().onKey(GLFW_KEY_Q, GLFW_PRESS);
            assertEquals(new Viewer.WindowRun(0, true), viewer.runWindow(context, 0));
        }
    }

    @Test
    void theTitleSaysWhatThePictureShows() {
        try (DotScene scene = new DotScene(1234, 3, 1f);
                PointRenderer renderer = new PointRenderer(scene.uploader, scene.buffers, Dots.style())) {
            Viewer viewer = new Viewer(scene, renderer);
            scene.frame();
            assertEquals("jtecs view dots · 1,234 entities · 2.50 ms/frame · 19,744 B uploaded/frame",
                    viewer.title(2.5));
            viewer.controls().onKey(GLFW_KEY_SPACE, GLFW_PRESS);
            assertTrue(viewer.title(2.5).endsWith(" · paused (Space resumes, N steps, Q quits)"));
        }
    }

    @Test
    void anOffscreenRunNeedsAFrameAtLeast() {
        try (DotScene scene = new DotScene(10, 4, 0);
                PointRenderer renderer = new PointRenderer(scene.uploader, scene.buffers, Dots.style());
                OffscreenFrame frame = new OffscreenFrame(8, 8)) {
            Viewer viewer = new Viewer(scene, renderer);
            assertThrows(IllegalArgumentException.class, () -> viewer.runOffscreen(frame, 0));
            assertThrows(IllegalArgumentException.class, () -> viewer.runWindow(context, -1));
        }
    }
}
