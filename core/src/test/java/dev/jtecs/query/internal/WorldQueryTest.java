package dev.jtecs.query.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.Disabled;
import dev.jtecs.builtin.Paused;
import dev.jtecs.component.Components;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryCursor;
import dev.jtecs.query.QueryDescriptor;

class WorldQueryTest {
    static final ScalarComponent.OfInt HP = Components.scalar("test.query.Hp", 10);
    static final TagComponent ENEMY = Components.tag("test.query.Enemy");
    static final TagComponent BOSS = Components.tag("test.query.Boss");
    /** A dense cascading parent: one archetype per parent, as the test needs (the builtin ChildOf is sparse). */
    static final dev.jtecs.component.Relationship DENSE_PARENT = dev.jtecs.component.Relationships.register(
            "test.query.DenseParent", o -> o.exclusive().reverseIndex().cascadeDelete());
    static final TagComponent FROZEN = Components.tag("test.query.Frozen");

    private final World world = World.create();
    private final List<String> log = new ArrayList<>();

    @AfterEach
    void tearDown() {
        world.close();
    }

    private List<Integer> visitCounts(Query query) {
        List<Integer> counts = new ArrayList<>();
        query.forEach((archetype, count) -> counts.add(count));
        return counts;
    }

    @Test
    void persistentQueriesPickUpNewArchetypesAndTemporaryOnesDoNot() {
        world.spawn(HP);
        Query persistent = world.newQuery(QueryDescriptor.builder().include(HP).build());
        Query temporary = world.newQuery(QueryDescriptor.builder().include(HP).temp().build());
        world.spawn(HP, ENEMY); // a new matching archetype
        assertEquals(2, persistent.count());
        assertEquals(1, temporary.count());
        assertEquals(2, persistent.archetypes().size());
        assertTrue(temporary.isTemporary());
    }

    @Test
    void iterationVisitsNonEmptyArchetypesOnly() {
        long a = world.spawn(HP);
        world.spawn(HP, ENEMY);
        world.despawn(a);
        Query query = world.newQuery(QueryDescriptor.builder().include(HP).build());
        assertEquals(List.of(1), visitCounts(query));
        assertEquals(2, query.archetypes().size(), "empty archetypes stay matched");
    }

    @Test
    void disabledAndPausedEntitiesAreFilteredByKind() {
        world.spawn(HP);
        world.spawn(HP, Disabled.COMPONENT);
        world.spawn(HP, Paused.COMPONENT);
        assertEquals(2, world.newQuery(QueryDescriptor.builder().include(HP).build()).count());
        assertEquals(1, world.newQuery(QueryDescriptor.builder().include(HP).logic().build()).count());
        assertEquals(2, world.newQuery(QueryDescriptor.builder().include(HP).render().build()).count());
        assertEquals(1, world.newQuery(QueryDescriptor.builder().include(HP, Disabled.COMPONENT).build()).count());
    }

    @Test
    void groupsOrderIterationAndGroupByRunsOncePerArchetype() {
        AtomicInteger calls = new AtomicInteger();
        Query query = world.newQuery(QueryDescriptor.builder().include(HP).groupBy(archetype -> {
            calls.incrementAndGet();
            return archetype.has(BOSS) ? 0 : archetype.has(ENEMY) ? 1 : 2;
        }).build());
        world.spawn(HP);
        world.spawn(HP, ENEMY);
        world.spawn(HP, ENEMY);
        world.spawn(HP, BOSS);
        List<Integer> order = new ArrayList<>();
        query.forEach((archetype, count) -> order.add(query.getGroup(archetype).getAsInt()));
        assertEquals(List.of(0, 1, 2), order);
        assertArrayEquals(new int[] {0, 1, 2}, query.groups());
        assertEquals(2, query.getGroupCount(1));
        assertEquals(3, calls.get(), "one call per archetype, not per entity or iteration");
        try (QueryCursor cursor = query.group(1)) {
            assertTrue(cursor.next());
            assertEquals(2, cursor.count());
            assertFalse(cursor.next());
        }
        Archetype stranger = world.archetypeOf(world.spawn(ENEMY));
        assertTrue(query.getGroup(stranger).isEmpty());
    }

