package dev.jtecs.event;

/**
 * Delivered at address 0 when a state is about to be popped, before anything changes: the state is still on top
 * of the stack and its entities are untouched, so observers may read or save them. Its policy's {@code onExit}
 * operation runs after the observers return.
 *
 * @param state the name of the state leaving the stack
 */
public record StateExit(String state) {}
