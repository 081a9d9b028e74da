package dev.jtecs.nativebindings;

import static org.lwjgl.glfw.GLFW.GLFW_CONTEXT_CREATION_API;
import static org.lwjgl.glfw.GLFW.GLFW_CONTEXT_VERSION_MAJOR;
import static org.lwjgl.glfw.GLFW.GLFW_CONTEXT_VERSION_MINOR;
import static org.lwjgl.glfw.GLFW.GLFW_EGL_CONTEXT_API;
import static org.lwjgl.glfw.GLFW.GLFW_FALSE;
import static org.lwjgl.glfw.GLFW.GLFW_OPENGL_CORE_PROFILE;
import static org.lwjgl.glfw.GLFW.GLFW_OPENGL_FORWARD_COMPAT;
import static org.lwjgl.glfw.GLFW.GLFW_OPENGL_PROFILE;
import static org.lwjgl.glfw.GLFW.GLFW_PLATFORM;
import static org.lwjgl.glfw.GLFW.GLFW_PLATFORM_NULL;
import static org.lwjgl.glfw.GLFW.GLFW_RESIZABLE;
import static org.lwjgl.glfw.GLFW.GLFW_TRUE;
import static org.lwjgl.glfw.GLFW.GLFW_VISIBLE;
import static org.lwjgl.glfw.GLFW.glfwCreateWindow;
import static org.lwjgl.glfw.GLFW.glfwDefaultWindowHints;
import static org.lwjgl.glfw.GLFW.glfwDestroyWindow;
import static org.lwjgl.glfw.GLFW.glfwInit;
import static org.lwjgl.glfw.GLFW.glfwInitHint;
import static org.lwjgl.glfw.GLFW.glfwMakeContextCurrent;
import static org.lwjgl.glfw.GLFW.glfwSetErrorCallback;
import static org.lwjgl.glfw.GLFW.glfwSwapInterval;
import static org.lwjgl.glfw.GLFW.glfwTerminate;
import static org.lwjgl.opengl.GL33C.GL_RENDERER;
import static org.lwjgl.opengl.GL33C.GL_VERSION;
import static org.lwjgl.opengl.GL33C.glGetString;

import java.util.Map;
import java.util.Objects;
import org.lwjgl.glfw.GLFWErrorCallback;
import org.lwjgl.opengl.GL;

/**
 * One GLFW window with a current OpenGL 3.3 core context: the only GL state this module creates, one per
 * process at a time (GLFW is process-global).
 *
 * <p>Two kinds: {@link Surface#WINDOW}, a visible window on the desktop's display (X11 or Wayland; without one,
 * opening throws {@link NoDisplayException} before GLFW is touched), and {@link Surface#OFFSCREEN}, which needs no
 * display: GLFW's null platform with an EGL context (Mesa's surfaceless EGL renders in software with llvmpipe),
 * falling back to a hidden window on the display when EGL is missing. Offscreen drawing goes into an
 * {@link OffscreenFrame}, never into the window.
 *
 * <p>Invariants: the context is current on the thread that opened it until {@link #close()}, which destroys the
 * window and terminates GLFW; every GLFW error is kept, and a failed open names the last one.
 */
public final class GlContext implements AutoCloseable {
    /** What the context draws into. */
    public enum Surface { WINDOW, OFFSCREEN }

    private static boolean open;

    private final long window;
    private final Surface surface;
    private final GLFWErrorCallback errors;
    private volatile String lastError = "none";
    private boolean closed;

    private GlContext(Surface surface, int width, int height, String title, Map<String, String> environment) {
        this.surface = surface;
        this.errors = GLFWErrorCallback.create((code, description) ->
                lastError = "GLFW error 0x" + Integer.toHexString(code) + ": " + GLFWErrorCallback.getDescription(description));
        glfwSetErrorCallback(errors);
        long created = 0;
        if (surface == Surface.OFFSCREEN) {
            created = tryCreate(true, false, width, height, title);
            if (created == 0 && hasDisplay(environment)) {
                created = tryCreate(false, false, width, height, title);
            }
        } else {
            created = tryCreate(false, true, width, height, title);
        }
        if (created == 0) {
            String cause = lastError;
            glfwSetErrorCallback(null);
            errors.free();
            throw new IllegalStateException("cannot open an OpenGL 3.3 context (" + surface + "): " + cause
                    + "; install Mesa (apt-get install -y libgl1-mesa-dri libegl-mesa0 libglx-mesa0)");
        }
        this.window = created;
        glfwMakeContextCurrent(window);
        GL.createCapabilities();
        glfwSwapInterval(0);
    }

