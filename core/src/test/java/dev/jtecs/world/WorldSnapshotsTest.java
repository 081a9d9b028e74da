package dev.jtecs.world;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jtecs.builtin.ChildOf;
import dev.jtecs.builtin.Disabled;
import dev.jtecs.builtin.EntityKey;
import dev.jtecs.builtin.Transform2D;
import dev.jtecs.component.Components;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.RelationshipDefinition;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.component.Relationships;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.event.ArchetypeCreated;
import dev.jtecs.event.OnSpawn;
import dev.jtecs.entity.Entity;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.random.Xoshiro128;
import dev.jtecs.schedule.Phases;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.snapshot.FinishSnapshotLoad;
import dev.jtecs.snapshot.InvalidSnapshotException;
import dev.jtecs.snapshot.OnSnapshotSave;
import dev.jtecs.snapshot.Snapshot;
import dev.jtecs.snapshot.SnapshotBuffer;
import dev.jtecs.snapshot.SnapshotHandler;
import dev.jtecs.snapshot.SnapshotOptions;
import dev.jtecs.snapshot.SnapshotPrelude;
import dev.jtecs.snapshot.StartSnapshotLoad;
import dev.jtecs.state.StatePolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** World snapshots end to end: round trips, metadata, handlers and events, policies, refusals. */
class WorldSnapshotsTest {
    record Body(float x, float y, long tick, double mass, boolean awake, byte tier, short rank, char code) {}

    record Spring(long target, float stiffness) {}

    record Loan(long target, int amount) {}

    record Tag(String text, int weight, Kind kind) {}

    enum Kind { SMALL, LARGE }

    record Sprite(long handle) {}

    static final NativeComponent<Body> BODY = Components.registerNative(Body.class, o -> o.name("snap.Body"));
    static final ScalarComponent.OfDouble HEALTH = Components.scalar("snap.Health", 100.0);
    static final ScalarComponent.OfString LABEL = Components.scalar("snap.Label", "");
    static final ManagedComponent<Tag> TAG = Components.registerManaged(Tag.class, o -> o.name("snap.Tag"));
    static final TagComponent MARK = Components.tag("snap.Mark");
    static final RelationshipDefinition<Spring> SPRING = Relationships.register(Spring.class,
            o -> o.name("snap.Spring").reverseIndex());
    static final RelationshipDefinition<Loan> LOAN = Relationships.register(Loan.class,
            o -> o.name("snap.Loan").sparse().reverseIndex());
    static final Relationship WATCHES = Relationships.register("snap.Watches", o -> o.sparse());
    /** Its values are process-local (a texture handle): never saved; a requirement brings a fresh default back. */
    static final NativeComponent<Sprite> SPRITE = Components.registerNative(Sprite.class,
            o -> o.name("snap.Sprite").transient_(true).defaults(() -> new Sprite(7)));
    static final TagComponent DRAWN = Components.tag("snap.Drawn", o -> o.requires(SPRITE, HEALTH.of(55.0)));
    /** A custom codec: a string of two numbers; the binary form must not copy its columns raw. */
    static final NativeComponent<Spring> PAIR = Components.registerNative(Spring.class, o -> o.name("snap.Pair")
            .save(s -> s.target() + ":" + s.stiffness())
            .load(saved -> {
                String[] parts = ((String) saved).split(":");
                return new Spring(Long.parseLong(parts[0]), Float.parseFloat(parts[1]));
            }));
    @SuppressWarnings("unchecked")
    static final ScalarComponent.OfLong WORLDLY = Components.scalar("snap.Worldly", 0L,
            o -> ((dev.jtecs.component.ComponentOptions<Long>) o).save(v -> v).deserialize(World.class,
                    (world, saved) -> ((Number) saved).longValue() + world.entityCount()));

    record Rope(long target, float length) {}

    record Leash(long target, String owner) {}

    /** Its edges are rebuilt by the game after a load: never saved, in either placement. */
    static final Relationship TETHERED = Relationships.register("snap.Tethered", o -> o.transient_(true));
    static final RelationshipDefinition<Rope> HELD_BY = Relationships.register(Rope.class,
            o -> o.name("snap.HeldBy").sparse().reverseIndex().transient_(true));
    static final java.util.concurrent.atomic.AtomicInteger ROPE_SAVES = new java.util.concurrent.atomic.AtomicInteger();
    static final java.util.concurrent.atomic.AtomicInteger ROPE_LOADS = new java.util.concurrent.atomic.AtomicInteger();
    /** A dense native payload with a custom codec: the binary form must not copy its columns raw. */
    static final RelationshipDefinition<Rope> ROPE = Relationships.register(Rope.class, o -> o.name("snap.Rope")
            .save(edge -> {
                ROPE_SAVES.incrementAndGet();
                Rope rope = (Rope) edge;
                return List.of(Long.toString(rope.target()), "len " + rope.length());
            })
            .load(saved -> {
                ROPE_LOADS.incrementAndGet();
                List<?> parts = (List<?>) saved;
                return new Rope(Long.parseLong((String) parts.get(0)),
                        Float.parseFloat(((String) parts.get(1)).substring(4)));
            }));
    /** A sparse managed payload with a world-aware codec. */
    static final RelationshipDefinition<Leash> LEASH = Relationships.register(Leash.class, o -> o.name("snap.Leash")
            .sparse().save(edge -> ((Leash) edge).target() + "/" + ((Leash) edge).owner())
            .deserialize(World.class, (world, saved) -> {
                String[] parts = ((String) saved).split("/");
                return new Leash(Long.parseLong(parts[0]), parts[1] + "@" + world.entityCount());
            }));

