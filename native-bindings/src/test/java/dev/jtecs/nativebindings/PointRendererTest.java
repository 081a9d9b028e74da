package dev.jtecs.nativebindings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PointRendererTest {
    private static final int SIZE = 256;
    private static final int DOTS = 500;
    private static GlContext context;

    @BeforeAll
    static void openContext() {
        context = GlContext.open(GlContext.Surface.OFFSCREEN, 16, 16, "PointRendererTest");
    }

    @AfterAll
    static void closeContext() {
        context.close();
    }

    /** Draws {@code dots} dots of {@code seed} after {@code frames} frames of moving by {@code step}. */
    private static OffscreenFrame.Pixels render(int dots, long seed, int frames, float step) {
        try (DotScene scene = new DotScene(dots, seed, step);
                PointRenderer renderer = new PointRenderer(scene.uploader, scene.buffers, Dots.style());
                OffscreenFrame frame = new OffscreenFrame(SIZE, SIZE)) {
            return new Viewer(scene, renderer).runOffscreen(frame, frames);
        }
    }

    @Test
    void everyDotLightsAboutFourPixels() throws Exception {
        OffscreenFrame.Pixels pixels = render(DOTS, 1, 1, 0);
        pixels.writePng(Path.of("target/point-renderer-test.png")); // to look at
        int lit = pixels.litCount(40);
        // 2-pixel points cover 2x2 pixels each; a few overlap
        assertTrue(lit > DOTS * 4 * 0.9 && lit <= DOTS * 4, "lit=" + lit);
        assertEquals(0x05050d, pixels.rgb(0, 0), "the background outside the dots (x, y in -95..95)");
    }

    @Test
    void theSameSeedGivesTheSamePixelsAndAnotherSeedOthers() {
        OffscreenFrame.Pixels first = render(DOTS, 2, 3, 0.5f);
        OffscreenFrame.Pixels again = render(DOTS, 2, 3, 0.5f);
        assertEquals(0, first.differingPixels(again));
        assertTrue(first.differingPixels(render(DOTS, 3, 3, 0.5f)) > DOTS, "another seed, another picture");
    }

    @Test
    void thePictureChangesWhenTheDotsMove() {
        OffscreenFrame.Pixels still = render(DOTS, 4, 5, 0);
        OffscreenFrame.Pixels moved = render(DOTS, 4, 5, 1f); // 5 frames x 1 unit = about 6 pixels right
        assertTrue(still.differingPixels(moved) > DOTS * 4, "differing=" + still.differingPixels(moved));
        int lit = moved.litCount(40);
        assertTrue(Math.abs(lit - still.litCount(40)) < DOTS / 5, "the dots moved, they did not vanish");
    }

    @Test
    void despawnedRowsInsideARegionAreNotDrawn() {
        try (DotScene scene = new DotScene(DOTS, 5, 0);
                PointRenderer renderer = new PointRenderer(scene.uploader, scene.buffers, Dots.style());
                OffscreenFrame frame = new OffscreenFrame(SIZE, SIZE)) {
            Viewer viewer = new Viewer(scene, renderer);
            int before = viewer.runOffscreen(frame, 1).litCount(40);
            scene.world.forEachArchetype(archetype -> {
                if (archetype.has(Dots.DOT)) {
                    long[] ids = new long[archetype.count() / 2];
                    for (int i = 0; i < ids.length; i++) {
                        ids[i] = archetype.entity(i);
                    }
                    scene.world.despawn(ids, 0, ids.length);
                }
            });
            int after = viewer.runOffscreen(frame, 1).litCount(40);
            assertTrue(after < before * 0.6 && after > before * 0.4, "before=" + before + " after=" + after);
        }
    }

    @Test
    void aStyleFieldThatIsNotUploadedIsRefused() {
        try (DotScene scene = new DotScene(10, 6, 0)) {
            PointStyle spinColour = new PointStyle(Dots.X, Dots.Y, Dots.RATE, null, 0, 1, 0, 0, 1, 1, 1);
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> new PointRenderer(scene.uploader, scene.buffers, spinColour));
            assertTrue(refused.getMessage().contains("rate"), refused.getMessage());
        }
    }
}
