package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.CHILD_OF;
import static dev.jtecs.stress.ModelComponents.DISABLED;
import static dev.jtecs.stress.ModelComponents.ELITE;
import static dev.jtecs.stress.ModelComponents.FOLLOWS;
import static dev.jtecs.stress.ModelComponents.HEALTH;
import static dev.jtecs.stress.ModelComponents.HELD_BY;
import static dev.jtecs.stress.ModelComponents.KEY;
import static dev.jtecs.stress.ModelComponents.LABEL;
import static dev.jtecs.stress.ModelComponents.LEADS;
import static dev.jtecs.stress.ModelComponents.LEVEL;
import static dev.jtecs.stress.ModelComponents.LOAN;
import static dev.jtecs.stress.ModelComponents.MARKED;
import static dev.jtecs.stress.ModelComponents.NAME;
import static dev.jtecs.stress.ModelComponents.PAUSED;
import static dev.jtecs.stress.ModelComponents.POSITION;
import static dev.jtecs.stress.ModelComponents.SCORE;
import static dev.jtecs.stress.ModelComponents.SPRING;
import static dev.jtecs.stress.ModelComponents.VELOCITY;
import static dev.jtecs.stress.ModelComponents.WATCHES;

import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.PairComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.event.OnDespawn;
import dev.jtecs.event.OnSpawn;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.schedule.PhaseDefinition;
import dev.jtecs.schedule.Phases;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.state.StatePolicy;
import dev.jtecs.storage.Archetype;
import dev.jtecs.stress.ModelComponents.Label;
import dev.jtecs.stress.ModelComponents.Loan;
import dev.jtecs.stress.ModelComponents.Position;
import dev.jtecs.stress.ModelComponents.Spring;
import dev.jtecs.stress.ModelComponents.Velocity;
import dev.jtecs.world.Bundle;
import dev.jtecs.world.BundleDefinition;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The world every bad-input case starts from, built the same way each time (so its ids are the same each time):
 * entities of every storage kind, a key, dense and sparse edges of every relationship kind, a requirement chain,
 * disabled and paused entities, a dead id, a stale id (its slot reused), a persistent grouped query whose
 * membership callbacks record their members, observers at the world and at an entity, a system, a custom phase,
 * an active state, a bundle, a resource and a dirty column; in the staged variant also an open scope holding a
 * staged spawn, a staged move and a staged despawn. Beside it, a second ("foreign") world with more entities, a
 * query, a bundle and a pair of its own.
 */
public final class BadInputFixture implements AutoCloseable {
    /** A managed type with no default value: as an input it must be refused. */
    public static final class NoDefault {
        NoDefault(int value) {}
    }

    public static final ManagedComponent<NoDefault> NO_DEFAULT =
            Components.registerManaged(NoDefault.class, o -> o.name("stress.bad.NoDefault"));
    public static final int MAX_ENTITIES = 256;
    public static final String KEY_B = "key-b";
    public static final String SYSTEM = "stress.bad.system";
    public static final String PHASE = "stress.bad.phase";
    public static final String STATE = "stress.bad.menu";
    public static final String IDLE_STATE = "stress.bad.idle";
    public static final String BUNDLE = "stress.bad.bundle";
    public static final String OBSERVER_ID = "stress.bad.observer";

    public final boolean staged;
    public final World world = World.create(WorldConfig.defaults().maxEntities(MAX_ENTITIES));
    public final World foreign = World.create(WorldConfig.defaults().maxEntities(MAX_ENTITIES));
    /** Entities: a mover, a keyed one with a label, a child of {@code a}, the holder of every edge kind, an elite,
     * a disabled and a paused one, and {@code y}, which reuses the slot of {@link #stale}. */
    public final long a;
    public final long b;
    public final long c;
    public final long d;
    public final long e;
    public final long disabled;
    public final long paused;
    public final long y;
    public final long dead;
    public final long stale;
    /** A staged spawn (staged variant only, else 0). */
    public final long reserved;
    public final long foreignId;
    public final Query tracked;
    public final Query logic;
    public final Query foreignQuery;
    public final Bundle bundle;
    public final Bundle foreignBundle;
    public final PairComponent foreignPair;
    public final Archetype foreignArchetype;
    /** What the tracked query's callbacks reported: its members as they see them. */
    public final TreeSet<Long> trackedMembers = new TreeSet<>();
    public final List<String> events = new ArrayList<>();

