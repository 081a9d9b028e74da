/**
 * World states: named modes of a game (a menu, a level, a pause screen) kept on a stack, whose top is the active
 * state. Each state has a tag; spawn paths give new entities the active state's tag, and a {@link
 * dev.jtecs.state.StatePolicy} says what happens to the tagged entities as the state moves on the stack.
 *
 * <pre>
 *   createState("game", pauseOnBlur())  ─► tag state:game          spawn(...) while "game" is on top ─► + state:game
 *   pushState("pause")   "game" blurred: onBlur (PAUSE)  ─► StateBlur(game, pause)
 *                        "pause" entered: onEnter        ─► StateEnter(pause)
 *   popState()           StateExit(pause) ─► "pause" onExit ─► off the stack
 *                        "game" focused: onFocus (RESUME) ─► StateFocus(game, pause)
 * </pre>
 *
 * <p>Invariants: a state is on the stack at most once; only names created in the world can be pushed; a
 * transition that throws on bad input (an unknown or stacked name, an empty stack, a transition already
 * running) changes nothing. The stack, policies and events live in the world ({@code World.createState},
 * {@code pushState}, {@code popState}, {@code peekState}, {@code listStates}); this package holds the policy
 * types. {@code spawnAt}, {@code batchSpawnAt} and {@code set} never add a state tag.
 */
package dev.jtecs.state;
