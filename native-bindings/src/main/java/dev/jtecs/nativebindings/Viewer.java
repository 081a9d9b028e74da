package dev.jtecs.nativebindings;

import static org.lwjgl.glfw.GLFW.glfwGetFramebufferSize;
import static org.lwjgl.glfw.GLFW.glfwPollEvents;
import static org.lwjgl.glfw.GLFW.glfwSetKeyCallback;
import static org.lwjgl.glfw.GLFW.glfwSetWindowTitle;
import static org.lwjgl.glfw.GLFW.glfwSwapBuffers;
import static org.lwjgl.glfw.GLFW.glfwWaitEventsTimeout;
import static org.lwjgl.glfw.GLFW.glfwWindowShouldClose;
import static org.lwjgl.opengl.GL33C.GL_FRAMEBUFFER;
import static org.lwjgl.opengl.GL33C.glBindFramebuffer;

import java.util.Locale;
import java.util.Objects;
import org.lwjgl.glfw.GLFWKeyCallback;
import org.lwjgl.system.MemoryStack;

/**
 * The frame loop of a viewer: advance the scene (whose frame uploads the dirty columns), draw the points, show
 * the frame time, the entity count and the bytes uploaded, and handle the keys of {@link ViewerControls}.
 *
 * <pre>
 *   window:    poll keys ─► scene.frame() (world.update: systems, then the upload system) ─► draw ─► swap
 *              the title bar: "name · N entities · t ms/frame · B uploaded/frame [· paused]", refreshed 4x a second
 *   offscreen: N x (scene.frame() ─► draw into the OffscreenFrame) ─► read the pixels back
 * </pre>
 */
public final class Viewer {
    /** What the viewer shows: a simulation whose frame uploads its dirty columns as its last step. */
    public interface Scene {
        /** A name for the title bar. */
        String name();

        /** Runs one frame of the simulation, the upload included. */
        void frame();

        /** Live entities now. */
        int entityCount();

        /** Bytes the last frame uploaded. */
        long lastUploadBytes();
    }

    /** What a window run did. */
    public record WindowRun(long frames, boolean quitByKey) {}

    private static final long TITLE_REFRESH_NANOS = 250_000_000L;

    private final Scene scene;
    private final PointRenderer renderer;
    private final ViewerControls controls = new ViewerControls();

    public Viewer(Scene scene, PointRenderer renderer) {
        this.scene = Objects.requireNonNull(scene, "scene");
        this.renderer = Objects.requireNonNull(renderer, "renderer");
    }

    /** The key state of this viewer (for a window run's key callback, or driven by hand). */
    public ViewerControls controls() {
        return controls;
    }

    /**
     * Runs frames in the context's window until it is closed, a quit key is pressed, or {@code maxFrames}
     * simulation frames ran (0: no limit).
     */
    public WindowRun runWindow(GlContext context, long maxFrames) {
        if (maxFrames < 0) {
            throw new IllegalArgumentException("maxFrames=" + maxFrames + " must be 0 (no limit) or more");
        }
        long window = context.window();
        GLFWKeyCallback keys = GLFWKeyCallback.create((w, key, scancode, action, mods) -> controls.onKey(key, action));
        glfwSetKeyCallback(window, keys);
        long frames = 0;
        long lastTitle = 0;
        double frameMillis = 0;
        try {
            while (!glfwWindowShouldClose(window) && !controls.quitRequested()
                    && (maxFrames == 0 || frames < maxFrames)) {
                glfwPollEvents();
                if (controls.takeFrame()) {
                    long start = System.nanoTime();
                    scene.frame();
                    frameMillis = (System.nanoTime() - start) / 1e6;
                    frames++;
                } else {
                    glfwWaitEventsTimeout(0.05); // paused: sleep until a key instead of spinning
                }
                drawToWindow(window);
                glfwSwapBuffers(window);
                long now = System.nanoTime();
                if (now - lastTitle > TITLE_REFRESH_NANOS) {
                    glfwSetWindowTitle(window, title(frameMillis));
                    lastTitle = now;
                }
            }
        } finally {
            glfwSetKeyCallback(window, null);
            keys.free();
        }
        return new WindowRun(frames, controls.quitRequested());
    }

    private void drawToWindow(long window) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            var width = stack.mallocInt(1);
            var height = stack.mallocInt(1);
            glfwGetFramebufferSize(window, width, height);
            glBindFramebuffer(GL_FRAMEBUFFER, 0);
            renderer.draw(Math.max(1, width.get(0)), Math.max(1, height.get(0)));
        }
    }

    /** The title bar's text for a frame that took {@code frameMillis}. */
    public String title(double frameMillis) {
        return String.format(Locale.ROOT, "jtecs view %s · %,d entities · %.2f ms/frame · %,d B uploaded/frame%s",
                scene.name(), scene.entityCount(), frameMillis, scene.lastUploadBytes(),
                controls.paused() ? " · paused (Space resumes, N steps, Q quits)" : "");
    }

    /** Runs {@code frames} frames (at least 1), drawing each into {@code frame}, and returns the last picture. */
    public OffscreenFrame.Pixels runOffscreen(OffscreenFrame frame, int frames) {
        if (frames < 1) {
            throw new IllegalArgumentException("frames=" + frames + " must be at least 1");
        }
        for (int i = 0; i < frames; i++) {
            scene.frame();
            frame.bind();
            renderer.draw(frame.width(), frame.height());
        }
        return frame.read();
    }
}