    /** Inits GLFW on the null (EGL) or the default platform and makes a window; 0 with GLFW terminated on failure. */
    private static long tryCreate(boolean nullPlatform, boolean visible, int width, int height, String title) {
        if (nullPlatform) {
            glfwInitHint(GLFW_PLATFORM, GLFW_PLATFORM_NULL);
        } else {
            glfwInitHint(GLFW_PLATFORM, org.lwjgl.glfw.GLFW.GLFW_ANY_PLATFORM);
        }
        if (!glfwInit()) {
            return 0;
        }
        glfwDefaultWindowHints();
        glfwWindowHints(nullPlatform, visible);
        long handle = glfwCreateWindow(width, height, title, 0, 0);
        if (handle == 0) {
            glfwTerminate();
        }
        return handle;
    }

    private static void glfwWindowHints(boolean egl, boolean visible) {
        org.lwjgl.glfw.GLFW.glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
        org.lwjgl.glfw.GLFW.glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
        org.lwjgl.glfw.GLFW.glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
        org.lwjgl.glfw.GLFW.glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
        org.lwjgl.glfw.GLFW.glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        org.lwjgl.glfw.GLFW.glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
        if (egl) {
            org.lwjgl.glfw.GLFW.glfwWindowHint(GLFW_CONTEXT_CREATION_API, GLFW_EGL_CONTEXT_API);
        }
    }

    /**
     * Opens a context of the given kind; {@code width} and {@code height} size the window (1 to 16384).
     *
     * @throws NoDisplayException for {@link Surface#WINDOW} when the environment names no display
     * @throws IllegalStateException when another context is open, or GL cannot be had (the message says why)
     */
    public static synchronized GlContext open(Surface surface, int width, int height, String title) {
        return open(surface, width, height, title, System.getenv());
    }

    /** {@link #open(Surface, int, int, String)} deciding on the display from {@code environment}. */
    static synchronized GlContext open(Surface surface, int width, int height, String title,
            Map<String, String> environment) {
        Objects.requireNonNull(surface, "surface");
        Objects.requireNonNull(title, "title");
        if (width < 1 || height < 1 || width > 16384 || height > 16384) {
            throw new IllegalArgumentException("width=" + width + " height=" + height + " must lie in 1..16384");
        }
        if (surface == Surface.WINDOW && !hasDisplay(environment)) {
            throw new NoDisplayException();
        }
        if (open) {
            throw new IllegalStateException("a GL context is already open in this process; close it first");
        }
        GlContext context = new GlContext(surface, width, height, title, environment);
        open = true;
        return context;
    }

    /** Whether the environment names a display a window can appear on (X11's DISPLAY or WAYLAND_DISPLAY). */
    public static boolean hasDisplay(Map<String, String> environment) {
        return !environment.getOrDefault("DISPLAY", "").isBlank()
                || !environment.getOrDefault("WAYLAND_DISPLAY", "").isBlank();
    }

    /** The GLFW window handle (hidden, or on the null platform, for {@link Surface#OFFSCREEN}). */
    public long window() {
        checkOpen();
        return window;
    }

    public Surface surface() {
        return surface;
    }

    /** The context's GL version and renderer strings, as the driver reports them. */
    public String describe() {
        checkOpen();
        return glGetString(GL_VERSION) + ", " + glGetString(GL_RENDERER);
    }

    /** The last GLFW error reported while this context was open ({@code none} when there was none). */
    public String lastError() {
        return lastError;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("GL context is closed");
        }
    }

    /** Destroys the window, terminates GLFW and lets another context open; closing twice does nothing. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        GL.setCapabilities(null);
        glfwMakeContextCurrent(0);
        glfwDestroyWindow(window);
        glfwTerminate();
        glfwSetErrorCallback(null);
        errors.free();
        synchronized (GlContext.class) {
            open = false;
        }
    }

    /** Thrown when a window is asked for and the environment names no display. */
    public static final class NoDisplayException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        NoDisplayException() {
            super("no display: neither DISPLAY nor WAYLAND_DISPLAY is set; run on a desktop, under xvfb-run, or"
                    + " render offscreen with --screenshot FILE --frames N");
        }
    }
}
