package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.CHILD_OF;
import static dev.jtecs.stress.ModelComponents.FOLLOWS;
import static dev.jtecs.stress.ModelComponents.HEALTH;
import static dev.jtecs.stress.ModelComponents.KEY;
import static dev.jtecs.stress.ModelComponents.LEVEL;
import static dev.jtecs.stress.ModelComponents.POSITION;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.entity.Entity;
import dev.jtecs.event.OnDespawn;
import dev.jtecs.event.OnSpawn;
import dev.jtecs.event.Observer;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.query.QueryVisitor;
import dev.jtecs.schedule.Phase;
import dev.jtecs.schedule.PhaseDefinition;
import dev.jtecs.schedule.PhaseSelection;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.state.StatePolicy;
import dev.jtecs.storage.Archetype;
import dev.jtecs.relation.AncestorVisitor;
import dev.jtecs.mutation.BatchCallback;
import dev.jtecs.world.Bundle;
import dev.jtecs.world.BundleDefinition;
import dev.jtecs.relation.TraversalVisitor;
import dev.jtecs.world.World;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongConsumer;

/**
 * The bad-input table: every public entry point of {@link World} (and of its queries, scheduler, resources and
 * relationships), each parameter of it, and each kind of bad argument that parameter can receive, as generated
 * {@link Case}s. A case swaps one argument of an otherwise valid call for a bad one and says what the call must
 * do: throw an exception of a given type whose message names the bad operand, or, for the reads whose contract is
 * a sentinel answer (dead ids read as absent), answer that sentinel. Either way the world must not change.
 *
 * <pre>
 *   entry point ──► parameters ──► parameter type ──► bad values (kind, label, expectation)
 *        └──────── per-entry overrides: a read answers a sentinel instead of throwing ────────┘
 * </pre>
 *
 * <p>Bad argument kinds: {@code null}; dead, stale (its slot reused by a newer generation), foreign (live in
 * another world only), out-of-range (a slot beyond {@code maxEntities}) and malformed ids; foreign queries,
 * bundles, archetypes and pairs; duplicates (a live or reserved id to {@code spawnAt}, an id twice in one batch, a
 * key, an observer id, a system, phase, state or bundle name already taken); unknown names and phases; values of
 * the wrong kind (a managed input without a default, a relationship or selector used as an input, an
 * {@code EntityKey} in a bulk call); and out-of-range numbers (counts, depths, times).
 */
public final class BadInputs {
    /** The kinds of bad argument. */
    public enum Kind { NULL, DEAD, STALE, FOREIGN, OUT_OF_RANGE, MALFORMED, DUPLICATE, UNKNOWN, WRONG_KIND }

    /** What a call must do with a bad argument. */
    public sealed interface Expect permits Throws, Answers {}

    /**
     * Throw {@code type} (or a subclass) with a message containing {@code operand}, when that is not null.
     *
     * @param operand how the bad argument appears in the message
     */
    public record Throws(Class<? extends RuntimeException> type, String operand) implements Expect {}

    /** Answer this sentinel (compared by {@link #render}). */
    public record Answers(Object value) implements Expect {}

    /** One call of the table: which entry point, which parameter, which kind of bad value, and the expectation. */
    public record Case(String entryPoint, String parameter, Kind kind, String label, Call call,
            Function<BadInputFixture, Expect> expectation) {
        /** What the call must do on this fixture (expectations may name the fixture's ids). */
        public Expect expect(BadInputFixture fixture) {
            return expectation.apply(fixture);
        }

        @Override
        public String toString() {
            return entryPoint + " / " + parameter + " = " + label + " (" + kind + ")";
        }
    }

    /** Invokes an entry point on the fixture with these arguments; returns what it answered. */
    @FunctionalInterface
    public interface Call {
        Object invoke(BadInputFixture fixture) throws Throwable;
    }

    /** A bad value of a parameter type; its expectation unless the entry point overrides the kind. */
    private record Bad(Kind kind, String label, Function<BadInputFixture, Object> value,
            Function<BadInputFixture, Expect> expect) {}

    /** A parameter type: the good value a valid call uses, and the bad ones. */
    private record Type(String name, Function<BadInputFixture, Object> good, List<Bad> bads) {}

    @FunctionalInterface
    private interface Body {
        Object invoke(BadInputFixture fixture, Object[] args) throws Throwable;
    }

    /** An entry point: a name, its parameters (name and type), how to call it, and overrides by kind. */
    private record Entry(String name, List<String> parameters, List<Type> types, Body body,
            Map<Kind, Function<BadInputFixture, Expect>> overrides) {}

    private static final Observer<Object> NOOP_OBSERVER = event -> { };

    // ---------------------------------------------------------------- bad values

    private static Function<BadInputFixture, Expect> iae(Function<BadInputFixture, Object> operand) {
        return f -> new Throws(IllegalArgumentException.class, render(operand.apply(f)));
    }

    private static Function<BadInputFixture, Expect> throwing(Class<? extends RuntimeException> type, String operand) {
        return f -> new Throws(type, operand);
    }

    private static Function<BadInputFixture, Expect> answers(Object value) {
        return f -> new Answers(value);
    }

    private static Bad nullValue(String parameter) {
        return new Bad(Kind.NULL, "null", f -> null, throwing(NullPointerException.class, parameter));
    }

