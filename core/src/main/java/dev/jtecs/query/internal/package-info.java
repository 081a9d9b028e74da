/**
 * The world's implementation of queries: {@link dev.jtecs.query.internal.WorldQuery} keeps the matched archetypes
 * of one world and iterates them; {@link dev.jtecs.query.internal.WorldQueryCursor} steps through them; the world
 * lends both its scope and checks through {@link dev.jtecs.query.internal.QueryHost}.
 *
 * <pre>
 *   archetype created ─► every persistent WorldQuery.consider ─► matched[], groups[], order (group, registration)
 *   compact() prunes  ─► WorldQuery.forget
 *   forEach           ─► host.enterScope ─► non-empty archetypes in order ─► host.exitScope (publishes)
 *   cursor            ─► host.openCursorScope ─► next() ... ─► host.closeCursorScope (publishes; no-op after an unwind)
 *   membership        ─► an EntityObserver per archetype when the descriptor has callbacks
 * </pre>
 *
 * <p>Invariants: a persistent query's matched list holds every matching archetype of its world, each once;
 * joining and lookups by archetype id are O(1); iteration allocates nothing per step. Internal to the core module.
 */
package dev.jtecs.query.internal;
