package dev.jtecs.schedule;

/**
 * Where {@link RunIf#inState(String)} learns which state is active. World states are a separate feature; until a
 * world provides them, store an implementation as a resource ({@code world.resources().put(StateSource.class,
 * source)}) or pass one to {@link RunIf#inState(String, StateSource)}.
 */
@FunctionalInterface
public interface StateSource {
    /** The name of the active state (the top of the state stack), or {@code null} when no state is active. */
    String activeState();
}