    /** An id as error messages render it: {@code slot#generation}, or the raw value when malformed. */
    static String render(Object value) {
        if (value instanceof Long id) {
            return Entity.isWellFormed(id) ? Entity.toString(id) : Long.toString(id);
        }
        if (value instanceof long[] ids) {
            return Arrays.toString(ids);
        }
        return String.valueOf(value);
    }

    private static final long OUT_OF_RANGE_ID = Entity.pack(BadInputFixture.MAX_ENTITIES + 40, 0);
    private static final long MALFORMED_ID = -5L;

    /** Every kind of id that names no entity of the fixture's world. */
    private static List<Bad> badIds(Function<Long, Object> wrap) {
        List<Bad> bads = new ArrayList<>();
        bads.add(new Bad(Kind.DEAD, "dead id", f -> wrap.apply(f.dead), iae(f -> f.dead)));
        bads.add(new Bad(Kind.STALE, "stale id", f -> wrap.apply(f.stale), iae(f -> f.stale)));
        bads.add(new Bad(Kind.FOREIGN, "foreign id", f -> wrap.apply(f.foreignId), iae(f -> f.foreignId)));
        bads.add(new Bad(Kind.OUT_OF_RANGE, "slot beyond maxEntities", f -> wrap.apply(OUT_OF_RANGE_ID),
                iae(f -> OUT_OF_RANGE_ID)));
        bads.add(new Bad(Kind.MALFORMED, "malformed id", f -> wrap.apply(MALFORMED_ID), iae(f -> MALFORMED_ID)));
        return bads;
    }

    private static final Type ID = new Type("id", f -> f.a, badIds(id -> id));

    /** An observer address: 0 (the world) is legal, and so is every live or staged entity. */
    private static final Type ADDRESS = new Type("address", f -> f.a, badIds(id -> id));

    /** A target that reads treat as any id (answers are empty for dead ones). */
    private static final Type TARGET = new Type("target", f -> f.a, badIds(id -> id));

    private static final Type SPAWN_ID;

    static {
        List<Bad> bads = new ArrayList<>();
        bads.add(new Bad(Kind.DUPLICATE, "live id", f -> f.b, iae(f -> Entity.slot(f.b))));
        bads.add(new Bad(Kind.STALE, "stale id of a reused slot", f -> f.stale, iae(f -> Entity.slot(f.stale))));
        bads.add(new Bad(Kind.OUT_OF_RANGE, "slot beyond maxEntities", f -> OUT_OF_RANGE_ID,
                iae(f -> Entity.slot(OUT_OF_RANGE_ID))));
        bads.add(new Bad(Kind.MALFORMED, "malformed id", f -> MALFORMED_ID, iae(f -> MALFORMED_ID)));
        SPAWN_ID = new Type("id", f -> Entity.pack(Entity.slot(f.dead), Entity.generation(f.dead) + 3), bads);
    }

    /** Spawn inputs: every way an input can be unacceptable. */
    private static List<Bad> badInputs(String parameter, boolean keyAllowed) {
        List<Bad> bads = new ArrayList<>();
        bads.add(nullValue(parameter));
        bads.add(new Bad(Kind.WRONG_KIND, "managed definition without a default",
                f -> BadInputFixture.NO_DEFAULT, iae(f -> BadInputFixture.NO_DEFAULT.name())));
        bads.add(new Bad(Kind.WRONG_KIND, "relationship as an input", f -> FOLLOWS, iae(f -> FOLLOWS.name())));
        bads.add(new Bad(Kind.WRONG_KIND, "selector as an input", f -> FOLLOWS.targeting(f.a),
                iae(f -> FOLLOWS.name())));
        bads.add(new Bad(Kind.FOREIGN, "another world's pair", f -> f.foreignPair,
                iae(f -> f.foreignPair.name())));
        for (Bad id : badIds(id -> id)) {
            bads.add(new Bad(id.kind(), "edge to a " + id.label(), f -> CHILD_OF.to((Long) id.value().apply(f)),
                    id.expect()));
        }
        if (keyAllowed) {
            bads.add(new Bad(Kind.DUPLICATE, "key held by another entity", f -> KEY.of(BadInputFixture.KEY_B),
                    iae(f -> BadInputFixture.KEY_B)));
        }
        return bads;
    }

    private static final Type INPUT = new Type("input", f -> LEVEL.of(4), badInputs("input", true));

    /** A bulk value: a key is refused as such (one value cannot be claimed by several entities). */
    private static final Type BATCH_INPUT;

    static {
        List<Bad> bads = new ArrayList<>(badInputs("input", false));
        bads.add(new Bad(Kind.WRONG_KIND, "EntityKey in a bulk call", f -> KEY.of("bulk"), iae(f -> "EntityKey")));
        BATCH_INPUT = new Type("input", f -> LEVEL.of(4), bads);
    }

    private static final Type INPUTS;

    static {
        List<Bad> bads = new ArrayList<>();
        bads.add(nullValue("inputs"));
        for (Bad bad : badInputs("input", true)) {
            bads.add(new Bad(bad.kind(), "[" + bad.label() + "]", f -> new Input[] {LEVEL, (Input) bad.value().apply(f)},
                    bad.expect()));
        }
        INPUTS = new Type("inputs", f -> new Input[] {LEVEL.of(4)}, bads);
    }

    private static final Type INPUT_LIST;