    /**
     * Pruned archetypes leave the query, the survivors keep their order, and archetypes created afterwards (which
     * take the pruned ids) join once each, findable by group like the rest.
     */
    @Test
    void prunedArchetypesLeaveAndArchetypesReusingTheirIdsJoinOnce() {
        Query query = world.newQuery(QueryDescriptor.builder().include(HP)
                .groupBy(archetype -> archetype.has(BOSS) ? 1 : 0).build());
        world.spawn(HP);
        long[] parents = new long[6];
        for (int i = 0; i < parents.length; i++) {
            parents[i] = world.spawn(ENEMY);
            world.spawn(HP, DENSE_PARENT.to(parents[i])); // dense: one archetype per parent
        }
        List<Archetype> before = query.archetypes();
        assertEquals(7, before.size());
        world.despawn(parents[1]); // cascades to its child: the child's archetype empties, its edge is dead
        world.despawn(parents[4]);
        world.commit();
        world.compact();
        List<Archetype> survivors = new ArrayList<>(before);
        survivors.remove(5);
        survivors.remove(2);
        assertEquals(survivors, query.archetypes(), "pruned archetypes leave; the rest keep their order");
        List<Archetype> joined = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            long parent = world.spawn(ENEMY);
            joined.add(world.archetypeOf(world.spawn(HP, BOSS, DENSE_PARENT.to(parent))));
        }
        List<Integer> ids = joined.stream().map(Archetype::id).toList();
        assertTrue(ids.contains(before.get(2).id()) || ids.contains(before.get(5).id()), "a pruned id is reused");
        List<Archetype> expected = new ArrayList<>(survivors);
        expected.addAll(joined);
        assertEquals(expected, query.archetypes(), "each new archetype joins once, after the survivors");
        for (Archetype archetype : expected) {
            assertEquals(OptionalInt.of(archetype.has(BOSS) ? 1 : 0), query.getGroup(archetype));
            assertFalse(((WorldQuery) query).consider(archetype), "already a member");
        }
        assertEquals(expected.size(), visitCounts(query).size(), "every member visited once");
        assertEquals(OptionalInt.empty(), query.getGroup(before.get(2)), "a pruned archetype");
        assertEquals(expected, query.archetypes(), "the lookups changed nothing");
    }

    @Test
    void iterationIsAScopeThatPublishesWhenItEnds() {
        long id = world.spawn(HP);
        Query query = world.newQuery(QueryDescriptor.builder().include(HP).build());
        query.forEach((archetype, count) -> {
            world.set(id, ENEMY);
            assertFalse(world.has(id, ENEMY), "staged while iterating");
        });
        assertTrue(world.has(id, ENEMY));
        assertEquals(0, world.scopeDepth());
    }

    @Test
    void anExceptionEndsTheScopeButLeavesItsWorkForUnwind() {
        long id = world.spawn(HP);
        Query query = world.newQuery(QueryDescriptor.builder().include(HP).build());
        assertThrows(IllegalStateException.class, () -> query.forEach((archetype, count) -> {
            world.set(id, ENEMY);
            throw new IllegalStateException("system failed");
        }));
        assertEquals(0, world.scopeDepth());
        assertFalse(world.has(id, ENEMY));
        world.unwind();
        assertTrue(world.has(id, ENEMY));
    }

    @Test
    void cursorsNestCloseEarlyAndCloseTwiceSafely() {
        world.spawn(HP);
        world.spawn(HP, ENEMY);
        Query query = world.newQuery(QueryDescriptor.builder().include(HP).build());
        int pairs = 0;
        try (QueryCursor outer = query.cursor()) {
            while (outer.next()) {
                try (QueryCursor inner = query.cursor()) {
                    while (inner.next()) {
                        pairs++;
                        assertEquals(2, world.scopeDepth());
                    }
                }
            }
        }
        assertEquals(4, pairs);
        QueryCursor early = query.cursor();
        assertTrue(early.next());
        assertEquals(1, early.entities().get(0) > 0 ? 1 : 0);
        early.close();
        early.close();
        assertEquals(0, world.scopeDepth());
        assertFalse(early.next());
        assertThrows(IllegalStateException.class, early::archetype);
        QueryCursor leaked = query.cursor();
        world.unwind();
        leaked.close(); // after an unwind: clamps at zero
        assertEquals(0, world.scopeDepth());
    }

    @Test
    void membershipCallbacksReportEntriesAndExitsButNotMovesBetweenMatches() {
        long before = world.spawn(HP, ENEMY);
        Query query = world.newQuery(QueryDescriptor.builder().include(HP).exclude(FROZEN)
                .onEntitiesAdded((archetype, from, to) -> log.add("added " + from + ".." + to + " hp="
                        + archetype.getValue(from, HP)))
                .onEntitiesRemoved((archetype, from, to) -> log.add("removed " + from + ".." + to + " hp="
                        + archetype.getValue(from, HP)))
                .build());
        assertEquals(List.of("added 0..1 hp=10"), log, "initial members");
        log.clear();
        long id = world.spawn(HP.of(5));
        world.set(id, ENEMY); // a move between two matching archetypes
        world.set(id, HP.of(6)); // a field change
        assertEquals(List.of("added 0..1 hp=5"), log);
        log.clear();
        world.set(id, FROZEN); // an excluded component arrives
        assertEquals(List.of("removed 1..2 hp=6"), log, "values are still readable");
        log.clear();
        world.remove(id, FROZEN);
        world.despawn(before);
        assertEquals(List.of("added 1..2 hp=6", "removed 0..1 hp=10"), log);
    }

    @Test
    void membershipCallbacksMayStageWorkForTheSameCommit() {
        world.newQuery(QueryDescriptor.builder().include(ENEMY)
                .onEntitiesAdded((archetype, from, to) -> {
                    for (int row = from; row < to; row++) {
                        world.set(archetype.entity(row), HP.of(99));
                    }
                }).build());
        long id = world.spawn(ENEMY);
        assertEquals(99, world.get(id, HP));
    }

    @Test
    void foreignQueriesAreRecognised() {
        Query mine = world.newQuery(QueryDescriptor.builder().include(HP).build());
        world.requireOwnQuery(mine);
        try (World other = World.create()) {
            Query theirs = other.newQuery(QueryDescriptor.builder().include(HP).build());
            assertThrows(IllegalArgumentException.class, () -> world.requireOwnQuery(theirs));
        }
    }

    @Test
    void queriesFailAfterTheWorldCloses() {
        Query query = world.newQuery(QueryDescriptor.builder().include(HP).build());
        world.close();
        assertThrows(IllegalStateException.class, query::count);
        assertThrows(IllegalStateException.class, () -> query.forEach((a, c) -> { }));
        assertThrows(IllegalStateException.class, query::cursor);
    }

    @Test
    void unwindInsideForEachDropsTheVisitsScope() {
        // issue 18, defect 2
        long first = world.spawn(HP.of(1));
        long second = world.spawn(HP.of(2));
        Query query = world.newQuery(QueryDescriptor.builder().include(HP).build());
        List<String> seen = new ArrayList<>();
        query.forEach((archetype, count) -> {
            dev.jtecs.storage.IntColumn hp = archetype.getMut(HP);
            world.unwind();
            assertEquals(1, world.scopeDepth(), "the visit's scope survives the unwind");
            world.set(first, ENEMY); // would move first's row out from under the view if published now
            seen.add("enemy=" + world.has(first, ENEMY) + " row=" + world.rowOf(first));
            hp.set(0, 100); // the visit's view still addresses the visited archetype's rows
        });
        assertEquals(List.of("enemy=false row=0"), seen);
        assertEquals(0, world.scopeDepth());
        assertTrue(world.has(first, ENEMY), "published when the visit ended");
        assertEquals(100, world.get(first, HP));
        assertEquals(2, world.get(second, HP), "the other entity's row was not written");
    }

    @Test
    void aThrowingGroupByWhileAnArchetypeIsCreatedMakesTheQueryVisitAnArchetypeTwice() {
        // issue 18, defect 4
        world.spawn(HP);
        world.spawn(HP, ENEMY);
        Query grouped = world.newQuery(QueryDescriptor.builder().include(HP).groupBy(archetype -> {
            if (archetype.has(BOSS)) {
                throw new IllegalStateException("groupBy failed");
            }
            return archetype.has(ENEMY) ? 2 : 1;
        }).build());
        Query registeredAfter = world.newQuery(QueryDescriptor.builder().include(HP).build());
        List<Archetype> created = new ArrayList<>();
        world.observe(0, dev.jtecs.event.ArchetypeCreated.class, event -> created.add(event.archetype()));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> world.spawn(HP, BOSS));
        assertEquals("groupBy failed", e.getMessage());
        world.unwind();
        assertEquals(1, created.size(), "ArchetypeCreated was delivered all the same");
        Archetype boss = created.get(0);
        List<Archetype> order = grouped.archetypes();
        assertEquals(3, order.size());
        assertEquals(3, new java.util.HashSet<>(order).size(), "each archetype once");
        assertEquals(boss, order.get(0), "adopted in group 0, before groups 1 and 2");
        assertEquals(OptionalInt.of(0), grouped.getGroup(boss));
        assertTrue(registeredAfter.archetypes().contains(boss), "a query after the failing one still adopts it");
        Query later = world.newQuery(QueryDescriptor.builder().include(BOSS).build());
        assertEquals(List.of(boss), later.archetypes());

        assertEquals(2, world.entityCount(), "the spawn failed as a publication fails: discarded");
        long id = world.spawn(HP, BOSS); // the archetype exists now: no groupBy runs
        assertTrue(world.isAlive(id));
        List<Archetype> visited = new ArrayList<>();
        grouped.forEach((archetype, count) -> visited.add(archetype));
        assertEquals(3, new java.util.HashSet<>(visited).size());
        assertEquals(3, visited.size());
        assertEquals(world.archetypeOf(id), visited.get(0));
    }

    @Test
    void aGroupByThatThrowsInNewQueryLeavesNoMembershipCallbackBehind() {
        // issue 18, defect 4
        world.spawn(HP);
        world.spawn(HP, BOSS);
        List<String> heard = new ArrayList<>();
        QueryDescriptor descriptor = QueryDescriptor.builder().include(HP)
                .onEntitiesAdded((archetype, from, to) -> heard.add("added " + (to - from)))
                .groupBy(archetype -> {
                    if (archetype.has(BOSS)) {
                        throw new IllegalStateException("groupBy failed");
                    }
                    return 0;
                }).build();
        assertThrows(IllegalStateException.class, () -> world.newQuery(descriptor));
        world.spawn(HP);
        assertEquals(List.of(), heard, "the query that was never made hears nothing");
    }

    @Test
    void groups() {
        Query query = world.newQuery(QueryDescriptor.builder().include(HP)
                .groupBy(archetype -> archetype.has(BOSS) ? 2 : archetype.has(ENEMY) ? 1 : 0).build());
        world.spawn(HP);
        long enemy = world.spawn(HP, ENEMY);
        world.spawn(HP, BOSS);
        assertArrayEquals(new int[] {0, 1, 2}, query.groups());
        world.despawn(enemy); // group 1's only archetype empties but stays matched
        assertArrayEquals(new int[] {0, 2}, query.groups(), "a group of empty archetypes is not listed");
        assertEquals(0, query.getGroupCount(1));
        world.spawn(HP, ENEMY);
        assertArrayEquals(new int[] {0, 1, 2}, query.groups());
        Query ungrouped = world.newQuery(QueryDescriptor.builder().include(ENEMY).exclude(HP).build());
        assertArrayEquals(new int[0], ungrouped.groups(), "nothing matched holds an entity");
    }

    @Test
    void getGroup() {
        Query grouped = world.newQuery(QueryDescriptor.builder().include(HP)
                .groupBy(archetype -> archetype.has(ENEMY) ? 1 : 0).build());
        Query ungrouped = world.newQuery(QueryDescriptor.builder().include(HP).build());
        Archetype plain = world.archetypeOf(world.spawn(HP));
        Archetype enemy = world.archetypeOf(world.spawn(HP, ENEMY));
        Archetype stranger = world.archetypeOf(world.spawn(ENEMY));
        assertEquals(OptionalInt.of(0), grouped.getGroup(plain), "group 0 is a group");
        assertEquals(OptionalInt.of(1), grouped.getGroup(enemy));
        assertEquals(OptionalInt.empty(), grouped.getGroup(stranger), "unmatched");
        assertEquals(OptionalInt.empty(), ungrouped.getGroup(plain), "ungrouped: no group, not group 0");
    }

    // ---------------------------------------------------------------- the engine's hooks, called directly

    /** A host that lets the thread that made it through and refuses every other; its scopes do nothing. */
    private static final class Host implements QueryHost {
        private final Thread owner = Thread.currentThread();

        @Override
        public void enterScope() {
        }

        @Override
        public void exitScope(boolean publishIfOutermost) {
        }

        @Override
        public int openCursorScope() {
            return 0;
        }

        @Override
        public void closeCursorScope(int token) {
        }

        @Override
        public void checkOpen() {
            checkThread();
        }

        @Override
        public void checkThread() {
            if (Thread.currentThread() != owner) {
                throw new WrongThreadException("not the owner");
            }
        }
    }

    /** The archetype of a new entity with {@code inputs} in {@link #world}. */
    private Archetype archetypeWith(dev.jtecs.component.Input... inputs) {
        return world.archetypeOf(world.spawn(inputs));
    }

    @Test
    void theHooksSayWhetherTheyChangedTheQuery() {
        Archetype hp = archetypeWith(HP);
        Archetype enemy = archetypeWith(HP, ENEMY);
        Archetype boss = archetypeWith(BOSS);
        QueryDescriptor descriptor = QueryDescriptor.builder().include(HP).name("hp").build();
        WorldQuery query = new WorldQuery(new Host(), descriptor);
        assertEquals("hp", query.name());
        assertFalse(query.isTemporary());
        assertTrue(query.consider(hp));
        assertFalse(query.consider(hp), "held already");
        assertFalse(query.consider(boss), "no match");
        assertTrue(query.adopt(enemy));
        assertFalse(query.adopt(enemy), "held already");
        assertFalse(query.adopt(boss), "no match");
        assertTrue(query.matches(hp));
        assertFalse(query.matches(boss));
        assertTrue(query.isMember(hp), "the first one held (index 0)");
        assertTrue(query.isMember(enemy));
        assertFalse(query.isMember(boss));
        assertEquals(descriptor + " matching 2 archetypes", query.toString());
        assertTrue(query.forget(hp));
        assertFalse(query.forget(hp), "forgotten already");
        assertFalse(query.isMember(hp));
        assertTrue(query.isMember(enemy), "the one after it moved down and is still found");
        assertEquals(List.of(enemy), query.archetypes());
        assertTrue(new WorldQuery(new Host(), QueryDescriptor.builder().include(HP).temp().build()).isTemporary());
    }

    @Test
    void theHooksRefuseAThreadThatDoesNotOwnTheWorld() throws Exception {
        Archetype hp = archetypeWith(HP);
        Archetype enemy = archetypeWith(HP, ENEMY);
        WorldQuery query = new WorldQuery(new Host(), QueryDescriptor.builder().include(HP)
                .onEntitiesAdded((a, from, to) -> log.add("added")).build());
        assertTrue(query.consider(hp));
        List<Runnable> hooks = List.of(
                () -> query.consider(enemy),
                () -> query.adopt(enemy),
                () -> query.forget(hp),
                () -> query.forgetAll(java.util.Set.of(hp), query.forgetRoom()),
                query::abandon,
                query::announceInitialMembers);
        for (Runnable hook : hooks) {
            Throwable[] thrown = new Throwable[1];
            Thread other = new Thread(() -> {
                try {
                    hook.run();
                } catch (Throwable t) {
                    thrown[0] = t;
                }
            });
            other.start();
            other.join();
            assertTrue(thrown[0] instanceof WrongThreadException, String.valueOf(thrown[0]));
        }
        assertEquals(List.of(hp), query.archetypes(), "nothing changed");
        assertEquals(List.of(), log, "and nothing was announced");
    }

    /**
     * Forgetting one archetype or several keeps iteration in (group, registration) order, finds the ones left by
     * their new places, and says how many went; a forgotten archetype's rows are no longer announced.
     */
    @Test
    void forgettingKeepsTheOrderByGroupThenRegistration() {
        TagComponent[] tags = new TagComponent[6];
        Archetype[] archetypes = new Archetype[6];
        java.util.Map<Archetype, Integer> groupOf = new java.util.HashMap<>();
        int[] groupsInRegistration = {2, 0, 1, -1, 0, 2};
        for (int i = 0; i < tags.length; i++) {
            tags[i] = dev.jtecs.component.Components.tag("test.query.Forget" + i);
            archetypes[i] = archetypeWith(HP, tags[i]);
            groupOf.put(archetypes[i], groupsInRegistration[i]);
        }
        WorldQuery query = new WorldQuery(new Host(), QueryDescriptor.builder().include(HP)
                .groupBy(groupOf::get).onEntitiesAdded((a, from, to) -> log.add(a.toString())).build());
        for (Archetype archetype : archetypes) {
            assertTrue(query.consider(archetype));
        }
        assertEquals(List.of(archetypes[3], archetypes[1], archetypes[4], archetypes[2], archetypes[0],
                archetypes[5]), query.archetypes());
        assertTrue(query.forget(archetypes[1]));
        assertEquals(List.of(archetypes[3], archetypes[4], archetypes[2], archetypes[0], archetypes[5]),
                query.archetypes());
        for (int i : new int[] {0, 2, 3, 4, 5}) {
            assertEquals(OptionalInt.of(groupsInRegistration[i]), query.getGroup(archetypes[i]), "archetype " + i);
        }
        world.spawn(HP, tags[1]); // into the forgotten archetype: its membership observer left with it
        assertEquals(List.of(), log);
        long[] room = query.forgetRoom();
        assertEquals(0, query.forgetAll(java.util.Set.of(archetypes[1]), room), "not held any more");
        assertEquals(2, query.forgetAll(java.util.Set.of(archetypes[2], archetypes[3], archetypes[1]), room));
        assertEquals(List.of(archetypes[4], archetypes[0], archetypes[5]), query.archetypes());
        for (int i : new int[] {0, 4, 5}) {
            assertEquals(OptionalInt.of(groupsInRegistration[i]), query.getGroup(archetypes[i]), "archetype " + i);
            assertTrue(query.isMember(archetypes[i]));
        }
        assertFalse(query.isMember(archetypes[2]));
        assertFalse(query.isMember(archetypes[3]));
        assertEquals(List.of(0, 2), java.util.Arrays.stream(groupsAfterSpawning(query, tags)).boxed().toList());
    }

    /**
     * Forgetting from a query whose arrays are full (eight held, their first capacity) shifts exactly the ones
     * after it; and the order is rebuilt from the archetypes held now only, whatever the longer order before left
     * past them.
     */
    @Test
    void forgettingFromFullArraysShiftsOnlyWhatIsHeld() {
        Archetype[] archetypes = new Archetype[8];
        java.util.Map<Archetype, Integer> groupOf = new java.util.HashMap<>();
        int[] groupsInRegistration = {0, 5, 9, 1, 3, 3, 3, 3};
        for (int i = 0; i < archetypes.length; i++) {
            archetypes[i] = archetypeWith(HP, dev.jtecs.component.Components.tag("test.query.Full" + i));
            groupOf.put(archetypes[i], groupsInRegistration[i]);
        }
        WorldQuery query = new WorldQuery(new Host(), QueryDescriptor.builder().include(HP).groupBy(groupOf::get)
                .build());
        for (Archetype archetype : archetypes) {
            assertTrue(query.consider(archetype));
        }
        assertTrue(query.forget(archetypes[2])); // group 9, last in the order: the order's last place keeps it
        assertEquals(List.of(archetypes[0], archetypes[3], archetypes[4], archetypes[5], archetypes[6],
                archetypes[7], archetypes[1]), query.archetypes());
        assertTrue(query.forget(archetypes[6]));
        assertEquals(List.of(archetypes[0], archetypes[3], archetypes[4], archetypes[5], archetypes[7],
                archetypes[1]), query.archetypes());
        for (int i : new int[] {0, 1, 3, 4, 5, 7}) {
            assertTrue(query.isMember(archetypes[i]), "archetype " + i);
        }
    }

    /** Spawns one entity into each archetype the tags make, then answers the query's groups with entities. */
    private int[] groupsAfterSpawning(WorldQuery query, TagComponent[] tags) {
        for (TagComponent tag : tags) {
            world.spawn(HP, tag);
        }
        return query.groups();
    }

    /** The lookup by archetype id grows by doubling, not to each new id. */
    @Test
    void theLookupByArchetypeIdGrowsByDoubling() {
        List<Archetype> archetypes = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            archetypes.add(archetypeWith(HP, dev.jtecs.component.Components.tag("test.query.Grow" + i)));
        }
        WorldQuery query = new WorldQuery(new Host(), QueryDescriptor.builder().include(HP).build());
        dev.jtecs.entity.internal.AllocationFaults.disarm(); // restarts the count of growths
        for (Archetype archetype : archetypes) {
            assertTrue(query.consider(archetype));
        }
        long growths = dev.jtecs.entity.internal.AllocationFaults.seen(
                dev.jtecs.entity.internal.AllocationFaults.Kind.HEAP);
        // three arrays by held archetype and the lookup, each doubling from 8: about 24; one growth per id: 300
        assertTrue(growths <= 40, growths + " growths for 300 archetypes");
    }

    /** Only archetypes with rows are announced as a new query's first members. */
    @Test
    void theInitialMembersAreTheRowsOfArchetypesThatHaveAny() {
        long gone = world.spawn(HP, ENEMY);
        world.despawn(gone); // HP + ENEMY stays, empty
        world.spawn(HP);
        world.spawn(HP);
        WorldQuery query = new WorldQuery(new Host(), QueryDescriptor.builder().include(HP)
                .onEntitiesAdded((a, from, to) -> log.add(a.count() + ":" + from + ".." + to)).build());
        for (Archetype archetype : List.of(archetypeWith(BOSS), world.archetypeOf(world.spawn(HP)))) {
            query.consider(archetype);
        }
        query.consider(world.findArchetypes(ENEMY).get(0));
        log.clear();
        query.announceInitialMembers();
        assertEquals(List.of("3:0..3"), log);
    }

    @Test
    void aGroupsCountAddsTheRowsOfItsArchetypesOnly() {
        TagComponent odd = dev.jtecs.component.Components.tag("test.query.Odd");
        world.spawn(HP);
        world.spawn(HP, odd);
        world.spawn(HP, odd);
        Query query = world.newQuery(QueryDescriptor.builder().include(HP)
                .groupBy(a -> a.has(odd) ? 1 : 0).build());
        assertEquals(1, query.getGroupCount(0));
        assertEquals(2, query.getGroupCount(1));
        assertEquals(0, query.getGroupCount(2));
    }
}