    /** A world holding every kind of state a snapshot carries. */
    static long[] populate(World world) {
        long a = world.spawn(BODY.of(new Body(1.5f, -0f, Long.MIN_VALUE, Double.NaN, true, (byte) -3, (short) 7,
                'x')), HEALTH.of(Double.NEGATIVE_INFINITY), LABEL.of("ä \"quoted\""), EntityKey.COMPONENT.of("hero"));
        long b = world.spawn(TAG.of(new Tag("gold", 3, Kind.LARGE)), MARK, ChildOf.COMPONENT.to(a),
                SPRING.of(new Spring(a, 0.25f)));
        long c = world.spawn(BODY.of(new Body(Float.MIN_VALUE, Float.MAX_VALUE, Long.MAX_VALUE, -0.0, false,
                Byte.MAX_VALUE, Short.MIN_VALUE, '\uffff')), LOAN.of(new Loan(a, 5)), WATCHES.to(b));
        world.set(c, LOAN.of(new Loan(b, 9)));
        long gone = world.spawn(MARK);
        world.set(c, WATCHES.to(gone));
        world.despawn(gone); // a sparse edge keeps the dead target's id
        world.spawn(PAIR.of(new Spring(42, 1.5f)), Disabled.COMPONENT);
        world.randomStream("snap.loot").nextInt();
        return new long[] {a, b, c};
    }

    /** What a loaded world must read like its source: entities, values and edges, keys, ids to come. */
    static String describe(World world) {
        StringBuilder sb = new StringBuilder();
        List<Long> ids = new ArrayList<>();
        world.forEachArchetype(archetype -> {
            for (int row = 0; row < archetype.count(); row++) {
                ids.add(archetype.entity(row));
            }
        });
        ids.sort(null);
        for (long id : ids) {
            sb.append(id).append(' ').append(world.get(id, BODY)).append(world.get(id, HEALTH))
                    .append(world.get(id, LABEL)).append(world.get(id, TAG)).append(world.has(id, MARK))
                    .append(world.get(id, PAIR)).append(world.has(id, Disabled.COMPONENT))
                    .append(world.get(id, EntityKey.COMPONENT)).append(world.get(id, ChildOf.COMPONENT));
            world.forEachRelationship(id, SPRING, edge -> sb.append(edge));
            world.forEachRelationship(id, LOAN, edge -> sb.append(edge));
            world.forEachRelationship(id, WATCHES, edge -> sb.append(edge));
            sb.append('\n');
        }
        sb.append("key=").append(world.byKey("hero")).append(" entities=").append(world.entityCount());
        return sb.toString();
    }

    @Test
    void aTableSnapshotSurvivesJsonAndLoadsIntoAFreshWorld() throws Exception {
        try (World world = World.create(); World copy = World.create()) {
            populate(world);
            Snapshot snapshot = world.saveSnapshot();
            ObjectMapper json = new ObjectMapper();
            String text = json.writeValueAsString(snapshot.table());
            @SuppressWarnings("unchecked")
            Map<String, Object> read = json.readValue(text, Map.class);
            SnapshotPrelude prelude = copy.loadSnapshot(read);
            assertEquals(describe(world), describe(copy));
            assertEquals(world.entityCount(), prelude.entityCount());
            assertTrue(text.contains("\"-9223372036854775808\""), "a long is an exact decimal string: " + text);
            assertEquals(world.spawn(), copy.spawn(), "the next ids are the same");
            assertEquals(world.randomStream("snap.loot").nextInt(), copy.randomStream("snap.loot").nextInt());
        }
    }

    @Test
    void aBinarySnapshotRoundTripsThroughABufferAndAMappedFile(@TempDir Path dir) {
        Path file = dir.resolve("world.snapshot");
        try (World world = World.create(); World fromBuffer = World.create(); World fromFile = World.create();
                SnapshotBuffer buffer = new SnapshotBuffer()) {
            populate(world);
            Snapshot saved = world.saveSnapshot(SnapshotOptions.binary().buffer(buffer).path(file));
            fromBuffer.loadSnapshot(saved);
            fromFile.loadSnapshot(file);
            assertEquals(describe(world), describe(fromBuffer));
            assertEquals(describe(world), describe(fromFile));
            assertArrayEquals(saved.toByteArray(), assertDoesNotThrowRead(file));
            for (int i = 0; i < 5; i++) {
                long next = world.spawn();
                assertEquals(next, fromBuffer.spawn(), "free slots restored in stack order, generations included");
                assertEquals(next, fromFile.spawn());
            }
        }
    }

