package dev.jtecs.nativebindings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class GlContextTest {
    @Test
    void anOffscreenContextNeedsNoDisplayAndGivesGl33OrLater() {
        try (GlContext context = GlContext.open(GlContext.Surface.OFFSCREEN, 32, 32, "t", Map.of())) {
            String described = context.describe();
            int major = Integer.parseInt(described.substring(0, described.indexOf('.')));
            assertTrue(major >= 4 || described.startsWith("3.3"), described);
            assertEquals(GlContext.Surface.OFFSCREEN, context.surface());
        }
    }

    @Test
    void aWindowWithoutADisplayIsRefusedWithOneClearMessage() {
        GlContext.NoDisplayException refused = assertThrows(GlContext.NoDisplayException.class,
                () -> GlContext.open(GlContext.Surface.WINDOW, 32, 32, "t", Map.of("DISPLAY", "")));
        assertTrue(refused.getMessage().startsWith("no display: neither DISPLAY nor WAYLAND_DISPLAY is set"),
                refused.getMessage());
        assertFalse(refused.getMessage().contains("\n"));
    }

    @Test
    @SuppressWarnings("try") // the context is closed inside its block on purpose: what a closed context does
    void oneContextAtATime() {
        try (GlContext context = GlContext.open(GlContext.Surface.OFFSCREEN, 8, 8, "first")) {
            IllegalStateException second = assertThrows(IllegalStateException.class,
                    () -> GlContext.open(GlContext.Surface.OFFSCREEN, 8, 8, "second"));
            assertTrue(second.getMessage().contains("already open"), second.getMessage());
            context.close();
            assertThrows(IllegalStateException.class, context::window);
        }
        GlContext.open(GlContext.Surface.OFFSCREEN, 8, 8, "again").close(); // closing let another open
    }

    @Test
    void sizesOutsideTheRangeAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> GlContext.open(GlContext.Surface.OFFSCREEN, 0, 8, "t"));
        assertThrows(IllegalArgumentException.class,
                () -> GlContext.open(GlContext.Surface.OFFSCREEN, 8, 16385, "t"));
    }

    @Test
    void displayDetectionReadsX11AndWayland() {
        assertTrue(GlContext.hasDisplay(Map.of("DISPLAY", ":1")));
        assertTrue(GlContext.hasDisplay(Map.of("WAYLAND_DISPLAY", "wayland-0")));
        assertFalse(GlContext.hasDisplay(Map.of("DISPLAY", " ")));
        assertFalse(GlContext.hasDisplay(Map.of()));
    }
}
