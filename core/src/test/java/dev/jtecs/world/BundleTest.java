package dev.jtecs.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.ChildOf;
import dev.jtecs.component.Components;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.RelationshipDefinition;
import dev.jtecs.component.Relationships;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.event.OnSpawn;
import dev.jtecs.state.StatePolicy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Spawning bundles: required inputs, defaults and factories, and a bundle spawn as a spawn path. */
class BundleTest {
    record Speed(float x, float y) {}

    record Bag(List<String> items) {}

    record Leash(long target, float length) {}

    static final class Sealed {
        Sealed(int v) {}
    }

    static final NativeComponent<Speed> SPEED = Components.registerNative(Speed.class);
    static final ManagedComponent<Bag> BAG = Components.registerManaged(Bag.class);
    static final ManagedComponent<Sealed> SEALED = Components.registerManaged(Sealed.class);
    static final ScalarComponent.OfInt HP = Components.scalar("test.bundle.Hp", 10);
    static final TagComponent MOB = Components.tag("test.bundle.Mob");
    static final TagComponent LOUD = Components.tag("test.bundle.Loud");
    static final RelationshipDefinition<Leash> LEASH = Relationships.register(Leash.class);

    private final World world = World.create();
    private final List<String> log = new ArrayList<>();
    private int bagsMade;

    @AfterEach
    void tearDown() {
        world.close();
    }

    private Bundle mob() {
        return world.newBundle("test.Mob", BundleDefinition.required(SPEED).with(HP.of(5), MOB)
                .with(BAG, () -> {
                    bagsMade++;
                    return new Bag(new ArrayList<>());
                }));
    }

    @Test
    void aSpawnTakesTheRequiredInputsAndFillsInTheDefaults() {
        Bundle mob = mob();
        long e = mob.spawn(SPEED.of(new Speed(1, 2)));
        assertEquals(new Speed(1, 2), world.get(e, SPEED));
        assertEquals(5, world.get(e, HP));
        assertTrue(world.has(e, MOB));
        assertEquals(new Bag(List.of()), world.get(e, BAG));
        assertEquals(4, world.archetypeOf(e).components().size(), "nothing else");
    }

    @Test
    void aFactoryRunsOncePerEntityAndASharedValueIsShared() {
        Bag shared = new Bag(List.of("rope"));
        Bundle pack = world.newBundle("test.Pack", BundleDefinition.empty().with(BAG.of(shared)));
        Bundle mob = mob();
        long a = mob.spawn(SPEED);
        long b = mob.spawn(SPEED);
        assertEquals(2, bagsMade);
        assertNotSame(world.get(a, BAG), world.get(b, BAG), "one fresh bag each");
        long c = pack.spawn();
        long d = pack.spawn();
        assertSame(world.get(c, BAG), world.get(d, BAG), "a constructed default is handed to every entity");
        assertSame(shared, world.get(c, BAG));
    }

    @Test
    void aDefinitionAsDefaultRunsItsRegisteredFactoryPerEntity() {
        ManagedComponent<Bag> satchel = Components.registerManaged(Bag.class,
                o -> o.name("test.bundle.Satchel").defaults(() -> new Bag(new ArrayList<>())));
        Bundle bundle = world.newBundle("test.Satchel", BundleDefinition.empty().with(satchel));
        long a = bundle.spawn();
        long b = bundle.spawn();
        assertEquals(new Bag(List.of()), world.get(a, satchel));
        assertNotSame(world.get(a, satchel), world.get(b, satchel));
    }

    @Test
    void anInputOfADefaultedComponentReplacesTheDefaultWithoutRunningItsFactory() {
        Bundle mob = mob();
        Bag own = new Bag(List.of("sword"));
        long e = mob.spawn(SPEED, BAG.of(own), HP.of(9));
        assertEquals(0, bagsMade);
        assertSame(own, world.get(e, BAG));
        assertEquals(9, world.get(e, HP));
        assertEquals(new Speed(0, 0), world.get(e, SPEED), "the definition itself supplies its default on purpose");
    }

    @Test
    void extraInputsAreAddedAndTheLastInputOfAComponentWins() {
        Bundle mob = mob();
        long e = mob.spawn(SPEED.of(new Speed(1, 1)), LOUD, SPEED.of(new Speed(3, 3)));
        assertTrue(world.has(e, LOUD));
        assertEquals(new Speed(3, 3), world.get(e, SPEED));
    }