    static {
        List<Bad> bads = new ArrayList<>();
        bads.add(nullValue("inputs"));
        for (Bad bad : badInputs("input", false)) {
            if (bad.label().startsWith("managed definition without a default")) {
                continue; // legal in bulk: no constructor runs, the initializer writes the value
            }
            bads.add(new Bad(bad.kind(), "[" + bad.label() + "]",
                    f -> Arrays.asList(LEVEL, (Input) bad.value().apply(f)), bad.expect()));
        }
        bads.add(new Bad(Kind.WRONG_KIND, "[EntityKey] in a bulk call", f -> List.of(KEY.of("bulk")),
                iae(f -> "EntityKey")));
        INPUT_LIST = new Type("inputs", f -> List.of(LEVEL.of(4)), bads);
    }

    private static final Type COMPONENT = new Type("component", f -> HEALTH, List.of(nullValue("component"),
            new Bad(Kind.FOREIGN, "another world's pair", f -> f.foreignPair, iae(f -> f.foreignPair.name()))));

    /** A component for reads: the same bad values (another world's pair would alias one of this world's). */
    private static final Type READ_COMPONENT = COMPONENT;

    private static final Type EDGE = new Type("edge", f -> FOLLOWS.to(f.a), List.of(nullValue("edge")));

    private static final Type RELATIONSHIP = new Type("relationship", f -> FOLLOWS,
            List.of(nullValue("relationship")));

    /** A relationship for reverse lookups: it must have a reverse index. */
    private static final Type INDEXED_RELATIONSHIP = new Type("relationship", f -> CHILD_OF, List.of(
            nullValue("relationship"),
            new Bad(Kind.WRONG_KIND, "relationship without a reverse index", f -> FOLLOWS,
                    iae(f -> FOLLOWS.name()))));

    private static final Type QUERY = new Type("query", f -> f.tracked, List.of(nullValue("query"),
            new Bad(Kind.FOREIGN, "another world's query", f -> f.foreignQuery,
                    f -> new Throws(IllegalArgumentException.class, "another world"))));

    private static final Type BATCH_COMPONENT = new Type("component", f -> LEVEL, List.of(nullValue("component"),
            new Bad(Kind.WRONG_KIND, "EntityKey in a bulk call", f -> KEY, iae(f -> "EntityKey"))));

    private static Type callback(String name, Object good) {
        return new Type(name, f -> good, List.of(nullValue(name)));
    }

    private static final Type BATCH_CALLBACK = callback("writer", (BatchCallback) (archetype, from, to) -> { });
    private static final Type OPTIONAL_CALLBACK = new Type("initializer", f -> null, List.of());

    private static final Type COUNT = new Type("count", f -> 3, List.of(
            new Bad(Kind.OUT_OF_RANGE, "zero", f -> 0, iae(f -> 0)),
            new Bad(Kind.OUT_OF_RANGE, "negative", f -> -2, iae(f -> -2)),
            new Bad(Kind.OUT_OF_RANGE, "more than maxEntities", f -> BadInputFixture.MAX_ENTITIES * 2,
                    throwing(IllegalStateException.class, Integer.toString(BadInputFixture.MAX_ENTITIES * 2)))));

    private static final Type SPAWN_IDS;

    static {
        List<Bad> bads = new ArrayList<>();
        bads.add(nullValue("ids"));
        bads.add(new Bad(Kind.DUPLICATE, "an id twice", f -> new long[] {free(f, 1), free(f, 1)},
                iae(f -> Entity.toString(free(f, 1)))));
        bads.add(new Bad(Kind.DUPLICATE, "a live id", f -> new long[] {free(f, 1), f.b},
                iae(f -> Entity.slot(f.b))));
        bads.add(new Bad(Kind.OUT_OF_RANGE, "a slot beyond maxEntities", f -> new long[] {free(f, 1),
                OUT_OF_RANGE_ID}, iae(f -> Entity.slot(OUT_OF_RANGE_ID))));
        bads.add(new Bad(Kind.MALFORMED, "a malformed id", f -> new long[] {free(f, 1), MALFORMED_ID},
                iae(f -> MALFORMED_ID)));
        SPAWN_IDS = new Type("ids", f -> new long[] {free(f, 1), free(f, 2)}, bads);
    }

    /** A free slot past every slot the fixture uses. */
    private static long free(BadInputFixture f, int n) {
        return Entity.pack(200 + n, 0);
    }

    private static final Type RAW_COUNT = new Type("count", f -> 2, List.of(
            new Bad(Kind.OUT_OF_RANGE, "negative", f -> -1, iae(f -> -1)),
            new Bad(Kind.OUT_OF_RANGE, "more ids than the segment holds", f -> 3, iae(f -> 3))));

    private static final Type SEGMENT = new Type("ids", f -> segment(free(f, 1), free(f, 2)),
            List.of(nullValue("ids"), new Bad(Kind.DUPLICATE, "an id twice", f -> segment(free(f, 1), free(f, 1)),
                    iae(f -> Entity.toString(free(f, 1)))), new Bad(Kind.DUPLICATE, "a live id",
                    f -> segment(free(f, 1), f.b), iae(f -> Entity.slot(f.b))),
                    new Bad(Kind.MALFORMED, "a malformed id", f -> segment(free(f, 1), MALFORMED_ID),
                    iae(f -> MALFORMED_ID))));

    private static MemorySegment segment(long... ids) {
        return Arena.ofAuto().allocateFrom(java.lang.foreign.ValueLayout.JAVA_LONG, ids);
    }

