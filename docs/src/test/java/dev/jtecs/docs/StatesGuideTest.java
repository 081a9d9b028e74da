package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.Disabled;
import dev.jtecs.builtin.Paused;
import dev.jtecs.component.Components;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.event.OnDespawn;
import dev.jtecs.event.StateBlur;
import dev.jtecs.event.StateEnter;
import dev.jtecs.event.StateExit;
import dev.jtecs.event.StateFocus;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.schedule.RunIf;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.state.StateOperation;
import dev.jtecs.state.StatePolicy;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples of {@code docs/states.md}. */
class StatesGuideTest {
    static final TagComponent ENEMY = Components.tag("docs.states.Enemy");
    static final TagComponent BUTTON = Components.tag("docs.states.Button");

    @Test
    void theStackAndTheTag() {
        try (World world = World.create()) {
            // begin-example
            TagComponent title = world.createState("title", StatePolicy.none());
            TagComponent level = world.createState("level", StatePolicy.none());
            long logo = world.spawn(); // no state is active yet: no tag

            world.pushState("title");
            long start = world.spawn(BUTTON);
            world.popState();
            world.pushState("level");
            long orc = world.spawn(ENEMY);
            long restored = Entity.pack(40, 0);
            world.spawnAt(restored, ENEMY); // restoration adds no state tag

            assertEquals("level", world.peekState());
            assertEquals(List.of("level"), world.listStates());
            assertTrue(world.has(start, title) && world.has(orc, level));
            assertFalse(world.has(logo, title) || world.has(logo, level) || world.has(restored, level));
            assertEquals("state:level", level.name());
            // end-example
        }
    }

    @Test
    void aPauseMenuOverTheGame() {
        try (World world = World.create()) {
            // begin-example
            world.createState("game", StatePolicy.pauseOnBlur());
            world.createState("pause", StatePolicy.despawnOnExit());
            Query simulated = world.newQuery(QueryDescriptor.builder().include(ENEMY).logic().build());
            Query drawn = world.newQuery(QueryDescriptor.builder().include(ENEMY).render().build());

            world.pushState("game");
            long orc = world.spawn(ENEMY);
            world.pushState("pause");       // the game's entities get Paused
            long resume = world.spawn(BUTTON);
            assertTrue(world.has(orc, Paused.COMPONENT));
            assertEquals(0, simulated.count());
            assertEquals(1, drawn.count()); // still drawn under the menu

            world.popState();               // the menu's entities go, the game's resume
            assertFalse(world.isAlive(resume));
            assertFalse(world.has(orc, Paused.COMPONENT));
            assertEquals(1, simulated.count());
            // end-example
        }
    }

    @Test
    void aCustomPolicy() {
        try (World world = World.create()) {
            // begin-example
            StatePolicy levelPolicy = StatePolicy.pauseOnBlur().toBuilder()
                    .onExit(StateOperation.DESPAWN)
                    .build();
            StatePolicy mapPolicy = StatePolicy.builder()
                    .onEnter(StateOperation.ENABLE)
                    .onExit(StateOperation.DISABLE)
                    .build(); // the same as StatePolicy.disableOnExit()
            world.createState("level", levelPolicy);
            world.createState("map", mapPolicy);

            world.pushState("map");
            long tile = world.spawn();
            world.popState();
            assertTrue(world.has(tile, Disabled.COMPONENT)); // kept, switched off
            world.pushState("map");
            assertFalse(world.has(tile, Disabled.COMPONENT));
            // end-example
            assertEquals(StatePolicy.disableOnExit(), mapPolicy);
        }
    }

    @Test
    void eventsAndTheirOrder() {
        try (World world = World.create()) {
            // begin-example
            List<String> log = new ArrayList<>();
            world.observe(Entity.WORLD, StateEnter.class, e -> log.add("enter " + e.state()));
            world.observe(Entity.WORLD, StateExit.class, e -> log.add("exit " + e.state()));
            world.observe(Entity.WORLD, StateBlur.class, e -> log.add("blur " + e.state() + " under " + e.pushed()));
            world.observe(Entity.WORLD, StateFocus.class,
                    e -> log.add("focus " + e.state() + " after " + e.popped()));
            world.observe(Entity.WORLD, OnDespawn.class, e -> log.add("despawn"));
            world.createState("game", StatePolicy.pauseOnBlur());
            world.createState("pause", StatePolicy.despawnOnExit());
            world.pushState("game");
            long orc = world.spawn(ENEMY);
            world.observe(Entity.WORLD, StateBlur.class,
                    e -> log.add("  orc paused: " + world.has(orc, Paused.COMPONENT)));

            world.pushState("pause");
            world.spawn(BUTTON);
            world.popState();
            assertEquals(List.of("enter game",
                    "blur game under pause", "  orc paused: true", "enter pause",
                    "exit pause", "despawn", "focus game after pause"), log);
            // end-example
        }
    }

    @Test
    void changingStatesFromASystem() {
        try (World world = World.create()) {
            // begin-example
            world.createState("game", StatePolicy.pauseOnBlur());
            world.createState("pause", StatePolicy.none());
            world.pushState("game");
            boolean[] escapePressed = {false};
            long[] wave = new long[1];
            world.addSystem(SystemConfig.named("game.Spawner").runIf(RunIf.inState("game"))
                    .run((dt, w) -> wave[0] = w.spawn(ENEMY)));
            world.addSystem(SystemConfig.named("game.PauseKey").after("game.Spawner").run((dt, w) -> {
                if (escapePressed[0] && "game".equals(w.peekState())) {
                    w.pushState("pause"); // publishes the spawner's enemy first, then pauses it
                }
            }));

            escapePressed[0] = true;
            world.update(1 / 60.0);
            assertEquals("pause", world.peekState());
            assertTrue(world.has(wave[0], Paused.COMPONENT));
            world.update(1 / 60.0); // the spawner's condition is false under the menu
            assertEquals(1, world.entityCount());
            // end-example
        }
    }

    @Test
    void stagedEntitiesInsideADefer() {
        try (World world = World.create()) {
            // begin-example
            world.createState("game", StatePolicy.pauseOnBlur());
            world.createState("pause", StatePolicy.none());
            world.pushState("game");
            long published = world.spawn(ENEMY);

            world.defer();
            long staged = world.spawn(ENEMY);
            world.pushState("pause"); // selects the game's published entities only
            world.commit();

            assertTrue(world.has(published, Paused.COMPONENT));
            assertFalse(world.has(staged, Paused.COMPONENT)); // commit before pushing to include it
            // end-example
        }
    }

    @Test
    void refusedTransitionsChangeNothing() {
        try (World world = World.create()) {
            // begin-example
            world.createState("game", StatePolicy.none());
            world.pushState("game");

            assertThrows(IllegalArgumentException.class, () -> world.createState("game", StatePolicy.none()));
            assertThrows(IllegalArgumentException.class, () -> world.pushState("credits")); // never created
            assertThrows(IllegalArgumentException.class, () -> world.pushState("game"));    // already stacked
            assertEquals(List.of("game"), world.listStates());

            world.popState();
            assertThrows(IllegalStateException.class, world::popState); // nothing left to pop
            assertNull(world.peekState());
            // end-example
        }
    }
}
