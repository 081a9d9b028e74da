package dev.jtecs.nativebindings;

import static org.lwjgl.glfw.GLFW.GLFW_KEY_ESCAPE;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_N;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_Q;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_RIGHT;
import static org.lwjgl.glfw.GLFW.GLFW_KEY_SPACE;
import static org.lwjgl.glfw.GLFW.GLFW_PRESS;
import static org.lwjgl.glfw.GLFW.GLFW_REPEAT;

/**
 * The viewer's keys as a small state machine, apart from GLFW so that it can be driven by hand:
 * {@code Space} pauses and resumes, {@code N} or {@code Right} runs one frame while paused (and pauses a running
 * view), {@code Q} or {@code Escape} quits.
 *
 * <p>Invariants: {@link #takeFrame()} answers true once per requested frame while paused and always while
 * running; once {@link #quitRequested()} is true it stays true.
 */
public final class ViewerControls {
    private boolean paused;
    private int stepsPending;
    private boolean quit;

    /** Controls of a viewer that runs, unpaused, with no step pending. */
    public ViewerControls() {
    }

    /** A key event as GLFW reports it ({@code action} is press, repeat or release); unknown keys do nothing. */
    public void onKey(int key, int action) {
        if (action != GLFW_PRESS && action != GLFW_REPEAT) {
            return;
        }
        switch (key) {
            case GLFW_KEY_SPACE -> {
                if (action == GLFW_PRESS) {
                    paused = !paused;
                    stepsPending = 0;
                }
            }
            case GLFW_KEY_N, GLFW_KEY_RIGHT -> {
                paused = true;
                stepsPending++;
            }
            case GLFW_KEY_Q, GLFW_KEY_ESCAPE -> quit = true;
            default -> { }
        }
    }

    /** Whether the simulation should advance one frame now (consumes one pending step while paused). */
    public boolean takeFrame() {
        if (quit) {
            return false;
        }
        if (!paused) {
            return true;
        }
        if (stepsPending > 0) {
            stepsPending--;
            return true;
        }
        return false;
    }

    public boolean paused() {
        return paused;
    }

    public boolean quitRequested() {
        return quit;
    }
}