    private static final Type EVENT_TYPE = new Type("type", f -> OnDespawn.class, List.of(nullValue("type")));
    private static final Type OBSERVER = callback("callback", NOOP_OBSERVER);
    private static final Type OBSERVER_ID = new Type("id", f -> "stress.bad.fresh", List.of(
            new Bad(Kind.DUPLICATE, "an id taken at this address", f -> BadInputFixture.OBSERVER_ID,
                    iae(f -> BadInputFixture.OBSERVER_ID))));
    private static final Type EVENT = new Type("event", f -> "an event", List.of(nullValue("event")));
    private static final Type DEPTH = new Type("maxDepth", f -> 10, List.of(
            new Bad(Kind.OUT_OF_RANGE, "negative", f -> -1, iae(f -> -1))));
    private static final Type DT = new Type("dt", f -> 0.0, List.of(
            new Bad(Kind.OUT_OF_RANGE, "negative", f -> -1.0, iae(f -> "-1.0")),
            new Bad(Kind.OUT_OF_RANGE, "NaN", f -> Double.NaN, iae(f -> "NaN")),
            new Bad(Kind.OUT_OF_RANGE, "infinite", f -> Double.POSITIVE_INFINITY, iae(f -> "Infinity"))));
    private static final Type SECONDS = new Type("seconds", f -> 0.5, List.of(
            new Bad(Kind.OUT_OF_RANGE, "zero", f -> 0.0, iae(f -> "0.0")),
            new Bad(Kind.OUT_OF_RANGE, "negative", f -> -1.0, iae(f -> "-1.0")),
            new Bad(Kind.OUT_OF_RANGE, "NaN", f -> Double.NaN, iae(f -> "NaN")),
            new Bad(Kind.OUT_OF_RANGE, "infinite", f -> Double.POSITIVE_INFINITY, iae(f -> "Infinity"))));
    private static final Type SELECTION = new Type("selection", f -> Phase.of(BadInputFixture.PHASE), List.of(
            nullValue("selection"),
            new Bad(Kind.UNKNOWN, "an unregistered phase", f -> Phase.of("stress.bad.nowhere"),
                    iae(f -> "stress.bad.nowhere"))));
    private static final Type PHASE = new Type("phase", f -> Phase.of(BadInputFixture.PHASE), List.of(
            nullValue("phase"),
            new Bad(Kind.UNKNOWN, "an unregistered phase", f -> Phase.of("stress.bad.nowhere"),
                    iae(f -> "stress.bad.nowhere"))));
    private static final Type PHASE_DEFINITION = new Type("definition",
            f -> PhaseDefinition.leaf("stress.bad.fresh-phase"), List.of(nullValue("definition"),
            new Bad(Kind.DUPLICATE, "a registered phase", f -> PhaseDefinition.leaf(BadInputFixture.PHASE),
                    iae(f -> BadInputFixture.PHASE))));
    private static final Type SYSTEM_CONFIG = new Type("config",
            f -> SystemConfig.named("stress.bad.fresh-system").run((dt, w) -> { }), List.of(nullValue("config"),
            new Bad(Kind.DUPLICATE, "a registered name", f -> SystemConfig.named(BadInputFixture.SYSTEM)
                    .run((dt, w) -> { }), iae(f -> BadInputFixture.SYSTEM)),
            new Bad(Kind.UNKNOWN, "an unregistered phase", f -> SystemConfig.named("stress.bad.lost")
                    .phase(Phase.of("stress.bad.nowhere")).run((dt, w) -> { }), iae(f -> "stress.bad.nowhere"))));
    private static final Type SYSTEM_NAME = new Type("name", f -> BadInputFixture.SYSTEM, List.of(nullValue("name"),
            new Bad(Kind.UNKNOWN, "an unregistered name", f -> "stress.bad.nobody", answers(false))));
    private static final Type STREAM_NAME = new Type("name", f -> "stress.bad.loot", List.of(nullValue("name"),
            new Bad(Kind.OUT_OF_RANGE, "empty", f -> "", iae(f -> "name"))));
    private static final Type NEW_STATE = new Type("name", f -> "stress.bad.fresh-state", List.of(nullValue("name"),
            new Bad(Kind.OUT_OF_RANGE, "blank", f -> " ", iae(f -> "\" \"")),
            new Bad(Kind.DUPLICATE, "a created state", f -> BadInputFixture.STATE, iae(f -> BadInputFixture.STATE))));
    private static final Type POLICY = new Type("policy", f -> StatePolicy.none(), List.of(nullValue("policy")));
    private static final Type PUSHED_STATE = new Type("name", f -> BadInputFixture.IDLE_STATE, List.of(
            nullValue("name"),
            new Bad(Kind.UNKNOWN, "a state never created", f -> "stress.bad.nowhere", iae(f -> "stress.bad.nowhere")),
            new Bad(Kind.DUPLICATE, "a state on the stack", f -> BadInputFixture.STATE,
                    iae(f -> BadInputFixture.STATE))));
    private static final Type NEW_BUNDLE = new Type("name", f -> "stress.bad.fresh-bundle", List.of(
            nullValue("name"),
            new Bad(Kind.OUT_OF_RANGE, "blank", f -> "", iae(f -> "\"\"")),
            new Bad(Kind.DUPLICATE, "a registered bundle", f -> BadInputFixture.BUNDLE,
                    iae(f -> BadInputFixture.BUNDLE))));
    private static final Type BUNDLE_DEFINITION = new Type("definition", f -> BundleDefinition.required(LEVEL),
            List.of(nullValue("definition")));
    private static final Type BUNDLE_NAME = new Type("name", f -> BadInputFixture.BUNDLE, List.of(nullValue("name"),
            new Bad(Kind.UNKNOWN, "no bundle of that name", f -> "stress.bad.nowhere",
                    iae(f -> "stress.bad.nowhere"))));
    private static final Type BUNDLE = new Type("bundle", f -> f.bundle, List.of(nullValue("bundle"),
            new Bad(Kind.FOREIGN, "another world's bundle", f -> f.foreignBundle, iae(f -> BadInputFixture.BUNDLE))));
    /** Inputs of a bundle spawn: the bundle requires Position. */
    private static final Type BUNDLE_INPUTS = new Type("inputs", f -> new Input[] {POSITION}, List.of(
            nullValue("inputs"),
            new Bad(Kind.WRONG_KIND, "[a required component missing]", f -> new Input[] {LEVEL},
                    iae(f -> POSITION.name()))));
    private static final Type KEY_NAME = new Type("key", f -> BadInputFixture.KEY_B, List.of(nullValue("key")));
    // Query.getGroup answers an empty OptionalInt for an archetype it does not match, whatever world it is from
    // (the reference's "nil when unmatched"), so only null is bad input.
    private static final Type ARCHETYPE = new Type("archetype", f -> f.world.archetypeOf(f.a), List.of(
            nullValue("archetype")));
    private static final Type THREAD = new Type("thread", f -> Thread.currentThread(), List.of(nullValue("thread")));
    private static final Type RESOURCE_TYPE = new Type("type", f -> String.class, List.of(nullValue("type"),
            new Bad(Kind.UNKNOWN, "a type with no resource", f -> Integer.class,
                    throwing(NoSuchElementException.class, "java.lang.Integer"))));
    private static final Type VISITOR = callback("visitor", (QueryVisitor) (archetype, count) -> { });
    private static final Type DESCRIPTOR = new Type("descriptor", f -> QueryDescriptor.builder().include(LEVEL).build(),
            List.of(nullValue("descriptor")));
    private static final Type ACTION = callback("action", (Consumer<Object>) value -> { });
    private static final Type LONG_ACTION = callback("action", (LongConsumer) value -> { });
    private static final Type TRAVERSAL = callback("visitor", (TraversalVisitor) (entity, depth) -> { });
    private static final Type ANCESTORS = callback("visitor", (AncestorVisitor) (ancestor, depth) -> true);