    @Test
    void missingRequiredInputsAreRefusedAndNothingIsSpawned() {
        Bundle pair = world.newBundle("test.Pair", BundleDefinition.required(SPEED, ChildOf.COMPONENT)
                .with(BAG, () -> {
                    bagsMade++;
                    return new Bag(List.of());
                }));
        world.observe(Entity.WORLD, OnSpawn.class, e -> log.add("spawn"));
        int entities = world.entityCount();
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> pair.spawn(HP));
        assertEquals("bundle 'test.Pair' requires [" + SPEED.name() + ", ChildOf]; missing [" + SPEED.name()
                + ", ChildOf] (nothing was spawned)", missing.getMessage());
        IllegalArgumentException half = assertThrows(IllegalArgumentException.class,
                () -> world.spawnBundle("test.Pair", SPEED));
        assertEquals("bundle 'test.Pair' requires [" + SPEED.name() + ", ChildOf]; missing [ChildOf] (nothing was "
                + "spawned)", half.getMessage());
        assertEquals(entities, world.entityCount());
        assertEquals(0, bagsMade, "no factory ran");
        assertEquals(List.of(), log, "no OnSpawn");
        assertFalse(world.hasPendingChanges());
    }

    @Test
    void requiredAndDefaultedRelationshipsTakeEdges() {
        long parent = world.spawn();
        long anchor = world.spawn();
        Bundle child = world.newBundle("test.Child", BundleDefinition.required(ChildOf.COMPONENT)
                .with(LEASH, () -> new Leash(anchor, 2f)));
        long e = child.spawn(ChildOf.COMPONENT.to(parent));
        assertEquals(ChildOf.COMPONENT.to(parent), world.get(e, ChildOf.COMPONENT));
        assertEquals(new Leash(anchor, 2f), world.get(e, LEASH));
        long f = child.spawn(ChildOf.COMPONENT.to(parent), LEASH.of(new Leash(parent, 5f)));
        assertEquals(new Leash(parent, 5f), world.get(f, LEASH));
        world.despawn(parent);
        assertFalse(world.isAlive(e), "the required edge cascades like any ChildOf");
    }

    @Test
    void aBundleSpawnIsASpawnPath() {
        TagComponent level = world.createState("test.level", StatePolicy.despawnOnExit());
        Bundle mob = mob();
        world.observe(Entity.WORLD, OnSpawn.class,
                e -> log.add("spawn " + Entity.toString(e.entity()) + " alive=" + world.isAlive(e.entity())));
        world.pushState("test.level");
        long e = mob.spawn(SPEED);
        assertTrue(world.has(e, level), "tagged with the active state");
        assertEquals(List.of("spawn " + Entity.toString(e) + " alive=false"), log, "OnSpawn once, while staged");
        world.defer();
        long staged = world.spawnBundle("test.Mob", SPEED);
        assertFalse(world.isAlive(staged), "staged like any spawn");
        world.commit();
        assertTrue(world.isAlive(staged));
        world.popState();
        assertFalse(world.isAlive(e) || world.isAlive(staged), "despawned with their state");
    }

    @Test
    void aFailingFactoryOrABadInputLeavesNothingSpawned() {
        Bundle broken = world.newBundle("test.Broken", BundleDefinition.empty().with(HP, () -> {
            throw new IllegalStateException("no hit points today");
        }));
        int entities = world.entityCount();
        IllegalStateException thrown = assertThrows(IllegalStateException.class, broken::spawn);
        assertEquals("no hit points today", thrown.getMessage());
        Bundle mob = mob();
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> mob.spawn(SPEED, SEALED));
        assertTrue(bad.getMessage().contains("has no default value"), bad.getMessage());
        assertEquals(entities, world.entityCount());
        assertFalse(world.hasPendingChanges());
        assertThrows(NullPointerException.class, () -> mob.spawn(SPEED, null));
        assertThrows(NullPointerException.class, () -> mob.spawn((dev.jtecs.component.Input[]) null));
    }

    @Test
    void bundleSpawnAndWorldSpawnBundleAgree() {
        Bundle mob = mob();
        long viaBundle = mob.spawn(SPEED.of(new Speed(4, 4)));
        long viaName = world.spawnBundle("test.Mob", SPEED.of(new Speed(4, 4)));
        long viaObject = world.spawnBundle(mob, SPEED.of(new Speed(4, 4)));
        assertSame(world.archetypeOf(viaBundle), world.archetypeOf(viaName));
        assertSame(world.archetypeOf(viaBundle), world.archetypeOf(viaObject));
    }

    @Test
    void aBundleBelongsToItsWorld() {
        Bundle mob = mob();
        try (World other = World.create()) {
            IllegalArgumentException foreign = assertThrows(IllegalArgumentException.class,
                    () -> other.spawnBundle(mob, SPEED));
            assertEquals("spawnBundle: " + mob + " belongs to another world", foreign.getMessage());
            assertEquals(0, other.entityCount());
        }
        world.close();
        assertThrows(IllegalStateException.class, () -> mob.spawn(SPEED));
    }

    @Test
    void aBundleDescribesItself() {
        Bundle mob = mob();
        assertEquals("test.Mob", mob.name());
        assertEquals(List.of(SPEED), mob.required());
        assertEquals(List.of(HP, MOB, BAG), mob.defaulted());
        assertEquals(List.of(SPEED), mob.definition().requiredComponents());
        assertEquals("Bundle[test.Mob: required=[" + SPEED.name() + "] defaulted=[test.bundle.Hp, test.bundle.Mob, "
                + BAG.name() + "]]", mob.toString());
    }
}
