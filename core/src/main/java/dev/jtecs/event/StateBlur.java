package dev.jtecs.event;

/**
 * Delivered at address 0 when a state has lost the top of the stack to a newly pushed one: {@code pushed} is
 * already on top and {@code state}'s policy's {@code onBlur} operation has run (published, unless a scope is
 * open). The {@link StateEnter} of {@code pushed} follows.
 *
 * @param state the covered state's name
 * @param pushed the name of the state pushed on top of it
 */
public record StateBlur(String state, String pushed) {}
