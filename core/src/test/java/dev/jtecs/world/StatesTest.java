package dev.jtecs.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.Disabled;
import dev.jtecs.builtin.Paused;
import dev.jtecs.component.Components;
import dev.jtecs.component.Input;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.StorageKind;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.event.OnDespawn;
import dev.jtecs.event.OnSpawn;
import dev.jtecs.event.StateBlur;
import dev.jtecs.event.StateEnter;
import dev.jtecs.event.StateExit;
import dev.jtecs.event.StateFocus;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.state.StateOperation;
import dev.jtecs.state.StatePolicy;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import dev.jtecs.mutation.BatchIds;

/** States through the world: creation, the stack, spawn paths, policy effects, events and their timing. */
class StatesTest {
    record Spot(float x, float y) {}

    static final NativeComponent<Spot> SPOT = Components.registerNative(Spot.class);
    static final ScalarComponent.OfInt HP = Components.scalar("test.states.Hp", 3);
    static final TagComponent A = Components.tag("test.states.A");
    static final TagComponent B = Components.tag("test.states.B");
    static final TagComponent C = Components.tag("test.states.C");
    static final TagComponent D = Components.tag("test.states.D");

    private final World world = World.create();
    private final List<String> log = new ArrayList<>();

    @AfterEach
    void tearDown() {
        world.close();
    }

    /** Logs every state event, with the active state at delivery. */
    private void logStateEvents() {
        world.observe(Entity.WORLD, StateEnter.class, e -> log.add("enter " + e.state() + " top=" + world.peekState()));
        world.observe(Entity.WORLD, StateExit.class, e -> log.add("exit " + e.state() + " top=" + world.peekState()));
        world.observe(Entity.WORLD, StateBlur.class,
                e -> log.add("blur " + e.state() + " by " + e.pushed() + " top=" + world.peekState()));
        world.observe(Entity.WORLD, StateFocus.class,
                e -> log.add("focus " + e.state() + " after " + e.popped() + " top=" + world.peekState()));
    }

    /** The ids a query matches now, sorted. */
    private static Set<Long> members(Query query) {
        Set<Long> ids = new TreeSet<>();
        query.forEach((archetype, count) -> {
            for (int row = 0; row < count; row++) {
                ids.add(archetype.entities().get(row));
            }
        });
        return ids;
    }

    private Query query(QueryDescriptor.Builder builder) {
        return world.newQuery(builder.build());
    }

    // ---------------------------------------------------------------- creating states

    @Test
    void createStateReturnsAProcessWideTagNamedAfterTheState() {
        TagComponent menu = world.createState("test.menu", StatePolicy.none());
        assertEquals("state:test.menu", menu.name());
        assertEquals(StorageKind.TAG, menu.storage());
        assertSame(menu, Components.findByName("state:test.menu"));
        try (World other = World.create()) {
            assertSame(menu, other.createState("test.menu", StatePolicy.pauseOnBlur()), "one tag per name");
        }
        assertEquals(List.of(), world.listStates(), "creating does not push");
        assertNull(world.peekState());
    }

    @Test
    void aDuplicateStateNameIsRefusedAndTheFirstPolicyStands() {
        world.createState("game", StatePolicy.pauseOnBlur());
        world.createState("menu", StatePolicy.none());
        world.pushState("game");
        long e = world.spawn(A);
        IllegalArgumentException duplicate = assertThrows(IllegalArgumentException.class,
                () -> world.createState("game", StatePolicy.despawnOnExit()));
        assertTrue(duplicate.getMessage().startsWith("createState(game): the state already exists in this world"),
                duplicate.getMessage());
        assertEquals(List.of("game"), world.listStates());
        world.pushState("menu");
        assertTrue(world.has(e, Paused.COMPONENT), "still the first policy: pause on blur");
        world.popState();
        world.popState();
        assertTrue(world.isAlive(e), "not the refused policy: despawn on exit");
    }

