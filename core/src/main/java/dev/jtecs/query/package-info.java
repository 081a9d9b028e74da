/**
 * Queries: descriptors (include / include-any / exclude, state filters, groups, membership callbacks) and
 * iteration over the archetypes that match them. {@link dev.jtecs.query.Query} and
 * {@link dev.jtecs.query.QueryCursor} are interfaces; the world's implementation is in {@code query.internal}.
 *
 * <pre>
 *   World ──ArchetypeCreated──► every persistent query considers it ──► matched list (group order)
 *   query.forEach / cursor ──► scope on ──► visit non-empty archetypes ──► scope off (publishes staged work)
 *   drain ──EntityObserver──► Membership ──(other archetype does not match)──► onEntitiesAdded / Removed
 * </pre>
 *
 * <p>Invariants: a persistent query's matched list holds every matching archetype of its world, each once;
 * iteration allocates nothing per step; a move between two matching archetypes reaches no membership callback.
 */
package dev.jtecs.query;
