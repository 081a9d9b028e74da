package dev.jtecs.event;

/**
 * Delivered at address 0 when a state is on top of the stack again because the state above it was popped:
 * {@code popped} is gone and {@code state}'s policy's {@code onFocus} operation has run (published, unless a
 * scope is open). Follows the {@link StateExit} of {@code popped}.
 *
 * @param state the uncovered state's name
 * @param popped the name of the state that was popped
 */
public record StateFocus(String state, String popped) {}