    public BadInputFixture(boolean staged) {
        this.staged = staged;
        tracked = world.newQuery(QueryDescriptor.builder().name("tracked").include(POSITION)
                .groupBy(archetype -> archetype.has(VELOCITY) ? 1 : 0)
                .onEntitiesAdded((archetype, from, to) -> {
                    for (int row = from; row < to; row++) {
                        trackedMembers.add(archetype.entity(row));
                    }
                })
                .onEntitiesRemoved((archetype, from, to) -> {
                    for (int row = from; row < to; row++) {
                        trackedMembers.remove(archetype.entity(row));
                    }
                }).build());
        logic = world.newQuery(QueryDescriptor.builder().name("logic").include(HEALTH).logic().build());
        world.observe(Entity.WORLD, OnSpawn.class, event -> events.add("spawn " + event.entity()));
        world.observe(Entity.WORLD, OnDespawn.class, event -> events.add("despawn " + event.entity()));
        a = world.spawn(POSITION.of(new Position(1, 2)), VELOCITY.of(new Velocity(3, 4)), HEALTH.of(5.0));
        b = world.spawn(LABEL.of(new Label("bee", List.of("x"))), NAME.of("bee"), POSITION);
        world.set(b, KEY.of(KEY_B));
        c = world.spawn(CHILD_OF.to(a), POSITION, LEVEL.of(3));
        d = world.spawn(FOLLOWS.to(a), SPRING.of(new Spring(b, 2f, 3)), WATCHES.to(a), HELD_BY.to(a),
                LOAN.of(new Loan(b, 4)), LEADS.to(b));
        e = world.spawn(ELITE);
        disabled = world.spawn(DISABLED, POSITION);
        paused = world.spawn(PAUSED, HEALTH);
        world.observe(a, OnDespawn.class, event -> events.add("despawn@a " + event.entity()), OBSERVER_ID);
        long recycled = world.spawn();
        world.despawn(recycled);
        y = world.spawn(SCORE.of(9L)); // takes the slot just freed
        if (Entity.slot(y) != Entity.slot(recycled)) {
            throw new IllegalStateException("the fixture expects slot reuse: " + Entity.toString(recycled) + " then "
                    + Entity.toString(y));
        }
        stale = recycled;
        long gone = world.spawn();
        world.despawn(gone);
        dead = gone;
        world.addSystem(SystemConfig.named(SYSTEM).phase(Phases.UPDATE).run((dt, w) -> { }));
        world.registerPhase(PhaseDefinition.leaf(PHASE));
        world.createState(STATE, StatePolicy.none());
        world.createState(IDLE_STATE, StatePolicy.none());
        world.pushState(STATE);
        bundle = world.newBundle(BUNDLE, BundleDefinition.required(POSITION).with(HEALTH.of(1.0)));
        world.resources().put(String.class, "fixture");
        world.clearDirty();
        world.set(a, HEALTH.of(6.0)); // one dirty column
        for (int i = 0; i < 120; i++) {
            foreign.spawn(POSITION);
        }
        foreignId = foreign.spawn(POSITION, FOLLOWS.to(Entity.pack(1, 0)));
        foreignArchetype = foreign.archetypeOf(foreignId);
        foreignPair = (PairComponent) foreignArchetype.components().stream()
                .filter(component -> component instanceof PairComponent).findFirst().orElseThrow();
        foreignQuery = foreign.newQuery(QueryDescriptor.builder().include(POSITION).build());
        foreignBundle = foreign.newBundle(BUNDLE, BundleDefinition.required(POSITION));
        if (staged) {
            world.defer();
            reserved = world.spawn(POSITION, MARKED);
            world.set(a, MARKED);
            world.despawn(paused);
        } else {
            reserved = 0;
        }
    }

    /** The whole state: the world with both queries, the key probe, and what the callbacks and observers saw. */
    public String dump() {
        return WorldDump.of(world, List.of(tracked, logic), List.of(KEY_B, "no-such-key")).text()
                + "tracked-callbacks " + ids(trackedMembers) + "\nevents " + events + "\n";
    }

    private static List<String> ids(TreeSet<Long> ids) {
        return ids.stream().map(Entity::toString).toList();
    }

    /** A component this world's entities hold, for calls that need a valid one. */
    public Component<?> component() {
        return POSITION;
    }

    @Override
    public void close() {
        world.claim(); // a case may have released it
        world.close();
        foreign.close();
    }
}