    private static byte[] assertDoesNotThrowRead(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void twoIdenticalWorldsSaveByteIdenticalBinarySnapshots() {
        try (World one = World.create(); World two = World.create()) {
            populate(one);
            populate(two);
            assertArrayEquals(one.saveSnapshot(SnapshotOptions.binary()).toByteArray(),
                    two.saveSnapshot(SnapshotOptions.binary()).toByteArray());
            assertEquals(one.saveSnapshot().table(), two.saveSnapshot().table());
        }
    }

    @Test
    void randomStreamsRestoreInPlaceAfterTheEntitiesAndBeforeHandlers() {
        try (World world = World.create()) {
            world.seedRandom(42);
            Xoshiro128 loot = world.randomStream("game.loot");
            loot.nextInt(20);
            Snapshot saved = world.saveSnapshot();
            int expected = loot.nextInt();
            Xoshiro128 other = world.randomStream("game.other"); // absent from the save: restarts from the seed
            int otherFirst = new Xoshiro128(dev.jtecs.random.RandomStreams.streamKey(42, "game.other")).nextInt();
            other.nextInt();
            List<Integer> seenByHandler = new ArrayList<>();
            world.addSnapshotHandler(new SnapshotHandler<World>() {
                @Override
                public String name() {
                    return "game.h";
                }

                @Override
                public void finish(World w, SnapshotPrelude prelude) {
                    seenByHandler.add(w.randomStream("game.loot").copy().nextInt());
                }
            });
            world.loadSnapshot(saved);
            assertEquals(List.of(expected), seenByHandler);
            assertEquals(expected, loot.nextInt(), "the same generator object continues from the saved state");
            assertEquals(otherFirst, other.nextInt());
        }
    }

    @Test
    void aSnapshotWithoutRandomStateLeavesTheStreamsAlone() {
        try (World fresh = World.create(); World world = World.create()) {
            Snapshot noRandom = fresh.saveSnapshot();
            assertFalse(noRandom.table().get("data").toString().contains(Snapshot.RANDOM_KEY));
            Xoshiro128 stream = world.randomStream("s");
            int[] state = stream.state();
            world.loadSnapshot(noRandom);
            assertArrayEquals(state, stream.state());
        }
    }

    @Test
    void theReservedRandomKeyIsRefusedFromCallersHandlersAndObservers() {
        try (World world = World.create()) {
            assertThrows(IllegalArgumentException.class,
                    () -> world.saveSnapshot(SnapshotOptions.table().customData(Snapshot.RANDOM_KEY, 1)));
            assertThrows(IllegalArgumentException.class,
                    () -> world.addSnapshotHandler(SnapshotHandler.of(Snapshot.RANDOM_KEY, w -> 1, null)));
            world.observe(0, OnSnapshotSave.class, event -> event.addData(Snapshot.RANDOM_KEY, 1));
            assertThrows(IllegalArgumentException.class, world::saveSnapshot);
        }
    }

    @Test
    void theFixedRemainderPhaseFlagsAndStateStackRestore() {
        try (World world = World.create(WorldConfig.defaults().timestep(0.1))) {
            world.createState("menu", StatePolicy.none());
            world.createState("game", StatePolicy.pauseOnBlur());
            world.pushState("game");
            world.pushState("menu");
            world.update(0.25); // two steps, 0.05 left over
            world.disablePhase(Phases.RENDER);
            Snapshot saved = world.saveSnapshot(SnapshotOptions.binary());
            world.popState();
            world.enablePhase(Phases.RENDER);
            world.disablePhase(Phases.UPDATE); // the load enables it again
            world.update(0.01);
            world.loadSnapshot(saved);
            assertEquals(List.of("game", "menu"), world.listStates());
            assertFalse(world.isPhaseEnabled(Phases.RENDER));
            assertTrue(world.isPhaseEnabled(Phases.UPDATE), "saved enabled, loaded enabled");
            assertEquals(0.25 - 0.1 - 0.1, world.getFixedTiming().accumulator(), 1e-15);
            long spawned = world.spawn();
            assertTrue(world.has(spawned, Components.findByName("state:menu")), "the active state tags spawns");
        }
    }

    @Test
    void everyLoadFormAnswersTheSnapshotsPrelude(@TempDir Path dir) {
        Path file = dir.resolve("prelude.snapshot");
        try (World world = World.create(); World copy = World.create()) {
            populate(world);
            Snapshot binary = world.saveSnapshot(SnapshotOptions.binary().path(file));
            Snapshot table = world.saveSnapshot();
            List<SnapshotPrelude> preludes = new ArrayList<>();
            preludes.add(copy.loadSnapshot(binary));
            preludes.add(copy.loadSnapshot(table));
            preludes.add(copy.loadSnapshot(table.table()));
            preludes.add(copy.loadSnapshot(binary.toByteArray()));
            preludes.add(copy.loadSnapshot(java.lang.foreign.MemorySegment.ofArray(binary.toByteArray())));
            preludes.add(copy.loadSnapshot(file));
            for (SnapshotPrelude prelude : preludes) {
                assertEquals(world.entityCount(), prelude.entityCount(), prelude.toString());
                assertEquals(binary.nextEntityId(), prelude.nextEntityId(), prelude.toString());
            }
            assertEquals(describe(world), describe(copy));
        }
    }

    @Test
    void aSnapshotWhoseStateThisWorldNeverCreatedIsRefusedAndChangesNothing() {
        try (World source = World.create(); World target = World.create()) {
            source.createState("snap.level", StatePolicy.none());
            source.pushState("snap.level");
            source.spawn(MARK);
            source.spawn(MARK);
            Snapshot saved = source.saveSnapshot();
            long kept = target.spawn(HEALTH.of(3.0));
            for (Snapshot form : List.of(saved, source.saveSnapshot(SnapshotOptions.binary()))) {
                InvalidSnapshotException refused = assertThrows(InvalidSnapshotException.class,
                        () -> target.loadSnapshot(form));
                assertTrue(refused.getMessage().contains("state snap.level was not created in this world"),
                        refused.getMessage());
                assertEquals(1, target.entityCount());
                assertEquals(3.0, target.get(kept, HEALTH));
                assertEquals(List.of(), target.listStates());
            }
            target.createState("snap.level", StatePolicy.none());
            target.loadSnapshot(saved);
            assertEquals(List.of("snap.level"), target.listStates());
            assertEquals(2, target.entityCount());
        }
    }

    @Test
    void aLoadFromAStateTransitionIsRefusedAndTheTransitionCompletes() {
        try (World world = World.create()) {
            world.createState("snap.menu", StatePolicy.none());
            long kept = world.spawn(HEALTH.of(4.0));
            Snapshot empty;
            try (World fresh = World.create()) {
                fresh.createState("snap.menu", StatePolicy.none());
                empty = fresh.saveSnapshot();
            }
            List<String> refused = new ArrayList<>();
            world.observe(Entity.WORLD, dev.jtecs.event.StateEnter.class, e -> {
                IllegalStateException thrown = assertThrows(IllegalStateException.class,
                        () -> world.loadSnapshot(empty));
                refused.add(thrown.getMessage());
            });
            world.pushState("snap.menu");
            assertEquals(1, refused.size());
            assertTrue(refused.get(0).contains("pushState(snap.menu)"), refused.get(0));
            assertEquals(List.of("snap.menu"), world.listStates());
            assertTrue(world.isAlive(kept));
            assertEquals(4.0, world.get(kept, HEALTH));
        }
    }

    @Test
    void aSaveFirstPublishesWorkLeftStagedByACallWhoseObserverThrew() {
        try (World world = World.create(); World copy = World.create()) {
            long doomed = world.spawn(HEALTH.of(9.0));
            long kept = world.spawn(HEALTH.of(8.0));
            world.observe(doomed, dev.jtecs.event.OnDespawn.class, e -> {
                throw new IllegalStateException("observer");
            });
            assertThrows(IllegalStateException.class, () -> world.despawn(doomed));
            assertTrue(world.hasPendingChanges(), "the despawn stays staged, outside any scope");
            assertEquals(0, world.scopeDepth());
            Snapshot saved = world.saveSnapshot();
            assertFalse(world.hasPendingChanges());
            assertFalse(world.isAlive(doomed), "published before the save read the world");
            copy.loadSnapshot(saved);
            assertEquals(1, copy.entityCount());
            assertEquals(8.0, copy.get(kept, HEALTH));
        }
    }

    @Test
    void theHandlerNamesListTheRegisteredHandlersInOrder() {
        try (World world = World.create()) {
            assertEquals(List.of(), world.snapshotHandlerNames());
            world.addSnapshotHandler(SnapshotHandler.<World>of("snap.b", w -> 1, null));
            world.addSnapshotHandler(SnapshotHandler.<World>of("snap.a", w -> 2, null));
            assertEquals(List.of("snap.b", "snap.a"), world.snapshotHandlerNames());
        }
    }

    @Test
    void handlersAndEventsRunInTheirOrder() {
        try (World world = World.create(); World copy = World.create()) {
            List<String> log = new ArrayList<>();
            for (World w : List.of(world, copy)) {
                w.addSnapshotHandler(new SnapshotHandler<World>() {
                    @Override
                    public String name() {
                        return "game.score";
                    }

                    @Override
                    public Object save(World target) {
                        log.add("handler.save");
                        return 12;
                    }

                    @Override
                    public void load(World target, Object value) {
                        log.add("handler.load " + value);
                    }

                    @Override
                    public void finish(World target, SnapshotPrelude prelude) {
                        log.add("handler.finish");
                    }
                });
                w.observe(0, OnSnapshotSave.class, event -> {
                    log.add("OnSnapshotSave");
                    event.addData("game.extra", List.of(1, "two"));
                });
                w.observe(0, StartSnapshotLoad.class, event -> {
                    log.add("StartSnapshotLoad " + event.prelude().entityCount());
                    event.onData("game.score", value -> log.add("onData score " + value));
                    event.onData("game.extra", value -> log.add("onData extra " + value));
                    event.onData("game.absent", value -> log.add("never"));
                });
                w.observe(0, FinishSnapshotLoad.class, event -> log.add("FinishSnapshotLoad"));
            }
            world.spawn(MARK);
            Snapshot saved = world.saveSnapshot(SnapshotOptions.table().customData("game.level", "castle"));
            assertEquals(List.of("game.level", "game.score", "game.extra"),
                    List.copyOf(((Map<?, ?>) saved.table().get("data")).keySet()));
            copy.loadSnapshot(saved);
            assertEquals(List.of("handler.save", "OnSnapshotSave", "StartSnapshotLoad 1", "handler.load 12",
                    "onData score 12", "onData extra [1, two]", "handler.finish", "FinishSnapshotLoad"), log);
        }
    }

    @Test
    void transientComponentsAreLeftOutAndRequirementsComeBackAsSpawnAtBringsThem() {
        try (World world = World.create(); World copy = World.create()) {
            long drawn = world.spawn(DRAWN, SPRITE.of(new Sprite(999)), HEALTH.of(10.0));
            long bare = world.spawn(DRAWN);
            world.remove(bare, HEALTH); // removed requirements stay removed ...
            Snapshot saved = world.saveSnapshot(SnapshotOptions.binary());
            assertFalse(saved.componentTable().stream().anyMatch(e -> e.name().equals("snap.Sprite")));
            copy.loadSnapshot(saved);
            assertEquals(new Sprite(7), copy.get(drawn, SPRITE), "a transient value is re-initialized");
            assertEquals(10.0, copy.get(drawn, HEALTH), "a saved value wins over the requirement");
            assertEquals(55.0, copy.get(bare, HEALTH), "... until a load reapplies them, as spawnAt would");
        }
    }

    @Test
    void customCodecsRunBothWaysAndWorldAwareOnesSeeTheDestination() {
        try (World world = World.create(); World copy = World.create()) {
            long pair = world.spawn(PAIR.of(new Spring(5, 2.5f)));
            long worldly = world.spawn(WORLDLY.of(40L));
            Snapshot binary = world.saveSnapshot(SnapshotOptions.binary());
            assertTrue(binary.componentTable().stream().filter(e -> e.name().equals("snap.Pair"))
                    .allMatch(e -> e.customCodec()));
            copy.spawn();
            copy.spawn();
            copy.loadSnapshot(binary);
            assertEquals(new Spring(5, 2.5f), copy.get(pair, PAIR));
            assertEquals(42L, copy.get(worldly, WORLDLY), "deserialize saw the world before the load: 2 entities");
            Map<String, Object> table = world.saveSnapshot().table();
            assertTrue(table.toString().contains("5:2.5"), "the custom codec wrote the table value");
        }
    }

    @Test
    void aTransientRelationshipsEdgesAreLeftOutDenseAndSparse() {
        try (World world = World.create(); World copy = World.create()) {
            long post = world.spawn(MARK);
            long dog = world.spawn(MARK, TETHERED.to(post), HELD_BY.of(new Rope(post, 2f)), HEALTH.of(3.0));
            long cat = world.spawn(TETHERED.to(dog));
            for (Snapshot saved : List.of(world.saveSnapshot(), world.saveSnapshot(SnapshotOptions.binary()))) {
                assertFalse(saved.componentTable().stream().anyMatch(e -> e.name().startsWith("snap.Tethered")
                        || e.name().startsWith("snap.HeldBy")), saved.componentTable().toString());
                if (saved.format() == dev.jtecs.snapshot.SnapshotFormat.TABLE) {
                    String text = saved.table().toString();
                    assertFalse(text.contains("snap.Tethered") || text.contains("snap.HeldBy"), text);
                }
                copy.loadSnapshot(saved);
                assertTrue(copy.isAlive(dog) && copy.isAlive(cat), "the sources stay, without the edges");
                assertEquals(3.0, copy.get(dog, HEALTH));
                assertTrue(copy.has(dog, MARK));
                assertFalse(copy.has(dog, TETHERED) || copy.has(cat, TETHERED) || copy.has(dog, HELD_BY));
                assertEquals(0, copy.relationshipSources(HELD_BY, post).length, "no reverse index entry either");
                assertEquals(world.entityCount(), copy.entityCount());
            }
        }
    }

    @Test
    void aCustomCodecOnARelationshipPayloadRunsBothWaysDenseAndSparse() throws Exception {
        try (World world = World.create()) {
            long post = world.spawn(MARK);
            long tree = world.spawn(MARK);
            long dog = world.spawn(ROPE.of(new Rope(post, 1.5f)), LEASH.of(new Leash(tree, "ann")));
            world.set(dog, ROPE.of(new Rope(tree, 4f)));
            world.set(dog, LEASH.of(new Leash(post, "bo")));
            Snapshot table = world.saveSnapshot();
            assertTrue(table.componentTable().stream().filter(e -> e.name().equals("snap.Rope")
                    || e.name().equals("snap.Leash")).allMatch(e -> e.customCodec()));
            String text = new ObjectMapper().writeValueAsString(table.table());
            assertTrue(text.contains("len 1.5") && text.contains("len 4.0"), "the dense codec wrote: " + text);
            assertTrue(text.contains(tree + "/ann") && text.contains(post + "/bo"), "the sparse codec wrote: " + text);
            for (Snapshot saved : List.of(table, world.saveSnapshot(SnapshotOptions.binary()))) {
                try (World copy = World.create()) {
                    copy.spawn();
                    int saves = ROPE_SAVES.get();
                    int loads = ROPE_LOADS.get();
                    copy.loadSnapshot(saved);
                    assertEquals(loads + 2, ROPE_LOADS.get(), saved.format() + ": the dense decoder ran per edge");
                    assertEquals(saves, ROPE_SAVES.get());
                    List<Object> ropes = new ArrayList<>();
                    copy.forEachRelationship(dog, ROPE, ropes::add);
                    assertEquals(List.of(new Rope(post, 1.5f), new Rope(tree, 4f)), ropes, saved.format().toString());
                    assertEquals(new Rope(tree, 4f), copy.get(dog, ROPE.targeting(tree)));
                    List<Object> leashes = new ArrayList<>();
                    copy.forEachRelationship(dog, LEASH, leashes::add);
                    assertEquals(List.of(new Leash(post, "bo@1"), new Leash(tree, "ann@1")), leashes,
                            "the sparse decoder saw the destination before the load (1 entity)");
                }
            }
            int saves = ROPE_SAVES.get();
            byte[] binary = world.saveSnapshot(SnapshotOptions.binary()).toByteArray();
            assertEquals(saves + 2, ROPE_SAVES.get(), "the binary form encodes through the codec, not raw");
            assertTrue(new String(binary, java.nio.charset.StandardCharsets.ISO_8859_1).contains("len 4.0"));
        }
    }

    /**
     * The value a table snapshot holds for one entity's component: an element of its column, or for native fields
     * a map of field name to that entity's element of each field column.
     */
    @SuppressWarnings("unchecked")
    private static Object savedValue(Map<String, Object> table, String component, long id) {
        List<Object> names = new ArrayList<>();
        for (Object entry : (List<Object>) table.get("componentTable")) {
            names.add(((Map<String, Object>) entry).get("name"));
        }
        for (Object frame : (List<Object>) table.get("archetypes")) {
            Map<String, Object> tree = (Map<String, Object>) frame;
            int row = ((List<Object>) tree.get("ids")).indexOf(Long.toString(id));
            List<Object> components = (List<Object>) tree.get("components");
            for (int c = 0; row >= 0 && c < components.size(); c++) {
                if (names.get((Integer) components.get(c)).equals(component)) {
                    Object column = ((List<Object>) tree.get("columns")).get(c);
                    if (column instanceof List<?> values) {
                        return values.get(row);
                    }
                    Map<String, Object> fields = new LinkedHashMap<>();
                    int at = row;
                    ((Map<String, Object>) column).forEach((field, values) -> fields.put(field,
                            ((List<Object>) values).get(at)));
                    return fields;
                }
            }
        }
        throw new AssertionError(component + " of " + id + " is not in the table");
    }

    @Test
    void snapshotSaveAndSnapshotLoadAreTheCodecsASnapshotUses() {
        try (World world = World.create(); World copy = World.create()) {
            long[] ids = populate(world);
            long pair = world.spawn(PAIR.of(new Spring(5, 2.5f)));
            long worldly = world.spawn(WORLDLY.of(40L));
            Map<String, Object> table = world.saveSnapshot().table();
            Body body = world.get(ids[0], BODY);
            assertEquals(BODY.snapshotSave(body), savedValue(table, "snap.Body", ids[0]), "automatic, native");
            assertEquals(Map.of("value", HEALTH.snapshotSave(world.get(ids[0], HEALTH))),
                    savedValue(table, "snap.Health", ids[0]), "automatic, numeric scalar (one field column)");
            assertEquals(LABEL.snapshotSave(world.get(ids[0], LABEL)), savedValue(table, "snap.Label", ids[0]));
            assertEquals(TAG.snapshotSave(world.get(ids[1], TAG)), savedValue(table, "snap.Tag", ids[1]),
                    "automatic, managed");
            assertEquals(PAIR.snapshotSave(new Spring(5, 2.5f)), savedValue(table, "snap.Pair", pair), "custom");
            assertEquals(WORLDLY.snapshotSave(40L), savedValue(table, "snap.Worldly", worldly), "custom");
            assertEquals(body, BODY.snapshotLoad(BODY.snapshotSave(body), copy));
            copy.spawn();
            assertEquals(41L, WORLDLY.snapshotLoad(savedValue(table, "snap.Worldly", worldly), copy),
                    "the world-aware decoder a load runs, given the destination");
            copy.loadSnapshot(table);
            assertEquals(41L, copy.get(worldly, WORLDLY), "and the load ran it the same way");
        }
    }

    @Test
    void incompleteCodecsAreRefusedAtRegistration() {
        record Half(int v) {}
        assertThrows(IllegalArgumentException.class,
                () -> Components.registerNative(Half.class, o -> o.name("snap.Half").save(h -> 1)));
        assertThrows(IllegalArgumentException.class,
                () -> Components.registerNative(Half.class, o -> o.name("snap.Half2").load(s -> new Half(1))
                        .deserialize(World.class, (w, s) -> new Half(2)).save(h -> 1)));
        assertNull(Components.findByName("snap.Half"));
    }

    @Test
    void aLoadWritesEveryColumnOverWhatTheRowsHeldBefore() {
        // the loaded columns are copied in without a zeroing or default pass first: nothing of the rows the
        // world held before may show through, in the binary form or the table form
        try (World world = World.create()) {
            Body body = new Body(1.5f, 2.5f, 3, 4.5, true, (byte) 5, (short) 6, 'c');
            long a = world.spawn(BODY.of(body), HEALTH.of(2.5));
            long b = world.spawn(DRAWN); // a requirement's transient native and scalar: not saved, defaults come back
            for (Snapshot saved : List.of(world.saveSnapshot(SnapshotOptions.binary()), world.saveSnapshot())) {
                world.set(a, BODY.of(new Body(9, 9, 9, 9, false, (byte) 9, (short) 9, 'z')));
                world.set(a, HEALTH.of(7.0));
                world.set(b, SPRITE.of(new Sprite(99)));
                world.set(b, HEALTH.of(-1.0));
                for (int i = 0; i < 100; i++) {
                    world.spawn(BODY.of(new Body(i, i, i, i, true, (byte) i, (short) i, 'q')), HEALTH.of(i));
                    world.spawn(DRAWN, SPRITE.of(new Sprite(i)), HEALTH.of(-i));
                }
                world.loadSnapshot(saved);
                assertEquals(2, world.entityCount());
                assertEquals(body, world.get(a, BODY));
                assertEquals(2.5, world.get(a, HEALTH));
                assertEquals(new Sprite(7), world.get(b, SPRITE));
                assertEquals(55.0, world.get(b, HEALTH));
            }
        }
    }

    @Test
    void membershipCallbacksSeeTheOldRowsLeaveAndTheLoadedRowsArrive() {
        try (World world = World.create()) {
            List<String> log = new ArrayList<>();
            Query marked = world.newQuery(QueryDescriptor.builder().include(MARK)
                    .onEntitiesAdded((archetype, from, to) -> log.add("added " + (to - from)))
                    .onEntitiesRemoved((archetype, from, to) -> log.add("removed " + (to - from))).build());
            world.spawn(MARK);
            world.spawn(MARK);
            Snapshot saved = world.saveSnapshot();
            world.spawn(MARK);
            log.clear();
            List<Long> spawned = new ArrayList<>();
            world.observe(0, OnSpawn.class, event -> spawned.add(event.entity()));
            world.loadSnapshot(saved);
            assertEquals(List.of("removed 3", "added 2"), log);
            assertEquals(2, marked.count());
            assertEquals(List.of(), spawned, "a load delivers no OnSpawn");
        }
    }

    @Test
    void loadingKeepsSystemsQueriesResourcesAndWorldObserversAndDropsEntityObservers() {
        try (World world = World.create()) {
            long entity = world.spawn(MARK);
            world.addSystem(SystemConfig.named("snap.noop").phase(Phases.UPDATE).run((dt, w) -> { }));
            world.resources().put(String.class, "kept");
            List<String> log = new ArrayList<>();
            world.observe(entity, dev.jtecs.event.OnDespawn.class, event -> log.add("entity observer"));
            Snapshot saved = world.saveSnapshot();
            world.loadSnapshot(saved);
            assertTrue(world.listSystems().stream().anyMatch(s -> s.name().equals("snap.noop")));
            assertEquals("kept", world.resources().get(String.class));
            world.despawn(entity);
            assertEquals(List.of(), log);
        }
    }

    @Test
    void filtersLayersAndExclusionsSelectEntitiesAndCascadesFollow() {
        try (World world = World.create(); World copy = World.create()) {
            long parent = world.spawn(MARK, Transform2D.COMPONENT.of(new Transform2D(0, 0, 0, 3, 0, 1, 1)));
            long child = world.spawn(ChildOf.COMPONENT.to(parent));
            long disabled = world.spawn(MARK, Disabled.COMPONENT);
            long other = world.spawn(HEALTH.of(1.0));
            copy.loadSnapshot(world.saveSnapshot(SnapshotOptions.table().filter(
                    QueryDescriptor.builder().include(MARK).build())));
            assertTrue(copy.isAlive(parent) && copy.isAlive(disabled), "no automatic Disabled exclusion");
            assertFalse(copy.isAlive(other) || copy.isAlive(child));
            copy.loadSnapshot(world.saveSnapshot(SnapshotOptions.table().layers(0, 1)));
            assertFalse(copy.isAlive(parent), "layer 3 is left out");
            assertFalse(copy.isAlive(child), "a cascading child goes with its parent");
            assertTrue(copy.isAlive(other) && copy.isAlive(disabled), "no Transform2D: always passes");
            world.observe(0, OnSnapshotSave.class, event -> event.exclude(HEALTH));
            copy.loadSnapshot(world.saveSnapshot());
            assertFalse(copy.isAlive(other));
            assertTrue(copy.isAlive(child));
        }
    }

    @Test
    void saveAndLoadRefuseToRunDuringPublicationDispatchOrInsideAScope() {
        try (World world = World.create()) {
            Snapshot saved = world.saveSnapshot();
            List<Throwable> thrown = new ArrayList<>();
            world.addSystem(SystemConfig.named("snap.saver").phase(Phases.UPDATE).run((dt, w) -> {
                try {
                    w.saveSnapshot();
                } catch (IllegalStateException e) {
                    thrown.add(e);
                }
                try {
                    w.loadSnapshot(saved);
                } catch (IllegalStateException e) {
                    thrown.add(e);
                }
            }));
            world.update(0.016);
            assertEquals(2, thrown.size());
            world.newQuery(QueryDescriptor.builder().include(MARK).onEntitiesAdded((archetype, from, to) -> {
                try {
                    world.saveSnapshot();
                } catch (IllegalStateException e) {
                    thrown.add(e);
                }
            }).build());
            world.spawn(MARK);
            assertEquals(3, thrown.size(), "a membership callback runs during publication");
            world.defer();
            assertThrows(IllegalStateException.class, world::saveSnapshot);
            assertThrows(IllegalStateException.class, () -> world.loadSnapshot(saved));
            world.commit();
            world.observe(0, StartSnapshotLoad.class, event -> world.saveSnapshot());
            assertThrows(IllegalStateException.class, () -> world.loadSnapshot(saved), "no save inside a load");
        }
    }

    /** A copy of a table tree with every leaf equal to {@code from} replaced by {@code to}. */
    private static Object replaced(Object tree, Object from, Object to) {
        if (tree instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((key, value) -> copy.put((String) key, replaced(value, from, to)));
            return copy;
        }
        if (tree instanceof List<?> list) {
            List<Object> copy = new ArrayList<>();
            list.forEach(value -> copy.add(replaced(value, from, to)));
            return copy;
        }
        return from.equals(tree) ? to : tree;
    }

    @Test
    @SuppressWarnings("unchecked")
    void aRejectedLoadChangesNothingAndTheWorldKeepsWorking() {
        try (World world = World.create(WorldConfig.defaults().timestep(0.1)); World source = World.create()) {
            populate(world);
            populate(source);
            world.spawn(DRAWN, SPRITE.of(new Sprite(999))); // a transient value: no snapshot holds it
            world.seedRandom(9);
            world.randomStream("snap.other").nextInt();
            world.createState("snap.menu", StatePolicy.none());
            world.pushState("snap.menu");
            world.disablePhase(Phases.RENDER);
            world.update(0.25); // two fixed steps, 0.05 s left over
            Query marked = world.newQuery(QueryDescriptor.builder().include(MARK).build());
            String before = dev.jtecs.testing.WorldState.of(world, marked);

            Map<String, Object> table = source.saveSnapshot().table();
            Map<String, Map<String, Object>> tables = new LinkedHashMap<>();
            Map<String, Object> badVersion = new LinkedHashMap<>(table);
            badVersion.put("version", 2);
            tables.put("version 2 is not supported", badVersion);
            tables.put("the custom codec of snap.Pair rejected its value",
                    (Map<String, Object>) replaced(table, "42:1.5", "forty-two"));
            Map<String, Object> hostile = new LinkedHashMap<>(table);
            hostile.put("nextEntityId", Integer.MAX_VALUE);
            tables.put("needs a world of at least", hostile);
            for (Map.Entry<String, Map<String, Object>> bad : tables.entrySet()) {
                InvalidSnapshotException refused = assertThrows(InvalidSnapshotException.class,
                        () -> world.loadSnapshot(bad.getValue()), bad.getKey());
                assertTrue(refused.getMessage().contains(bad.getKey()), refused.getMessage());
                assertEquals(before, dev.jtecs.testing.WorldState.of(world, marked), bad.getKey());
            }
            byte[] bytes = source.saveSnapshot(SnapshotOptions.binary()).toByteArray();
            bytes[bytes.length / 2] ^= 0x10;
            InvalidSnapshotException flipped = assertThrows(InvalidSnapshotException.class,
                    () -> world.loadSnapshot(bytes));
            assertTrue(flipped.getMessage().contains("checksum"), flipped.getMessage());
            assertEquals(before, dev.jtecs.testing.WorldState.of(world, marked));

            long spawned = world.spawn(MARK);
            assertTrue(world.isAlive(spawned));
            world.loadSnapshot(table); // and a good snapshot still loads
            assertEquals(describe(source), describe(world));
        }
    }

    @Test
    void anInvalidLayerIsRefusedBeforeTheSaveStarts() {
        try (World world = World.create()) {
            List<String> log = new ArrayList<>();
            world.addSnapshotHandler(SnapshotHandler.<World>of("snap.h", w -> {
                log.add("handler.save");
                return 1;
            }, null));
            world.observe(0, OnSnapshotSave.class, event -> log.add("OnSnapshotSave"));
            SnapshotOptions options = SnapshotOptions.table().layers(2);
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> world.saveSnapshot(options.layers(0, 40)));
            assertTrue(refused.getMessage().contains("layer 40 is outside 0..31"), refused.getMessage());
            assertThrows(IllegalArgumentException.class, () -> SnapshotOptions.binary().layers(-1));
            assertArrayEquals(new int[] {2}, options.layers(), "the options keep the layers they had");
            assertEquals(List.of(), log, "no handler ran and no event was delivered");
            world.saveSnapshot(options);
            assertEquals(List.of("handler.save", "OnSnapshotSave"), log);
        }
    }

