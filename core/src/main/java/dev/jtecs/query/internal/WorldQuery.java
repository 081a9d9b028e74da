package dev.jtecs.query.internal;

import dev.jtecs.entity.internal.Failures;
import dev.jtecs.entity.internal.Growth;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryCallback;
import dev.jtecs.query.QueryCursor;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.query.QueryVisitor;
import dev.jtecs.storage.EntityObserver;
import dev.jtecs.storage.Archetype;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * The world's implementation of {@link Query}: the matched archetypes in registration order, their groups, an
 * iteration order sorted by (group, registration), and a lookup by archetype id, so joining, leaving and
 * {@code getGroup} are O(1) per archetype and iteration allocates nothing.
 *
 * <pre>
 *   world registers an archetype ──► consider: matches? ──► matched[i], groups[i], slotById[id] = i + 1
 *                                                         └─► order (stable insertion by group)
 *   compact prunes one          ──► forget: matched shifts down, slotById and order rebuilt
 * </pre>
 *
 * <p>The engine hooks ({@link #consider}, {@link #forget}, {@link #announceInitialMembers}) are the world's; they
 * are not part of the {@link Query} API.
 */
public final class WorldQuery implements Query {
    private final QueryHost host;
    private final QueryDescriptor descriptor;
    private Archetype[] matched = new Archetype[8];
    private int[] groups = new int[8];
    private int matchedCount;
    private int[] order = new int[8];
    /** By archetype id: 1 + the archetype's index in {@code matched}, or 0; so joining and lookups are O(1). */
    private int[] slotById = new int[8];
    private final EntityObserver membership;

    /** Creates a query over a world; worlds call this from {@code newQuery}. */
    public WorldQuery(QueryHost host, QueryDescriptor descriptor) {
        this.host = Objects.requireNonNull(host, "host");
        this.descriptor = Objects.requireNonNull(descriptor, "descriptor");
        this.membership = descriptor.onEntitiesAdded() != null || descriptor.onEntitiesRemoved() != null
                ? new Membership() : null;
    }

    @Override
    public QueryDescriptor descriptor() {
        return descriptor;
    }

    @Override
    public String name() {
        return descriptor.name();
    }

    @Override
    public boolean isTemporary() {
        return descriptor.isTemporary();
    }

    /**
     * Adds an archetype when it matches (a new query's world calls this for every existing archetype). Returns
     * whether it was added. A {@code groupBy} that throws changes nothing: the exception propagates.
     */
    public boolean consider(Archetype archetype) {
        return consider(archetype, false);
    }

    /**
     * Adds an archetype the world has just created, when it matches. The archetype exists whatever happens, so a
     * {@code groupBy} that throws cannot keep it out: the query adopts it in group 0 and the exception propagates
     * afterwards. Returns whether it was added.
     */
    public boolean adopt(Archetype archetype) {
        return consider(archetype, true);
    }

    private boolean consider(Archetype archetype, boolean fallbackToGroupZero) {
        host.checkThread();
        if (!descriptor.matches(archetype) || indexOf(archetype) >= 0) {
            return false;
        }
        int group = 0;
        Throwable failure = null;
        if (descriptor.groupBy() != null) {
            try {
                group = descriptor.groupBy().applyAsInt(archetype); // user code: before anything changes
            } catch (RuntimeException | Error e) {
                if (!fallbackToGroupZero) {
                    throw e;
                }
                failure = e;
            }
        }
        add(archetype, group);
        Failures.throwIfAny(failure);
        return true;
    }

    /** Joins an archetype with its group: every array grows first, so a failed growth changes nothing. */
    private void add(Archetype archetype, int group) {
        int id = archetype.id();
        if (matchedCount == matched.length || id >= slotById.length) {
            Archetype[] newMatched = matched;
            int[] newGroups = groups;
            int[] newOrder = order;
            int[] newSlotById = slotById;
            if (matchedCount == matched.length) {
                newMatched = Growth.copyOf(matched, matchedCount * 2);
                newGroups = Growth.copyOf(groups, matchedCount * 2);
                newOrder = Growth.copyOf(order, matchedCount * 2);
            }
            if (id >= slotById.length) {
                newSlotById = Growth.copyOf(slotById, Math.max(id + 1, slotById.length * 2));
            }
            matched = newMatched;
            groups = newGroups;
            order = newOrder;
            slotById = newSlotById;
        }
        if (membership != null) {
            archetype.addEntityObserver(membership); // allocates too: before the query holds the archetype
        }
        int index = matchedCount++;
        matched[index] = archetype;
        slotById[id] = index + 1;
        groups[index] = group;
        insertIntoOrder(index);
    }

    /**
     * Drops an archetype the world pruned (its membership observer goes with it). Returns whether it was
     * matched.
     */
    public boolean forget(Archetype archetype) {
        host.checkThread();
        int index = indexOf(archetype);
        if (index < 0) {
            return false;
        }
        System.arraycopy(matched, index + 1, matched, index, matchedCount - index - 1);
        System.arraycopy(groups, index + 1, groups, index, matchedCount - index - 1);
        matchedCount--;
        matched[matchedCount] = null;
        slotById[archetype.id()] = 0;
        for (int i = index; i < matchedCount; i++) {
            slotById[matched[i].id()] = i + 1;
        }
        for (int i = 0; i < matchedCount; i++) {
            order[i] = i;
        }
        for (int i = 1; i < matchedCount; i++) { // insertion sort by (group, registration index): stable
            int current = order[i];
            int j = i;
            while (j > 0 && groups[order[j - 1]] > groups[current]) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = current;
        }
        if (membership != null) {
            archetype.removeEntityObserver(membership);
        }
        return true;
    }

    /** The room {@link #forgetAll} needs: made for every query before any of them forgets anything. */
    public long[] forgetRoom() {
        return new long[matchedCount];
    }

    /**
     * Drops every archetype of {@code pruned} this query matched (compaction prunes many at once): one pass over
     * the matched list and one sort of the iteration order, whatever the number dropped, in {@code room} that
     * {@link #forgetRoom} made, so that nothing here allocates. The archetypes are pruned right after, so this
     * query's membership observer stays on them and goes with them. Returns how many it matched.
     */
    public int forgetAll(java.util.Set<Archetype> pruned, long[] room) {
        host.checkThread();
        int kept = 0;
        int dropped = 0;
        for (int i = 0; i < matchedCount; i++) {
            Archetype archetype = matched[i];
            if (pruned.contains(archetype)) {
                slotById[archetype.id()] = 0;
                dropped++;
                continue;
            }
            matched[kept] = archetype;
            groups[kept] = groups[i];
            slotById[archetype.id()] = kept + 1;
            kept++;
        }
        if (dropped == 0) {
            return 0;
        }
        java.util.Arrays.fill(matched, kept, matchedCount, null);
        matchedCount = kept;
        long[] keys = room; // (group, registration index): a sort of these is the stable order
        for (int i = 0; i < kept; i++) {
            keys[i] = ((long) groups[i] << 32) + i;
        }
        java.util.Arrays.sort(keys, 0, kept);
        for (int i = 0; i < kept; i++) {
            order[i] = (int) keys[i]; // the low half is the index, whatever the group's sign
        }
        return dropped;
    }

    /**
     * Undoes a construction that failed part way ({@code groupBy} threw for an existing archetype): the membership
     * observer leaves every archetype it joined, so the discarded query hears nothing more.
     */
    public void abandon() {
        host.checkThread();
        if (membership != null) {
            for (int i = 0; i < matchedCount; i++) {
                matched[i].removeEntityObserver(membership);
            }
        }
    }

    /** Whether the descriptor selects this archetype (whether or not the query holds it). */
    public boolean matches(Archetype archetype) {
        return descriptor.matches(archetype);
    }

    /** Whether the query holds this archetype. */
    public boolean isMember(Archetype archetype) {
        return indexOf(archetype) >= 0;
    }

    /** The index of {@code archetype} in {@code matched}, or -1 (an id may belong to a pruned archetype). */
    private int indexOf(Archetype archetype) {
        int id = archetype.id();
        int slot = id < slotById.length ? slotById[id] : 0;
        return slot > 0 && matched[slot - 1] == archetype ? slot - 1 : -1;
    }

    /** Keeps {@code order} sorted by (group, registration index). */
    private void insertIntoOrder(int index) {
        int position = index;
        while (position > 0 && groups[order[position - 1]] > groups[index]) {
            order[position] = order[position - 1];
            position--;
        }
        order[position] = index;
    }

    /** Reports the rows of every non-empty matched archetype as added (a new query's initial members). */
    public void announceInitialMembers() {
        host.checkThread();
        QueryCallback added = descriptor.onEntitiesAdded();
        if (added == null) {
            return;
        }
        for (int i = 0; i < matchedCount; i++) {
            Archetype archetype = matched[order[i]];
            if (archetype.count() > 0) {
                added.onRows(archetype, 0, archetype.count());
            }
        }
    }

    /** Visits every non-empty matching archetype, as one scope of the world. */
    @Override
    public void forEach(QueryVisitor visitor) {
        host.checkOpen();
        Objects.requireNonNull(visitor, "visitor");
        host.enterScope();
        boolean ok = false;
        try {
            int count = matchedCount;
            for (int i = 0; i < count; i++) {
                Archetype archetype = matched[order[i]];
                int rows = archetype.count();
                if (rows > 0) {
                    visitor.visit(archetype, rows);
                }
            }
            ok = true;
        } finally {
            host.exitScope(ok);
        }
    }

    /** A cursor over every non-empty matching archetype; close it (try-with-resources) if you leave early. */
    @Override
    public QueryCursor cursor() {
        host.checkOpen();
        return new WorldQueryCursor(this, host, false, 0);
    }

    /** A cursor over one group's non-empty archetypes. */
    @Override
    public QueryCursor group(int group) {
        host.checkOpen();
        return new WorldQueryCursor(this, host, true, group);
    }

    /** The number of entities in every matching archetype. */
    @Override
    public int count() {
        host.checkOpen();
        int total = 0;
        for (int i = 0; i < matchedCount; i++) {
            total += matched[i].count();
        }
        return total;
    }

    /** The distinct group ids of the matching archetypes that hold entities now, ascending. */
    @Override
    public int[] groups() {
        host.checkOpen();
        int[] distinct = new int[matchedCount];
        int n = 0;
        for (int i = 0; i < matchedCount; i++) {
            Archetype archetype = matched[order[i]];
            int group = groups[order[i]];
            if (archetype.count() > 0 && (n == 0 || distinct[n - 1] != group)) {
                distinct[n++] = group;
            }
        }
        return Arrays.copyOf(distinct, n);
    }

    /** The group of a matching archetype; empty for an ungrouped query or an archetype it does not match. */
    @Override
    public OptionalInt getGroup(Archetype archetype) {
        host.checkOpen();
        int index = indexOf(Objects.requireNonNull(archetype, "archetype"));
        return index < 0 || descriptor.groupBy() == null ? OptionalInt.empty() : OptionalInt.of(groups[index]);
    }

    /** The number of entities in one group. */
    @Override
    public int getGroupCount(int group) {
        host.checkOpen();
        int total = 0;
        for (int i = 0; i < matchedCount; i++) {
            if (groups[i] == group) {
                total += matched[i].count();
            }
        }
        return total;
    }

    /** The matching archetypes, empty ones included, in iteration order. */
    @Override
    public List<Archetype> archetypes() {
        host.checkOpen();
        List<Archetype> list = new ArrayList<>(matchedCount);
        for (int i = 0; i < matchedCount; i++) {
            list.add(matched[order[i]]);
        }
        return List.copyOf(list);
    }

    /** Whether this query belongs to the world behind {@code host}. */
    public boolean belongsTo(QueryHost candidate) {
        return host == candidate;
    }

    int matchedCount() {
        return matchedCount;
    }

    Archetype matchedAt(int orderIndex) {
        return matched[order[orderIndex]];
    }

    int groupAt(int orderIndex) {
        return groups[order[orderIndex]];
    }

    @Override
    public String toString() {
        return descriptor + " matching " + matchedCount + " archetypes";
    }

    /** Forwards archetype row notifications that change this query's membership. */
    private final class Membership implements EntityObserver {
        @Override
        public void onEntitiesAdded(Archetype archetype, int fromRow, int toRow, Archetype other) {
            QueryCallback added = descriptor.onEntitiesAdded();
            if (added != null && (other == null || !descriptor.matches(other))) {
                added.onRows(archetype, fromRow, toRow);
            }
        }

        @Override
        public void onEntitiesRemoved(Archetype archetype, int fromRow, int toRow, Archetype other) {
            QueryCallback removed = descriptor.onEntitiesRemoved();
            if (removed != null && (other == null || !descriptor.matches(other))) {
                removed.onRows(archetype, fromRow, toRow);
            }
        }
    }
}
