package dev.jtecs.query;

import dev.jtecs.storage.Archetype;
import java.util.List;
import java.util.OptionalInt;

/**
 * A query: the archetypes of one world that match a {@link QueryDescriptor}, iterated archetype by archetype.
 * Worlds make them ({@code World.newQuery}); a query of one world is refused by every other.
 *
 * <p>A persistent query (the default) adds each new matching archetype as the world registers it, so iteration
 * never rescans the world; a temporary query keeps the set it found at construction. Iteration visits
 * non-empty archetypes only, in ascending group order when grouped (registration order within a group), and is
 * a scope of its world: structural calls made while iterating are staged and published when the iteration ends
 * ({@link #forEach} always ends it, a {@link QueryCursor} ends it when exhausted or closed). A {@code forEach}
 * visit keeps its scope until it returns, even when the visitor calls {@code World.unwind()} (which then
 * publishes when the visit ends); a cursor's scope is closed by {@code unwind()}, after which the views taken in
 * its loop may be stale. Cursors are independent: iterations may nest and interleave. Confined like its world: every method but the descriptor's
 * accessors throws {@link WrongThreadException} on a thread other than the world's owner; the archetypes it
 * hands out are not checked, so workers may read their columns.
 *
 * <p>Membership callbacks ({@code onEntitiesAdded}, {@code onEntitiesRemoved}) run inside the commit drain with
 * one contiguous row range per call: added after rows are placed and written (and, when the query is created,
 * once for each non-empty archetype it starts with), removed before rows leave, while they are still readable.
 * A move between two matching archetypes is no membership change and calls neither.
 */
public interface Query {
    QueryDescriptor descriptor();

    String name();

    boolean isTemporary();

    /** Visits every non-empty matching archetype, as one scope of the world that no {@code unwind()} closes. */
    void forEach(QueryVisitor visitor);

    /** A cursor over every non-empty matching archetype; close it (try-with-resources) if you leave early. */
    QueryCursor cursor();

    /** A cursor over one group's non-empty archetypes. */
    QueryCursor group(int group);

    /** The number of entities in every matching archetype. */
    int count();

    /**
     * The distinct group ids that hold entities now, ascending: a group whose archetypes are all empty is left
     * out, as there is nothing in it to visit. For an ungrouped query, {@code {0}} while it matches any entity.
     */
    int[] groups();

    /**
     * The group {@code groupBy} gave a matching archetype; empty when the query has no {@code groupBy} or does
     * not match the archetype (never matched it, or the archetype was pruned since), so that group 0 is never
     * confused with "no group".
     */
    OptionalInt getGroup(Archetype archetype);

    /** The number of entities in one group. */
    int getGroupCount(int group);

    /** The matching archetypes, empty ones included, in iteration order. */
    List<Archetype> archetypes();
}