    // ---------------------------------------------------------------- the table

    private static final List<Entry> ENTRIES = new ArrayList<>();

    private static Entry entry(String name, Body body, Object... parametersAndTypes) {
        List<String> names = new ArrayList<>();
        List<Type> types = new ArrayList<>();
        for (int i = 0; i < parametersAndTypes.length; i++) {
            Type type = (Type) parametersAndTypes[i];
            names.add(type.name());
            types.add(type);
        }
        Entry entry = new Entry(name, names, types, body, new LinkedHashMap<>());
        ENTRIES.add(entry);
        return entry;
    }

    /** Reads whose contract is a sentinel for ids that name no live entity. */
    private static void sentinelForIds(Entry entry, Object sentinel) {
        for (Kind kind : List.of(Kind.DEAD, Kind.STALE, Kind.FOREIGN, Kind.OUT_OF_RANGE, Kind.MALFORMED)) {
            entry.overrides().put(kind, answers(sentinel));
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void table() {
        // spawning
        entry("spawn(Input...)", (f, a) -> f.world.spawn((Input[]) a[0]), INPUTS);
        entry("spawn(Input)", (f, a) -> f.world.spawn((Input) a[0]), INPUT);
        entry("spawn(Input, Input)", (f, a) -> f.world.spawn((Input) a[0], (Input) a[1]), INPUT, INPUT);
        entry("spawn(Input, Input, Input)", (f, a) -> f.world.spawn((Input) a[0], (Input) a[1], (Input) a[2]),
                INPUT, INPUT, INPUT);
        entry("spawnAt", (f, a) -> {
            f.world.spawnAt((long) a[0], (Input[]) a[1]);
            return null;
        }, SPAWN_ID, INPUTS);
        // single-entity changes
        entry("set", (f, a) -> {
            f.world.set((long) a[0], (Input) a[1]);
            return null;
        }, ID, INPUT);
        entry("remove(Component)", (f, a) -> {
            f.world.remove((long) a[0], (Component<?>) a[1]);
            return null;
        }, ID, COMPONENT);
        entry("remove(RelationshipValue)", (f, a) -> {
            f.world.remove((long) a[0], (RelationshipValue) a[1]);
            return null;
        }, ID, EDGE);
        entry("despawn", (f, a) -> {
            f.world.despawn((long) a[0]);
            return null;
        }, ID);
        entry("markComponentDirty", (f, a) -> {
            f.world.markComponentDirty((long) a[0], (Component<?>) a[1]);
            return null;
        }, ID, READ_COMPONENT);
        // reads
        sentinelForIds(entry("isAlive", (f, a) -> f.world.isAlive((long) a[0]), ID), false);
        sentinelForIds(entry("has", (f, a) -> f.world.has((long) a[0], (Component<?>) a[1]), ID, READ_COMPONENT),
                false);
        sentinelForIds(entry("get", (f, a) -> f.world.get((long) a[0], (Component<?>) a[1]), ID, READ_COMPONENT),
                null);
        sentinelForIds(entry("archetypeOf", (f, a) -> f.world.archetypeOf((long) a[0]), ID), null);
        sentinelForIds(entry("rowOf", (f, a) -> f.world.rowOf((long) a[0]), ID), -1);
        sentinelForIds(entry("getFirstRelationship", (f, a) -> f.world.getFirstRelationship((long) a[0],
                (BaseRelationship) a[1]), ID, RELATIONSHIP), null);
        sentinelForIds(entry("forEachRelationship", (f, a) -> {
            List<Object> seen = new ArrayList<>();
            Consumer<Object> action = (Consumer<Object>) a[2];
            f.world.forEachRelationship((long) a[0], (BaseRelationship) a[1], action == null ? null : value -> {
                seen.add(value);
                action.accept(value);
            });
            return seen;
        }, ID, RELATIONSHIP, ACTION), List.of());
        sentinelForIds(entry("relationshipSources", (f, a) -> Arrays.toString(f.world.relationshipSources(
                (BaseRelationship<?>) a[0], (long) a[1])), INDEXED_RELATIONSHIP, TARGET), "[]");
        sentinelForIds(entry("targets", (f, a) -> {
            List<Long> seen = new ArrayList<>();
            LongConsumer action = (LongConsumer) a[2];
            f.world.targets((long) a[0], (BaseRelationship<?>) a[1], action == null ? null : source -> {
                seen.add(source);
                action.accept(source);
            });
            return seen;
        }, TARGET, INDEXED_RELATIONSHIP, LONG_ACTION), List.of());
        sentinelForIds(entry("traverse", (f, a) -> {
            List<Long> seen = new ArrayList<>();
            TraversalVisitor visitor = (TraversalVisitor) a[2];
            f.world.traverse((long) a[0], (BaseRelationship<?>) a[1], visitor == null ? null : (entity, depth) -> {
                seen.add(entity);
                visitor.visit(entity, depth);
            });
            return seen;
        }, TARGET, INDEXED_RELATIONSHIP, TRAVERSAL), List.of());
        sentinelForIds(entry("walkUp", (f, a) -> {
            List<Long> seen = new ArrayList<>();
            AncestorVisitor visitor = (AncestorVisitor) a[2];
            f.world.walkUp((long) a[0], (BaseRelationship<?>) a[1], visitor == null ? null : (ancestor, depth) -> {
                seen.add(ancestor);
                return visitor.visit(ancestor, depth);
            }, (int) a[3]);
            return seen;
        }, TARGET, RELATIONSHIP, ANCESTORS, DEPTH), List.of());
        entry("findArchetypes", (f, a) -> f.world.findArchetypes((Component<?>) a[0]).size(), READ_COMPONENT);
        entry("forEachArchetype", (f, a) -> {
            f.world.forEachArchetype((Consumer<Archetype>) a[0]);
            return null;
        }, ACTION);
        // bulk paths
        entry("batchSpawn", (f, a) -> f.world.batchSpawn((int) a[0], (List<Input>) a[1], (BatchCallback) a[2])
                .count(), COUNT, INPUT_LIST, OPTIONAL_CALLBACK);
        entry("batchSpawnAt", (f, a) -> {
            f.world.batchSpawnAt((long[]) a[0], (List<Input>) a[1], (BatchCallback) a[2]);
            return null;
        }, SPAWN_IDS, INPUT_LIST, OPTIONAL_CALLBACK);
        entry("batchSpawnAtRaw", (f, a) -> {
            f.world.batchSpawnAtRaw((MemorySegment) a[0], (int) a[1], (List<Input>) a[2], (BatchCallback) a[3]);
            return null;
        }, SEGMENT, RAW_COUNT, INPUT_LIST, OPTIONAL_CALLBACK);
        entry("batchSet(Query, Input)", (f, a) -> {
            f.world.batchSet((Query) a[0], (Input) a[1]);
            return null;
        }, QUERY, BATCH_INPUT);
        entry("batchSet(Query, Component, BatchCallback)", (f, a) -> {
            f.world.batchSet((Query) a[0], (Component<?>) a[1], (BatchCallback) a[2]);
            return null;
        }, QUERY, BATCH_COMPONENT, BATCH_CALLBACK);
        entry("batchRemove(Query, Component)", (f, a) -> {
            f.world.batchRemove((Query) a[0], (Component<?>) a[1]);
            return null;
        }, QUERY, COMPONENT);
        entry("batchRemove(Query, RelationshipValue)", (f, a) -> {
            f.world.batchRemove((Query) a[0], (RelationshipValue) a[1]);
            return null;
        }, QUERY, EDGE);
        entry("batchDespawn", (f, a) -> {
            f.world.batchDespawn((Query) a[0]);
            return null;
        }, QUERY);
        // queries
        entry("newQuery", (f, a) -> f.world.newQuery((QueryDescriptor) a[0]).count(), DESCRIPTOR);
        entry("requireOwnQuery", (f, a) -> {
            f.world.requireOwnQuery((Query) a[0]);
            return null;
        }, QUERY);
        entry("Query.forEach", (f, a) -> {
            f.tracked.forEach((QueryVisitor) a[0]);
            return null;
        }, VISITOR);
        entry("Query.getGroup", (f, a) -> f.tracked.getGroup((Archetype) a[0]), ARCHETYPE);
        // keys
        entry("byKey", (f, a) -> f.world.byKey((String) a[0]), KEY_NAME);
        entry("requireKey", (f, a) -> f.world.requireKey((String) a[0]), new Type("key", f -> BadInputFixture.KEY_B,
                List.of(nullValue("key"), new Bad(Kind.UNKNOWN, "a key nobody holds", f -> "stress.bad.nokey",
                        throwing(NoSuchElementException.class, "stress.bad.nokey")))));
        // events
        entry("observe", (f, a) -> {
            f.world.observe((long) a[0], (Class<Object>) a[1], (Observer<Object>) a[2], (String) a[3]);
            return null;
        }, ADDRESS, EVENT_TYPE, OBSERVER, OBSERVER_ID);
        entry("observeOnce", (f, a) -> {
            f.world.observeOnce((long) a[0], (Class<Object>) a[1], (Observer<Object>) a[2], (String) a[3]);
            return null;
        }, ADDRESS, EVENT_TYPE, OBSERVER, OBSERVER_ID);
        sentinelForIds(entry("stopObserving(callback)", (f, a) -> f.world.stopObserving((long) a[0],
                (Class<Object>) a[1], (Observer<Object>) a[2]), ADDRESS, EVENT_TYPE, OBSERVER), false);
        sentinelForIds(entry("hasObservers", (f, a) -> f.world.hasObservers((long) a[0], (Class<?>) a[1]),
                ADDRESS, EVENT_TYPE), false);
        entry("emit", (f, a) -> {
            f.world.emit((long) a[0], a[1]);
            return null;
        }, ADDRESS, EVENT);
        entry("deliver", (f, a) -> {
            f.world.deliver((long) a[0], (Class<Object>) a[1], a[2]);
            return null;
        }, ADDRESS, new Type("type", f -> String.class, List.of(nullValue("type"),
                new Bad(Kind.WRONG_KIND, "a type the event is not", f -> OnSpawn.class,
                        throwing(ClassCastException.class, OnSpawn.class.getName())))), EVENT);
        // systems and phases
        entry("update", (f, a) -> {
            f.world.update((double) a[0]);
            return null;
        }, DT);
        entry("runPhase", (f, a) -> {
            f.world.runPhase((PhaseSelection) a[0], (double) a[1]);
            return null;
        }, SELECTION, DT);
        entry("addSystem", (f, a) -> f.world.addSystem((SystemConfig) a[0]), SYSTEM_CONFIG);
        entry("removeSystem", (f, a) -> f.world.removeSystem((String) a[0]),
                new Type("name", f -> "stress.bad.nobody", List.of(nullValue("name"))));
        entry("setSystemEnabled", (f, a) -> f.world.setSystemEnabled((String) a[0], true), SYSTEM_NAME);
        entry("registerPhase", (f, a) -> {
            f.world.registerPhase((PhaseDefinition) a[0]);
            return null;
        }, PHASE_DEFINITION);
        entry("enablePhase", (f, a) -> {
            f.world.enablePhase((PhaseSelection) a[0]);
            return null;
        }, SELECTION);
        entry("disablePhase", (f, a) -> {
            f.world.disablePhase((PhaseSelection) a[0]);
            return null;
        }, SELECTION);
        entry("isPhaseEnabled", (f, a) -> f.world.isPhaseEnabled((Phase) a[0]), PHASE);
        entry("setNominalFrameTime", (f, a) -> {
            f.world.setNominalFrameTime((double) a[0]);
            return null;
        }, SECONDS);
        // random, resources, states, bundles, threads
        entry("randomStream", (f, a) -> f.world.randomStream((String) a[0]).nextInt(), STREAM_NAME);
        entry("Resources.get", (f, a) -> f.world.resources().get((Class<?>) a[0]), RESOURCE_TYPE);
        entry("Resources.put", (f, a) -> f.world.resources().put((Class<Object>) a[0], a[1]),
                new Type("type", f -> Long.class, List.of(nullValue("type"))),
                new Type("value", f -> 5L, List.of(nullValue("value"), new Bad(Kind.WRONG_KIND,
                        "a value of another type", f -> "text", throwing(ClassCastException.class, "String")))));
        entry("createState", (f, a) -> f.world.createState((String) a[0], (StatePolicy) a[1]), NEW_STATE, POLICY);
        entry("pushState", (f, a) -> {
            f.world.pushState((String) a[0]);
            return null;
        }, PUSHED_STATE);
        entry("newBundle", (f, a) -> f.world.newBundle((String) a[0], (BundleDefinition) a[1]), NEW_BUNDLE,
                BUNDLE_DEFINITION);
        entry("spawnBundle(String)", (f, a) -> f.world.spawnBundle((String) a[0], (Input[]) a[1]), BUNDLE_NAME,
                BUNDLE_INPUTS);
        entry("spawnBundle(Bundle)", (f, a) -> f.world.spawnBundle((Bundle) a[0], (Input[]) a[1]), BUNDLE,
                BUNDLE_INPUTS);
        entry("Bundle.spawn", (f, a) -> f.bundle.spawn((Input[]) a[0]), BUNDLE_INPUTS);
        entry("transferTo", (f, a) -> {
            f.world.transferTo((Thread) a[0]);
            return null;
        }, THREAD);
        // relationships: edges and selectors name their target at construction
        entry("Relationship.to", (f, a) -> FOLLOWS.to((long) a[0]), new Type("target", f -> f.a, List.of(
                new Bad(Kind.MALFORMED, "malformed id", f -> MALFORMED_ID, iae(f -> MALFORMED_ID)))));
        entry("Relationship.targeting", (f, a) -> FOLLOWS.targeting((long) a[0]), new Type("target", f -> f.a,
                List.of(new Bad(Kind.MALFORMED, "malformed id", f -> MALFORMED_ID, iae(f -> MALFORMED_ID)))));
    }

    static {
        table();
    }

    /** Every case of the table, in table order: entry points, then parameters, then bad values. */
    public static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        for (Entry entry : ENTRIES) {
            for (int p = 0; p < entry.types().size(); p++) {
                for (Bad bad : entry.types().get(p).bads()) {
                    cases.add(caseOf(entry, p, bad));
                }
            }
        }
        return cases;
    }

    private static Case caseOf(Entry entry, int parameter, Bad bad) {
        Call call = fixture -> {
            Object[] args = new Object[entry.types().size()];
            for (int i = 0; i < args.length; i++) {
                args[i] = i == parameter ? bad.value().apply(fixture) : entry.types().get(i).good().apply(fixture);
            }
            return entry.body().invoke(fixture, args);
        };
        Type type = entry.types().get(parameter);
        boolean idParameter = type == ID || type == TARGET || type == ADDRESS;
        Function<BadInputFixture, Expect> expect = idParameter
                ? entry.overrides().getOrDefault(bad.kind(), bad.expect()) : bad.expect();
        return new Case(entry.name(), entry.parameters().get(parameter), bad.kind(), bad.label(), call, expect);
    }

    /** The entry points of the table, by name, in table order. */
    public static List<String> entryPoints() {
        return ENTRIES.stream().map(Entry::name).toList();
    }

    /** The fixture's dumps with no bad call: as built, and after {@code unwind()} published what it staged. */
    public record Golden(String built, String settled) {
        public static Golden of(boolean staged) {
            try (BadInputFixture fixture = new BadInputFixture(staged)) {
                String built = fixture.dump();
                fixture.world.unwind();
                return new Golden(built, fixture.dump());
            }
        }
    }

    /**
     * Runs one case on a fresh fixture and checks everything: the outcome (exception type and message, or
     * sentinel), the whole state right after the call, and the state once {@code unwind()} has published what
     * the fixture staged (so staged work was not disturbed either), and that the world still spawns.
     *
     * @return {@code null} when the case holds, else what went wrong
     */
    public static String check(Case c, boolean staged, Golden golden) {
        try (BadInputFixture fixture = new BadInputFixture(staged)) {
            String before = fixture.dump();
            if (!before.equals(golden.built())) {
                return "the fixture is not deterministic:\n" + lineDiff(golden.built(), before);
            }
            Expect expect = c.expect(fixture);
            Object answer = null;
            Throwable thrown = null;
            try {
                answer = c.call().invoke(fixture);
            } catch (Throwable t) {
                thrown = t;
            }
            String outcome = outcome(expect, answer, thrown);
            if (outcome != null) {
                return outcome;
            }
            String after = fixture.dump();
            if (!after.equals(before)) {
                return "the call changed the world:\n" + lineDiff(before, after);
            }
            fixture.world.unwind();
            String settled = fixture.dump();
            if (!settled.equals(golden.settled())) {
                return "the call disturbed staged work (state after unwind differs):\n"
                        + lineDiff(golden.settled(), settled);
            }
            long id = fixture.world.spawn(LEVEL);
            if (!fixture.world.isAlive(id)) {
                return "the world no longer publishes a spawn";
            }
            return null;
        }
    }

    private static String outcome(Expect expect, Object answer, Throwable thrown) {
        if (expect instanceof Throws t) {
            if (thrown == null) {
                return "expected " + t.type().getSimpleName() + " but the call answered " + renderAnswer(answer);
            }
            if (!t.type().isInstance(thrown)) {
                return "expected " + t.type().getSimpleName() + " but got " + describe(thrown);
            }
            String message = thrown.getMessage();
            if (message == null || message.isBlank()) {
                return "the " + thrown.getClass().getSimpleName() + " has no message";
            }
            if (t.operand() != null && !message.contains(t.operand())) {
                return "the message does not name the operand '" + t.operand() + "': " + message;
            }
            return null;
        }
        Answers a = (Answers) expect;
        if (thrown != null) {
            return "expected the answer " + renderAnswer(a.value()) + " but got " + describe(thrown);
        }
        if (!renderAnswer(a.value()).equals(renderAnswer(answer))) {
            return "expected the answer " + renderAnswer(a.value()) + " but got " + renderAnswer(answer);
        }
        return null;
    }

    private static String describe(Throwable thrown) {
        java.io.StringWriter trace = new java.io.StringWriter();
        thrown.printStackTrace(new java.io.PrintWriter(trace));
        String[] lines = trace.toString().split("\n");
        return String.join("\n", Arrays.copyOf(lines, Math.min(lines.length, 6)));
    }

    /** The lines of {@code after} not in {@code before} (+) and the other way round (-), at most 12. */
    static String lineDiff(String before, String after) {
        List<String> b = List.of(before.split("\n"));
        List<String> a = List.of(after.split("\n"));
        List<String> out = new ArrayList<>();
        b.stream().filter(line -> !a.contains(line)).limit(6).forEach(line -> out.add("- " + line));
        a.stream().filter(line -> !b.contains(line)).limit(6).forEach(line -> out.add("+ " + line));
        return String.join("\n", out);
    }

    /** A readable form of an answer, for comparing sentinels. */
    public static String renderAnswer(Object answer) {
        return answer instanceof long[] ids ? Arrays.toString(ids) : Objects.toString(answer);
    }

    private BadInputs() {}
}