    @Test
    void badStateNamesAndPoliciesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> world.createState(" ", StatePolicy.none()));
        assertThrows(NullPointerException.class, () -> world.createState(null, StatePolicy.none()));
        assertThrows(NullPointerException.class, () -> world.createState("x", null));
        assertThrows(IllegalArgumentException.class, () -> world.pushState("x"), "the refused state was not created");
        assertThrows(NullPointerException.class, () -> world.pushState(null));
    }

    @Test
    void aStateWhoseTagNameIsTakenByAnotherComponentIsNotCreated() {
        Components.scalar("state:test.taken", 1);
        assertThrows(IllegalStateException.class, () -> world.createState("test.taken", StatePolicy.none()));
        IllegalArgumentException unknown =
                assertThrows(IllegalArgumentException.class, () -> world.pushState("test.taken"));
        assertTrue(unknown.getMessage().contains("no state of that name"), unknown.getMessage());
    }

    // ---------------------------------------------------------------- the stack

    @Test
    void theStackPushesPeeksListsAndPops() {
        world.createState("a", StatePolicy.none());
        world.createState("b", StatePolicy.none());
        world.createState("c", StatePolicy.none());
        world.pushState("a");
        world.pushState("b");
        world.pushState("c");
        assertEquals("c", world.peekState());
        assertEquals(List.of("a", "b", "c"), world.listStates());
        world.popState();
        assertEquals("b", world.peekState());
        assertEquals(List.of("a", "b"), world.listStates());
        world.pushState("c"); // off the stack again: may be pushed again
        assertEquals(List.of("a", "b", "c"), world.listStates());
        assertThrows(UnsupportedOperationException.class, () -> world.listStates().add("d"));
    }

    @Test
    void pushingAnUnknownStateThrowsAndChangesNothing() {
        world.createState("game", StatePolicy.pauseOnBlur());
        world.pushState("game");
        long e = world.spawn(A);
        logStateEvents();
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> world.pushState("nowhere"));
        assertEquals("pushState(nowhere): no state of that name was created in this world (created: [game])",
                unknown.getMessage());
        assertEquals(List.of("game"), world.listStates());
        assertFalse(world.has(e, Paused.COMPONENT), "game was not blurred");
        assertEquals(List.of(), log);
    }

    @Test
    void pushingAStateAlreadyOnTheStackThrowsAndChangesNothing() {
        world.createState("game", StatePolicy.pauseOnBlur());
        world.createState("menu", StatePolicy.disableOnBlur());
        world.pushState("game");
        long g = world.spawn(A);
        world.pushState("menu");
        long m = world.spawn(A);
        logStateEvents();
        IllegalArgumentException top = assertThrows(IllegalArgumentException.class, () -> world.pushState("menu"));
        assertEquals("pushState(menu): the state is already on the stack [game, menu]", top.getMessage());
        IllegalArgumentException below = assertThrows(IllegalArgumentException.class, () -> world.pushState("game"));
        assertEquals("pushState(game): the state is already on the stack [game, menu]", below.getMessage());
        assertEquals(List.of("game", "menu"), world.listStates());
        assertFalse(world.has(m, Disabled.COMPONENT), "menu was not blurred");
        assertTrue(world.has(g, Paused.COMPONENT));
        assertEquals(List.of(), log);
    }

    @Test
    void poppingAnEmptyStackThrowsAndChangesNothing() {
        world.createState("game", StatePolicy.none());
        logStateEvents();
        IllegalStateException empty = assertThrows(IllegalStateException.class, world::popState);
        assertEquals("popState(): the state stack is empty (created states: [game])", empty.getMessage());
        assertNull(world.peekState());
        assertEquals(List.of(), world.listStates());
        assertEquals(List.of(), log);
    }

    @Test
    void aTransitionCannotStartWhileAnotherRuns() {
        world.createState("game", StatePolicy.none());
        world.createState("menu", StatePolicy.none());
        world.observe(Entity.WORLD, StateEnter.class, e -> {
            if (e.state().equals("game")) {
                world.pushState("menu");
            }
        });
        IllegalStateException nested = assertThrows(IllegalStateException.class, () -> world.pushState("game"));
        assertTrue(nested.getMessage().startsWith("pushState(menu): not allowed while pushState(game) runs"),
                nested.getMessage());
        assertEquals(List.of("game"), world.listStates(), "the outer push had happened; the nested one did not");
        world.observe(Entity.WORLD, StateExit.class, e -> world.popState());
        IllegalStateException nestedPop = assertThrows(IllegalStateException.class, world::popState);
        assertTrue(nestedPop.getMessage().startsWith("popState(): not allowed while popState() runs"),
                nestedPop.getMessage());
        assertEquals(List.of(), world.listStates(), "the pop completed; the exit observer's failure came after");
    }

    // issue 18, defect 14
    @Test
    void aThrowingStateObserverLetsTheTransitionCompleteAndThrowsAfter() {
        world.createState("game", StatePolicy.pauseOnBlur());
        TagComponent menuTag = world.createState("menu", StatePolicy.builder()
                .onEnter(StateOperation.ENABLE).onExit(StateOperation.DISABLE).build());
        long button = world.spawn(menuTag, Disabled.COMPONENT); // built hidden, shown when the menu is entered
        world.pushState("game");
        long orc = world.spawn(HP.of(5));
        logStateEvents();
        boolean[] armed = {true};
        world.observe(Entity.WORLD, StateBlur.class, e -> {
            if (armed[0]) {
                throw new IllegalStateException("blur observer failed");
            }
        });
        IllegalStateException blur = assertThrows(IllegalStateException.class, () -> world.pushState("menu"));
        assertEquals("blur observer failed", blur.getMessage());
        assertEquals(List.of("game", "menu"), world.listStates(), "the push completed");
        assertEquals("menu", world.peekState());
        assertTrue(world.has(orc, Paused.COMPONENT), "game's onBlur ran");
        assertFalse(world.has(button, Disabled.COMPONENT), "menu's onEnter ran after the failure");
        assertEquals(List.of("blur game by menu top=menu", "enter menu top=menu"), log, "StateEnter was delivered");
        assertTrue(world.has(world.spawn(), menuTag), "spawns carry the new top's tag");
        assertThrows(IllegalArgumentException.class, () -> world.pushState("menu"), "already on the stack, rightly");

        log.clear();
        world.observe(Entity.WORLD, StateExit.class, e -> {
            if (armed[0]) {
                throw new IllegalStateException("exit observer failed");
            }
        });
        IllegalStateException exit = assertThrows(IllegalStateException.class, world::popState);
        assertEquals("exit observer failed", exit.getMessage());
        assertEquals(List.of("game"), world.listStates(), "the pop completed");
        assertTrue(world.has(button, Disabled.COMPONENT), "menu's onExit ran after the failure");
        assertFalse(world.has(orc, Paused.COMPONENT), "game's onFocus ran");
        assertEquals(List.of("exit menu top=menu", "focus game after menu top=game"), log);
        armed[0] = false;
        world.pushState("menu"); // usable: the next transitions run as usual
        world.popState();
        assertEquals(List.of("game"), world.listStates());
    }

    // ---------------------------------------------------------------- spawn paths

    @Test
    void everySpawnArityAddsTheActiveStateTag() {
        TagComponent game = world.createState("game", StatePolicy.none());
        long before = world.spawn(A);
        world.pushState("game");
        long[] ids = {world.spawn(), world.spawn(A), world.spawn(A, B), world.spawn(A, B, C),
                world.spawn(A, B, C, D)};
        for (long id : ids) {
            assertTrue(world.has(id, game), Entity.toString(id));
        }
        assertFalse(world.has(before, game), "spawned while no state was active");
        assertTrue(world.has(ids[4], D));
    }

    @Test
    void onlyTheTopStateTagsNewEntities() {
        TagComponent game = world.createState("game", StatePolicy.none());
        TagComponent pause = world.createState("pause", StatePolicy.none());
        world.pushState("game");
        world.pushState("pause");
        long e = world.spawn(A);
        assertTrue(world.has(e, pause));
        assertFalse(world.has(e, game));
        world.popState();
        long f = world.spawn(A);
        assertTrue(world.has(f, game));
        assertFalse(world.has(f, pause));
    }

    @Test
    void batchSpawnAddsTheActiveStateTagButRestorationPathsDoNot() {
        TagComponent game = world.createState("game", StatePolicy.none());
        world.pushState("game");
        BatchIds batch = world.batchSpawn(3, List.of(A));
        long[] explicitIds = {Entity.pack(100, 0), Entity.pack(101, 0)};
        world.batchSpawnAt(explicitIds, List.of(A), null);
        world.spawnAt(Entity.pack(102, 0), A);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment raw = arena.allocate(ValueLayout.JAVA_LONG, 1);
            raw.set(ValueLayout.JAVA_LONG, 0, Entity.pack(103, 0));
            world.batchSpawnAtRaw(raw, 1, List.of(A), null);
        }
        for (long id : batch.toArray()) {
            assertTrue(world.has(id, game));
        }
        for (long id : new long[] {Entity.pack(100, 0), Entity.pack(101, 0), Entity.pack(102, 0),
                Entity.pack(103, 0)}) {
            assertTrue(world.has(id, A), Entity.toString(id));
            assertFalse(world.has(id, game), Entity.toString(id));
        }
    }

    @Test
    void aSpawnNamingTheActiveTagItselfGetsItOnce() {
        TagComponent game = world.createState("game", StatePolicy.none());
        world.pushState("game");
        long one = world.spawn(game);
        BatchIds batch = world.batchSpawn(2, List.of(game, A));
        assertEquals(2, world.archetypeOf(batch.first()).components().size());
        assertTrue(world.has(batch.first(), game) && world.has(batch.first(), A));
        assertTrue(world.has(one, game));
    }

    @Test
    void setAndRemoveNeverAddTheStateTag() {
        TagComponent game = world.createState("game", StatePolicy.none());
        long e = world.spawn(A);
        world.pushState("game");
        world.set(e, B);
        world.set(e, HP.of(7));
        world.remove(e, A);
        assertFalse(world.has(e, game));
        assertTrue(world.has(e, B));
        long tagged = world.spawn(A);
        world.remove(tagged, game); // taking an entity out of its state
        world.set(tagged, C);
        assertFalse(world.has(tagged, game));
    }

    @Test
    void aStateTagStagedInsideAScopeIsTheOneActiveAtTheSpawnCall() {
        TagComponent game = world.createState("game", StatePolicy.none());
        TagComponent pause = world.createState("pause", StatePolicy.none());
        world.pushState("game");
        world.defer();
        long e = world.spawn(A);
        world.pushState("pause");
        long f = world.spawn(A);
        world.commit();
        assertTrue(world.has(e, game) && !world.has(e, pause));
        assertTrue(world.has(f, pause) && !world.has(f, game));
    }

    @Test
    void onSpawnObserversStagingWorkStillSeeTheTagAfterPublication() {
        TagComponent game = world.createState("game", StatePolicy.none());
        world.pushState("game");
        world.observe(Entity.WORLD, OnSpawn.class, e -> world.set(e.entity(), B));
        long e = world.spawn(A);
        assertTrue(world.has(e, game) && world.has(e, B));
    }

    // ---------------------------------------------------------------- policy effects on queries

    @Test
    void pauseOnBlurTakesTheCoveredStatesEntitiesOutOfLogicQueriesOnly() {
        world.createState("game", StatePolicy.pauseOnBlur());
        world.createState("menu", StatePolicy.none());
        Query logic = query(QueryDescriptor.builder().include(A).logic());
        Query render = query(QueryDescriptor.builder().include(A).render());
        world.pushState("game");
        long g1 = world.spawn(A);
        long g2 = world.spawn(A, SPOT.of(new Spot(1, 2)));
        world.pushState("menu");
        long m = world.spawn(A);
        assertEquals(Set.of(m), members(logic));
        assertEquals(Set.of(g1, g2, m), members(render));
        assertEquals(new Spot(1, 2), world.get(g2, SPOT), "values survive the move");
        world.popState();
        assertEquals(Set.of(g1, g2, m), members(logic));
        assertFalse(world.has(g1, Paused.COMPONENT));
    }

    @Test
    void disableOnBlurHidesTheCoveredStatesEntitiesFromPlainQueries() {
        world.createState("game", StatePolicy.disableOnBlur());
        world.createState("inventory", StatePolicy.none());
        Query plain = query(QueryDescriptor.builder().include(A));
        Query disabled = query(QueryDescriptor.builder().include(A, Disabled.COMPONENT));
        world.pushState("game");
        long g = world.spawn(A);
        world.pushState("inventory");
        long i = world.spawn(A);
        assertEquals(Set.of(i), members(plain));
        assertEquals(Set.of(g), members(disabled));
        world.popState();
        assertEquals(Set.of(g, i), members(plain));
        assertEquals(Set.of(), members(disabled));
    }

    @Test
    void despawnOnExitDespawnsEveryEntityOfThePoppedStateOnly() {
        world.createState("level", StatePolicy.none());
        world.createState("menu", StatePolicy.despawnOnExit());
        world.pushState("level");
        long keep = world.spawn(A);
        world.pushState("menu");
        long m1 = world.spawn(A);
        long m2 = world.spawn(B);
        world.set(m2, Disabled.COMPONENT);      // disabled entities are the state's too
        world.set(m1, Paused.COMPONENT);
        world.observe(Entity.WORLD, OnDespawn.class, e -> log.add("despawn " + Entity.toString(e.entity())));
        world.popState();
        assertFalse(world.isAlive(m1));
        assertFalse(world.isAlive(m2));
        assertTrue(world.isAlive(keep));
        assertEquals(List.of("despawn " + Entity.toString(m1), "despawn " + Entity.toString(m2)), log);
    }

    @Test
    void aDespawnOnExitWhoseDespawnObserverThrowsStillReachesTheDisabledEntities() {
        // found by FaultRun (an OnDespawn observer throwing in a menu's DESPAWN on exit): the operation is two batch
        // despawns (the state's entities without Disabled, then with it), and the first one's throw skipped the
        // second, so the disabled entities outlived the state they belonged to
        world.createState("menu", StatePolicy.despawnOnExit());
        world.pushState("menu");
        long shown = world.spawn(A);
        long hidden = world.spawn(B, Disabled.COMPONENT);
        boolean[] armed = {true};
        world.observe(Entity.WORLD, OnDespawn.class, e -> {
            log.add("despawn " + Entity.toString(e.entity()));
            if (armed[0] && e.entity() == shown) {
                armed[0] = false;
                throw new IllegalStateException("despawn observer failed");
            }
        });
        IllegalStateException e = assertThrows(IllegalStateException.class, world::popState);
        assertEquals("despawn observer failed", e.getMessage());
        assertEquals(List.of(), world.listStates(), "the pop completed");
        assertEquals(List.of("despawn " + Entity.toString(shown), "despawn " + Entity.toString(hidden)), log,
                "both halves of the operation were staged");
        world.unwind(); // the despawn call whose observer threw left its work staged (world.md, "A call fails")
        assertFalse(world.isAlive(shown));
        assertFalse(world.isAlive(hidden), "the disabled entity went with its state");
    }

    @Test
    void disableOnExitKeepsTheEntitiesSwitchedOffUntilTheStateIsPushedAgain() {
        world.createState("map", StatePolicy.disableOnExit());
        Query plain = query(QueryDescriptor.builder().include(A));
        world.pushState("map");
        long tile = world.spawn(A);
        world.popState();
        assertTrue(world.isAlive(tile));
        assertTrue(world.has(tile, Disabled.COMPONENT));
        assertEquals(Set.of(), members(plain));
        world.pushState("map");
        assertFalse(world.has(tile, Disabled.COMPONENT));
        assertEquals(Set.of(tile), members(plain));
    }

    @Test
    void operationsReachEntitiesThatAreAlreadyDisabledOrPaused() {
        world.createState("game", StatePolicy.builder().onBlur(StateOperation.PAUSE)
                .onFocus(StateOperation.RESUME).build());
        world.createState("menu", StatePolicy.none());
        world.pushState("game");
        long plain = world.spawn(A);
        long off = world.spawn(A, Disabled.COMPONENT);
        long paused = world.spawn(A, Paused.COMPONENT);
        long both = world.spawn(A, Paused.COMPONENT, Disabled.COMPONENT);
        world.pushState("menu");
        for (long id : new long[] {plain, off, paused, both}) {
            assertTrue(world.has(id, Paused.COMPONENT), Entity.toString(id));
        }
        assertTrue(world.has(off, Disabled.COMPONENT) && world.has(both, Disabled.COMPONENT));
        assertFalse(world.has(plain, Disabled.COMPONENT));
        world.popState();
        for (long id : new long[] {plain, off, paused, both}) {
            assertFalse(world.has(id, Paused.COMPONENT), "resume does not remember who paused " + id);
        }
        assertTrue(world.has(off, Disabled.COMPONENT) && world.has(both, Disabled.COMPONENT));
    }

    @Test
    void enterAndExitOperationsOfACustomPolicyApplyToTheStatesOwnEntities() {
        world.createState("scene", StatePolicy.builder().onEnter(StateOperation.RESUME)
                .onExit(StateOperation.PAUSE).build());
        world.pushState("scene");
        long e = world.spawn(A);
        world.popState();
        assertTrue(world.has(e, Paused.COMPONENT));
        world.pushState("scene");
        assertFalse(world.has(e, Paused.COMPONENT));
    }

    @Test
    void operationsOnAStateWithoutEntitiesDoNothing() {
        world.createState("empty", StatePolicy.builder().onEnter(StateOperation.DISABLE)
                .onExit(StateOperation.DESPAWN).build());
        long bystander = world.spawn(A);
        int archetypes = world.archetypeCount();
        world.pushState("empty");
        world.popState();
        assertTrue(world.isAlive(bystander));
        assertFalse(world.has(bystander, Disabled.COMPONENT));
        assertEquals(archetypes, world.archetypeCount());
    }

    // ---------------------------------------------------------------- events and timing

    @Test
    void pushDeliversBlurThenEnterAfterTheirOperationsArePublished() {
        world.createState("game", StatePolicy.pauseOnBlur());
        world.createState("pause", StatePolicy.builder().onEnter(StateOperation.DISABLE).build());
        world.pushState("game");
        long g = world.spawn(A);
        logStateEvents();
        world.observe(Entity.WORLD, StateBlur.class, e -> log.add("  game entity paused=" + world.has(g, Paused.COMPONENT)));
        world.pushState("pause");
        assertEquals(List.of("blur game by pause top=pause", "  game entity paused=true", "enter pause top=pause"),
                log);
    }

    @Test
    void theFirstPushHasNoBlurAndTheLastPopNoFocus() {
        world.createState("only", StatePolicy.pauseOnBlur());
        logStateEvents();
        world.pushState("only");
        world.popState();
        assertEquals(List.of("enter only top=only", "exit only top=only"), log);
    }

    @Test
    void popDeliversExitBeforeAnythingChangesAndFocusAfterTheUncoveredStateResumed() {
        world.createState("game", StatePolicy.pauseOnBlur());
        world.createState("menu", StatePolicy.despawnOnExit());
        world.pushState("game");
        long g = world.spawn(A);
        world.pushState("menu");
        long m = world.spawn(A);
        logStateEvents();
        world.observe(Entity.WORLD, StateExit.class,
                e -> log.add("  menu entity alive=" + world.isAlive(m) + " game paused=" + world.has(g, Paused.COMPONENT)));
        world.observe(Entity.WORLD, OnDespawn.class, e -> log.add("  despawn menu entity top=" + world.peekState()));
        world.observe(Entity.WORLD, StateFocus.class,
                e -> log.add("  menu entity alive=" + world.isAlive(m) + " game paused=" + world.has(g, Paused.COMPONENT)));
        world.popState();
        assertEquals(List.of("exit menu top=menu", "  menu entity alive=true game paused=true",
                "  despawn menu entity top=menu", "focus game after menu top=game",
                "  menu entity alive=false game paused=false"), log);
    }

    @Test
    void entitiesSpawnedByAnExitObserverBelongToTheLeavingStateAndGoWithIt() {
        world.createState("level", StatePolicy.despawnOnExit());
        world.pushState("level");
        long[] late = new long[1];
        world.observe(Entity.WORLD, StateExit.class, e -> late[0] = world.spawn(A));
        world.popState();
        assertFalse(world.isAlive(late[0]));
    }

    @Test
    void insideADeferScopeOperationsStayStagedAndSelectOnlyPublishedEntities() {
        TagComponent game = world.createState("game", StatePolicy.pauseOnBlur());
        world.createState("pause", StatePolicy.none());
        world.pushState("game");
        long published = world.spawn(A);
        world.observe(Entity.WORLD, StateBlur.class, e -> log.add("paused at blur=" + world.has(published, Paused.COMPONENT)));
        world.defer();
        long staged = world.spawn(A); // not yet published when the blur selects the game's entities
        world.pushState("pause");
        assertEquals("pause", world.peekState(), "the stack changes at once");
        assertFalse(world.has(published, Paused.COMPONENT));
        world.commit();
        assertEquals(List.of("paused at blur=false"), log);
        assertTrue(world.has(published, Paused.COMPONENT));
        assertFalse(world.has(staged, Paused.COMPONENT), "was staged, so not selected");
        assertTrue(world.has(staged, game), "tagged with the state active at its spawn call");
    }

    @Test
    void insideASystemPendingWorkIsPublishedFirstSoTheBlurReachesIt() {
        world.createState("game", StatePolicy.pauseOnBlur());
        world.createState("pause", StatePolicy.none());
        world.pushState("game");
        long[] spawned = new long[1];
        world.observe(Entity.WORLD, StateBlur.class, e -> log.add("paused at blur=" + world.has(spawned[0], Paused.COMPONENT)));
        world.addSystem(SystemConfig.named("test.Pauser").run((dt, w) -> {
            spawned[0] = w.spawn(A);
            w.pushState("pause");
            log.add("paused after push=" + w.has(spawned[0], Paused.COMPONENT));
        }));
        world.update(0.1);
        assertEquals(List.of("paused at blur=true", "paused after push=true"), log);
    }

    @Test
    void aTransitionWhoseStepsThrowCompletesAndThrowsTheFirstWithTheLaterSuppressed() {
        world.createState("menu", StatePolicy.none());
        world.createState("game", StatePolicy.none());
        world.pushState("menu");
        IllegalStateException blur = new IllegalStateException("blur");
        IllegalStateException enter = new IllegalStateException("enter");
        world.observe(Entity.WORLD, StateBlur.class, e -> {
            throw blur;
        });
        world.observe(Entity.WORLD, StateEnter.class, e -> {
            throw enter;
        });
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> world.pushState("game"));
        assertSame(blur, thrown);
        assertEquals(List.of(enter), List.of(thrown.getSuppressed()));
        assertEquals(List.of("menu", "game"), world.listStates(), "the transition completed");
    }

    @Test
    void theSameExceptionThrownByTwoStepsIsThrownOnceWithoutSuppressingItself() {
        world.createState("menu", StatePolicy.none());
        world.createState("game", StatePolicy.none());
        world.pushState("menu");
        IllegalStateException again = new IllegalStateException("again");
        world.observe(Entity.WORLD, StateExit.class, e -> {
            throw again;
        });
        world.observe(Entity.WORLD, StateFocus.class, e -> {
            throw again;
        });
        world.pushState("game");
        IllegalStateException thrown = assertThrows(IllegalStateException.class, world::popState);
        assertSame(again, thrown);
        assertEquals(0, thrown.getSuppressed().length);
        assertEquals(List.of("menu"), world.listStates());
    }

    @Test
    void insideASystemPendingWorkIsPublishedBeforeAPopSoTheExitReachesIt() {
        world.createState("level", StatePolicy.despawnOnExit());
        world.pushState("level");
        long[] spawned = new long[1];
        world.addSystem(SystemConfig.named("test.Leaver").run((dt, w) -> {
            spawned[0] = w.spawn(A); // staged inside the dispatch, tagged with the level
            w.popState();
            log.add("alive after pop=" + w.isAlive(spawned[0]));
        }));
        world.update(0.1);
        assertEquals(List.of("alive after pop=false"), log);
        assertFalse(world.isAlive(spawned[0]), "published first, so the exit's despawn selected it");
        assertEquals(List.of(), world.listStates());
    }

    // ---------------------------------------------------------------- against a naive model

    /** What the model remembers of one entity. */
    private static final class Modelled {
        final int state; // index of the state whose tag it carries, -1 for none
        boolean paused;
        boolean disabled;
        boolean alive = true;

        Modelled(int state, boolean paused, boolean disabled) {
            this.state = state;
            this.paused = paused;
            this.disabled = disabled;
        }
    }

    @Test
    void randomTransitionsAgreeWithANaiveModel() {
        for (long seed : new long[] {1, 2, 3, 42, System.nanoTime()}) {
            System.out.println("StatesTest.randomTransitionsAgreeWithANaiveModel seed=" + seed);
            try (World w = World.create()) {
                runModel(w, seed);
            }
        }
    }

    private static void runModel(World w, long seed) {
        Random random = new Random(seed);
        StateOperation[] ops = StateOperation.values();
        int stateCount = 4;
        TagComponent[] tags = new TagComponent[stateCount];
        StatePolicy[] policies = new StatePolicy[stateCount];
        for (int i = 0; i < stateCount; i++) {
            policies[i] = new StatePolicy(ops[random.nextInt(ops.length)], ops[random.nextInt(ops.length)],
                    ops[random.nextInt(ops.length)], ops[random.nextInt(ops.length)]);
            tags[i] = w.createState("model" + i, policies[i]);
        }
        List<String> events = new ArrayList<>();
        w.observe(Entity.WORLD, StateEnter.class, e -> events.add("enter " + e.state()));
        w.observe(Entity.WORLD, StateExit.class, e -> events.add("exit " + e.state()));
        w.observe(Entity.WORLD, StateBlur.class, e -> events.add("blur " + e.state() + " " + e.pushed()));
        w.observe(Entity.WORLD, StateFocus.class, e -> events.add("focus " + e.state() + " " + e.popped()));
        List<Integer> stack = new ArrayList<>();
        Map<Long, Modelled> model = new LinkedHashMap<>();
        for (int step = 0; step < 300; step++) {
            String context = "seed=" + seed + " step=" + step + " stack=" + stack;
            List<String> expected = new ArrayList<>();
            int action = random.nextInt(10);
            if (action < 4) { // spawn, sometimes already paused or disabled
                boolean paused = random.nextInt(4) == 0;
                boolean disabled = random.nextInt(4) == 0;
                List<Input> inputs = new ArrayList<>(List.of(A));
                if (paused) {
                    inputs.add(Paused.COMPONENT);
                }
                if (disabled) {
                    inputs.add(Disabled.COMPONENT);
                }
                long id = w.spawn(inputs.toArray(Input[]::new));
                model.put(id, new Modelled(stack.isEmpty() ? -1 : stack.getLast(), paused, disabled));
            } else if (action < 7) { // push, valid or not
                int state = random.nextInt(stateCount);
                if (stack.contains(state)) {
                    assertThrows(IllegalArgumentException.class, () -> w.pushState("model" + state), context);
                } else {
                    w.pushState("model" + state);
                    if (!stack.isEmpty()) {
                        int covered = stack.getLast();
                        apply(model, covered, policies[covered].onBlur());
                        expected.add("blur model" + covered + " model" + state);
                    }
                    stack.add(state);
                    apply(model, state, policies[state].onEnter());
                    expected.add("enter model" + state);
                }
            } else if (action < 9) { // pop, valid or not
                if (stack.isEmpty()) {
                    assertThrows(IllegalStateException.class, w::popState, context);
                } else {
                    w.popState();
                    int leaving = stack.removeLast();
                    expected.add("exit model" + leaving);
                    apply(model, leaving, policies[leaving].onExit());
                    if (!stack.isEmpty()) {
                        int uncovered = stack.getLast();
                        apply(model, uncovered, policies[uncovered].onFocus());
                        expected.add("focus model" + uncovered + " model" + leaving);
                    }
                }
            } else { // game logic toggles a builtin tag on a live entity
                List<Long> live = model.entrySet().stream().filter(en -> en.getValue().alive).map(Map.Entry::getKey)
                        .toList();
                if (!live.isEmpty()) {
                    long id = live.get(random.nextInt(live.size()));
                    Modelled m = model.get(id);
                    if (random.nextBoolean()) {
                        m.paused = !m.paused;
                        toggle(w, id, Paused.COMPONENT, m.paused);
                    } else {
                        m.disabled = !m.disabled;
                        toggle(w, id, Disabled.COMPONENT, m.disabled);
                    }
                }
            }
            assertEquals(expected, events, context);
            events.clear();
            assertEquals(stack.stream().map(i -> "model" + i).toList(), w.listStates(), context);
            for (Map.Entry<Long, Modelled> entry : model.entrySet()) {
                long id = entry.getKey();
                Modelled m = entry.getValue();
                String who = context + " entity=" + Entity.toString(id);
                assertEquals(m.alive, w.isAlive(id), who);
                if (m.alive) {
                    assertEquals(m.paused, w.has(id, Paused.COMPONENT), who);
                    assertEquals(m.disabled, w.has(id, Disabled.COMPONENT), who);
                    for (int i = 0; i < stateCount; i++) {
                        assertEquals(m.state == i, w.has(id, tags[i]), who);
                    }
                }
            }
        }
    }

    private static void toggle(World w, long id, TagComponent tag, boolean on) {
        if (on) {
            w.set(id, tag);
        } else {
            w.remove(id, tag);
        }
    }

    /** The model of one policy operation: every live entity of the state. */
    private static void apply(Map<Long, Modelled> model, int state, StateOperation operation) {
        for (Modelled m : model.values()) {
            if (!m.alive || m.state != state) {
                continue;
            }
            switch (operation) {
                case NONE -> { }
                case PAUSE -> m.paused = true;
                case RESUME -> m.paused = false;
                case DISABLE -> m.disabled = true;
                case ENABLE -> m.disabled = false;
                case DESPAWN -> m.alive = false;
            }
        }
    }

    @Test
    void closedWorldsRefuseStateCalls() {
        world.createState("game", StatePolicy.none());
        world.close();
        assertThrows(IllegalStateException.class, () -> world.pushState("game"));
        assertThrows(IllegalStateException.class, world::popState);
        assertThrows(IllegalStateException.class, world::peekState);
        assertThrows(IllegalStateException.class, world::listStates);
        assertThrows(IllegalStateException.class, () -> world.createState("x", StatePolicy.none()));
    }
}
