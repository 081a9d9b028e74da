package dev.jtecs.nativebindings;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_A;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_ESCAPE;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_N;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_Q;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_RIGHT;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_SPACE;
import static org.lwjgl.glfw.GLFW.GLFW_PRESS;
import static org.lwjgl.glfw.GLFW.GLFW_RELEASE;
import static org.lwjgl.glfw.GLFW.GLFW_REPEAT;

import org.junit.jupiter.api.Test;

class ViewerControlsTest {
    @Test
    void aRunningViewTakesEveryFrame() {
        ViewerControls controls = new ViewerControls();
        assertTrue(controls.takeFrame());
        assertTrue(controls.takeFrame());
        assertFalse(controls.paused());
    }

    @Test
    void spacePausesAndResumesOnPressOnly() {
        ViewerControls controls = new ViewerControls();
        controls.onKey(GLFW_KEY_SPACE, GLFW_PRESS);
        assertTrue(controls.paused());
        assertFalse(controls.takeFrame());
        controls.onKey(GLFW_KEY_SPACE, GLFW_RELEASE);
        controls.onKey(GLFW_KEY_SPACE, GLFW_REPEAT);
        assertTrue(controls.paused(), "release and auto-repeat leave the pause alone");
        controls.onKey(GLFW_KEY_SPACE, GLFW_PRESS);
        assertTrue(controls.takeFrame());
    }

    @Test
    void stepKeysRunExactlyOneFrameEachAndPause() {
        ViewerControls controls = new ViewerControls();
        controls.onKey(GLFW_KEY_N, GLFW_PRESS);
        assertTrue(controls.paused(), "stepping pauses a running view");
        controls.onKey(GLFW_KEY_RIGHT, GLFW_REPEAT);
        assertTrue(controls.takeFrame());
        assertTrue(controls.takeFrame());
        assertFalse(controls.takeFrame());
    }

    @Test
    void quitKeysStopFramesForGood() {
        for (int key : new int[] {GLFW_KEY_Q, GLFW_KEY_ESCAPE}) {
            ViewerControls controls = new ViewerControls();
            controls.onKey(GLFW_KEY_A, GLFW_PRESS);
            assertFalse(controls.quitRequested());
            controls.onKey(key, GLFW_PRESS);
            assertTrue(controls.quitRequested());
            controls.onKey(GLFW_KEY_SPACE, GLFW_PRESS);
            assertFalse(controls.takeFrame());
            assertTrue(controls.quitRequested());
        }
    }
}
