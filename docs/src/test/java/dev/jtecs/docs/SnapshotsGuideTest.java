package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.Components;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.random.Xoshiro128;
import dev.jtecs.snapshot.InvalidSnapshotException;
import dev.jtecs.snapshot.OnSnapshotSave;
import dev.jtecs.snapshot.Snapshot;
import dev.jtecs.snapshot.SnapshotBuffer;
import dev.jtecs.snapshot.SnapshotHandler;
import dev.jtecs.snapshot.SnapshotOptions;
import dev.jtecs.snapshot.SnapshotPrelude;
import dev.jtecs.snapshot.StartSnapshotLoad;
import dev.jtecs.world.World;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The examples of {@code docs/snapshots.md}. */
class SnapshotsGuideTest {
    record Position(float x, float y) {}

    record Inventory(List<String> items) {}

    record Texture(long handle) {}

    static final NativeComponent<Position> POSITION =
            Components.registerNative(Position.class, o -> o.name("docs.snap.Position"));
    static final ScalarComponent.OfInt GOLD = Components.scalar("docs.snap.Gold", 0);
    /** A list inside a record: the automatic codec takes flat records, so this one brings its own. */
    static final ManagedComponent<Inventory> INVENTORY = Components.registerManaged(Inventory.class,
            o -> o.name("docs.snap.Inventory")
                    .save(inventory -> List.copyOf(inventory.items()))
                    .load(saved -> new Inventory(((List<?>) saved).stream().map(String.class::cast).toList())));
    /** A process-local handle: never saved. */
    static final NativeComponent<Texture> TEXTURE = Components.registerNative(Texture.class,
            o -> o.name("docs.snap.Texture").transient_(true));

    @Test
    void saveAndLoadATable() throws Exception {
        try (World world = World.create(); World restored = World.create()) {
            // begin-example
            long hero = world.spawn(POSITION.of(new Position(3, 4)), GOLD.of(12), EntityKey.COMPONENT.of("hero"),
                    INVENTORY.of(new Inventory(List.of("sword", "rope"))), TEXTURE.of(new Texture(0xCAFE)));
            Snapshot snapshot = world.saveSnapshot(); // a detached table: maps, lists, strings, numbers
            Map<String, Object> table = snapshot.table();

            var json = new com.fasterxml.jackson.databind.ObjectMapper();
            String text = json.writeValueAsString(table); // what a game writes into its save file
            @SuppressWarnings("unchecked")
            Map<String, Object> read = json.readValue(text, Map.class);

            SnapshotPrelude prelude = restored.loadSnapshot(read);
            assertEquals(1, prelude.entityCount());
            assertEquals(new Position(3, 4), restored.get(hero, POSITION)); // the same id, the same values
            assertEquals(hero, restored.byKey("hero"));
            assertEquals(List.of("sword", "rope"), restored.get(hero, INVENTORY).items());
            assertFalse(restored.has(hero, TEXTURE)); // transient: left out
            // end-example
        }
    }

    @Test
    void saveAndLoadBinary(@TempDir Path dir) {
        Path file = dir.resolve("level.snapshot");
        try (World world = World.create(); World restored = World.create()) {
            for (int i = 0; i < 1000; i++) {
                world.spawn(POSITION.of(new Position(i, -i)));
            }
            // begin-example
            try (SnapshotBuffer buffer = new SnapshotBuffer()) { // reused by every save into it
                Snapshot saved = world.saveSnapshot(SnapshotOptions.binary().buffer(buffer).path(file));
                assertEquals(saved.buffer().byteSize(), file.toFile().length());

                restored.loadSnapshot(file); // memory-mapped and read in place
                assertEquals(world.entityCount(), restored.entityCount());
                assertEquals(world.spawn(), restored.spawn()); // free slots and next ids come back too
            }
            // end-example
        }
    }

    @Test
    void oneValueAtATime() {
        try (World world = World.create()) {
            // begin-example
            Object bag = INVENTORY.snapshotSave(new Inventory(List.of("sword"))); // its custom codec
            assertEquals(List.of("sword"), bag);
            assertEquals(new Inventory(List.of("sword")), INVENTORY.snapshotLoad(bag, world));

            Object position = POSITION.snapshotSave(new Position(3, 4)); // the automatic codec
            assertEquals(Map.of("x", 3f, "y", 4f), position);
            assertEquals(new Position(3, 4), POSITION.snapshotLoad(position, world));
            assertEquals(12, GOLD.snapshotSave(12));
            // end-example
        }
    }

    @Test
    void randomStreamsComeBack() {
        try (World world = World.create()) {
            // begin-example
            world.seedRandom(42);
            Xoshiro128 loot = world.randomStream("game.loot");
            int roll = loot.nextInt(1, 21);
            Snapshot saved = world.saveSnapshot();
            int expected = loot.nextInt();
            world.loadSnapshot(saved);
            assertEquals(expected, loot.nextInt()); // the same generator, rewound in place
            // end-example
            assertTrue(roll >= 1 && roll <= 20);
        }
    }

    @Test
    void handlersEventsAndCustomData() {
        try (World world = World.create()) {
            List<String> log = new ArrayList<>();
            // begin-example
            world.addSnapshotHandler(SnapshotHandler.<World>of("game.score", w -> 1200,
                    (w, value) -> log.add("score " + value)));
            world.observe(0, OnSnapshotSave.class, event -> event.addData("game.wave", 7));
            world.observe(0, StartSnapshotLoad.class,
                    event -> event.onData("game.wave", value -> log.add("wave " + value)));

            Snapshot saved = world.saveSnapshot(SnapshotOptions.table().customData("game.level", "castle"));
            world.loadSnapshot(saved);
            assertEquals(List.of("score 1200", "wave 7"), log); // handler first, then onData listeners
            assertEquals("castle", ((Map<?, ?>) saved.table().get("data")).get("game.level"));
            // end-example
        }
    }

    @Test
    void badSnapshotsChangeNothing() {
        try (World world = World.create(); World source = World.create()) {
            source.spawn(POSITION.of(new Position(1, 1)));
            long mine = world.spawn(GOLD.of(5));
            // begin-example
            byte[] bytes = source.saveSnapshot(SnapshotOptions.binary()).toByteArray();
            bytes[bytes.length - 6] ^= 1; // one flipped bit in the last column block
            InvalidSnapshotException refused = assertThrows(InvalidSnapshotException.class,
                    () -> world.loadSnapshot(bytes));
            assertTrue(refused.getMessage().contains("checksum mismatch (corrupted payload"));
            assertEquals(5, world.get(mine, GOLD)); // the world is as it was
            // end-example
        }
    }
}
