package dev.jtecs.event;

/**
 * Delivered at address 0 when a state has been pushed: the state is on top of the stack and its policy's
 * {@code onEnter} operation has run (published, unless a scope is open). Follows the {@link StateBlur} of the
 * state it covered, if any.
 *
 * @param state the pushed state's name
 */
public record StateEnter(String state) {}
