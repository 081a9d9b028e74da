package dev.jtecs.event;

/**
 * A callback registered for one event type at one address ({@code World.observe}).
 *
 * @param <E> the event type
 */
@FunctionalInterface
public interface Observer<E> {
    void onEvent(E event);
}