    static final TagComponent LATE = Components.tag("snap.Late");

    @Test
    void anArchetypeCreatedObserverThatSpawnsDuringALoadTakesAFreeSlotNotARestoredOne() {
        for (boolean binary : new boolean[] {false, true}) {
            try (World saved = World.create(); World loaded = World.create()) {
                long a = saved.spawn(MARK);
                long b = saved.spawn(MARK, LATE);
                long gone = saved.spawn(MARK);
                saved.despawn(gone);
                long c = saved.spawn(LATE);
                Snapshot snapshot = binary ? saved.saveSnapshot(SnapshotOptions.binary()) : saved.saveSnapshot();
                List<Long> spawned = new ArrayList<>();
                loaded.observe(Entity.WORLD, ArchetypeCreated.class, created -> {
                    if (created.archetype().components().containsAll(List.of(MARK, LATE))) {
                        spawned.add(loaded.spawn(HEALTH.of(1.0))); // lands with the load's publication
                    }
                });
                loaded.loadSnapshot(snapshot);
                assertEquals(1, spawned.size(), binary ? "binary" : "table");
                for (long id : new long[] {a, b, c}) {
                    assertTrue(loaded.isAlive(id), Entity.toString(id) + " restored with its own id");
                }
                assertTrue(loaded.has(b, LATE));
                long extra = spawned.get(0);
                assertTrue(loaded.isAlive(extra));
                assertFalse(java.util.Set.of(a, b, c).contains(extra));
                assertEquals(4, loaded.entityCount());
                assertEquals(1.0, loaded.get(extra, HEALTH));
            }
        }
    }

    @Test
    void anArchetypeCreatedObserverThatThrowsDuringALoadLeavesNoSlotReserved() {
        try (World saved = World.create(); World loaded = World.create()) {
            long a = saved.spawn(MARK, LATE);
            Snapshot snapshot = saved.saveSnapshot();
            loaded.observe(Entity.WORLD, ArchetypeCreated.class, created -> {
                throw new IllegalStateException("observer");
            });
            assertThrows(IllegalStateException.class, () -> loaded.loadSnapshot(snapshot));
            assertFalse(loaded.isAlive(a));
            assertFalse(loaded.hasPendingChanges());
            loaded.clearObservers(Entity.WORLD);
            loaded.loadSnapshot(snapshot); // the slots the failed load had reserved are free again
            assertTrue(loaded.isAlive(a));
            assertEquals(1, loaded.entityCount());
        }
    }
}
