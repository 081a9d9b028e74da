package dev.jtecs.stress;

import dev.jtecs.builtin.ChildOf;
import dev.jtecs.builtin.Disabled;
import dev.jtecs.builtin.EntityKey;
import dev.jtecs.builtin.Paused;
import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.Input;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.RelationshipDefinition;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.component.Relationships;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.StorageKind;
import dev.jtecs.component.TagComponent;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The component palette of the model tests: every storage kind and every primitive field type, a native
 * component whose default is not zero, requirement chains (breadth first, first one wins), and the state tags
 * queries filter on, so a random stream exercises every column path.
 */
public final class ModelComponents {
    /**
     * Two floats: the common particle shape. Its {@code y()} accessor is a fault point of {@link FaultRun} (and
     * does nothing outside one), like {@link Velocity#dy()}.
     */
    public record Position(float x, float y) {
        @Override
        public float y() {
            FaultRun.nativeAccessor();
            return y;
        }
    }

    /** Every primitive type once. */
    public record Stats(byte b, boolean flag, short s, char c, int i, long l, float f, double d) {}

    /**
     * Two floats whose registered default is not zero bits (batch spawns start definitions as zeros). Its
     * {@code dy()} accessor is a fault point of {@link FaultRun} (and does nothing outside one): the engine calls it
     * for every value it writes into the columns.
     */
    public record Velocity(float dx, float dy) {
        @Override
        public float dy() {
            FaultRun.nativeAccessor();
            return dy;
        }
    }

    /** A managed value with reference fields. */
    public record Label(String text, List<String> tags) {}

    /** A dense edge's payload of primitives only: stored natively, one column per field of each pair. */
    public record Spring(long target, float stiffness, int coils) {}

    /** A sparse edge's payload: kept in the edge store beside its target. */
    public record Loan(long target, int amount) {}

    public static final NativeComponent<Position> POSITION =
            Components.registerNative(Position.class, o -> o.name("stress.Position"));
    public static final NativeComponent<Stats> STATS =
            Components.registerNative(Stats.class, o -> o.name("stress.Stats"));
    public static final NativeComponent<Velocity> VELOCITY = Components.registerNative(Velocity.class,
            o -> o.name("stress.Velocity").defaults(() -> new Velocity(1f, -1f)));
    /** A managed value whose list needs a custom snapshot codec (the automatic one takes flat records only). */
    public static final ManagedComponent<Label> LABEL = Components.registerManaged(Label.class,
            o -> o.name("stress.Label").save(ModelComponents::saveLabel).load(ModelComponents::loadLabel));

    private static Object saveLabel(Label label) {
        java.util.Map<String, Object> saved = new java.util.LinkedHashMap<>();
        saved.put("text", label.text());
        saved.put("tags", label.tags());
        return saved;
    }

    private static Label loadLabel(Object saved) {
        java.util.Map<?, ?> map = (java.util.Map<?, ?>) saved;
        List<?> tags = (List<?>) map.get("tags");
        return new Label((String) map.get("text"), tags == null ? null
                : tags.stream().map(String.class::cast).toList());
    }
    public static final TagComponent MARKED = Components.tag("stress.Marked");
    public static final ScalarComponent.OfDouble HEALTH = Components.scalar("stress.Health", 100.0);
    public static final ScalarComponent.OfString NAME = Components.scalar("stress.Name", "nobody");
    public static final ScalarComponent.OfInt LEVEL = Components.scalar("stress.Level", 1);
    public static final ScalarComponent.OfLong SCORE = Components.scalar("stress.Score", 0L);
    public static final ScalarComponent.OfBoolean ACTIVE = Components.scalar("stress.Active", true);
    /** Requires a {@code Velocity} (its default) and {@code Level 5}. */
    public static final TagComponent MOVER =
            Components.tag("stress.Mover", o -> o.requires(VELOCITY, LEVEL.of(5)));
    /**
     * Requires {@code Mover}, {@code Health 150}, {@code Level 9} and a default {@code Label}: breadth first,
     * its own {@code Level 9} is met before {@code Mover}'s {@code Level 5}.
     */
    public static final TagComponent ELITE = Components.tag("stress.Elite",
            o -> o.requires(MOVER, HEALTH.of(150.0), LEVEL.of(9), LABEL));
    /** Left out of every query that does not name it. */
    public static final TagComponent DISABLED = Disabled.COMPONENT;
    /** Left out of logic queries that do not name it. */
    public static final TagComponent PAUSED = Paused.COMPONENT;

    /** The key: not in {@link #ALL}, since keys enter only through restoration batches and leave by despawn. */
    public static final ScalarComponent.OfString KEY = EntityKey.COMPONENT;
    /** Requires {@code EntityKey}: legal only in a restoration batch, rejected by every other bulk call. */
    public static final TagComponent KEYED = Components.tag("stress.Keyed", o -> o.requires(KEY));

    /** A plain relationship (many edges, no reverse index) that requires {@code Marked} and {@code Level 3}. */
    public static final Relationship FOLLOWS =
            Relationships.register("stress.Follows", o -> o.requires(MARKED, LEVEL.of(3)));
    /** An exclusive relationship with a reverse index: one edge per entity, the last one set. */
    public static final Relationship LEADS =
            Relationships.register("stress.Leads", o -> o.exclusive().reverseIndex());
    /**
     * A dense hierarchy: exclusive, reverse-indexed, and despawning a parent despawns its subtree, with one
     * archetype per parent. It is what the builtin {@link ChildOf} was until it became sparse (issue 21); the
     * builtin has {@link #HELD_BY}'s options, so the model covers both storages of a cascading hierarchy.
     */
    public static final Relationship CHILD_OF = Relationships.register("stress.DenseChildOf",
            o -> o.exclusive().reverseIndex().cascadeDelete());
    /** A dense payload relationship, natively stored, reverse-indexed: setting a held target replaces its payload. */
    public static final RelationshipDefinition<Spring> SPRING =
            Relationships.register(Spring.class, o -> o.name("stress.Spring").reverseIndex());
    /** A sparse relationship, many edges, reverse-indexed: its edges keep a dead target's id. */
    public static final Relationship WATCHES =
            Relationships.register("stress.Watches", o -> o.sparse().reverseIndex());
    /** A sparse hierarchy: exclusive, reverse-indexed and cascading, with the builtin {@code ChildOf}'s options. */
    public static final Relationship HELD_BY = Relationships.register("stress.HeldBy",
            o -> o.sparse().exclusive().reverseIndex().cascadeDelete());
    /** A sparse payload relationship, many edges, reverse-indexed. */
    public static final RelationshipDefinition<Loan> LOAN =
            Relationships.register(Loan.class, o -> o.name("stress.Loan").sparse().reverseIndex());
    /** The relationships stored in signatures, in a fixed order. */
    public static final List<BaseRelationship<?>> DENSE = List.of(FOLLOWS, LEADS, CHILD_OF, SPRING);
    /** The relationships of the model, in a fixed order (not in {@link #ALL}: edges need a target). */
    public static final List<BaseRelationship<?>> RELATIONSHIPS =
            List.of(FOLLOWS, LEADS, CHILD_OF, SPRING, WATCHES, HELD_BY, LOAN);
    /** The relationships kept beside the archetypes, in a fixed order: a world of these alone holds no pair. */
    public static final List<BaseRelationship<?>> SPARSE = List.of(WATCHES, HELD_BY, LOAN);

    /** The variants of the model's multi-variant partition dimension (never in the palette: setTag moves them). */
    public static final TagComponent CALM = Components.tag("stress.Calm");
    public static final TagComponent ALERT = Components.tag("stress.Alert");
    public static final TagComponent PANIC = Components.tag("stress.Panic");
    /** The tag of the model's presence dimension. */
    public static final TagComponent FLAGGED = Components.tag("stress.Flagged");
    public static final dev.jtecs.mutation.PartitionDimension MOOD =
            dev.jtecs.mutation.PartitionDimension.variants("stress.mood", CALM, ALERT, PANIC);
    public static final dev.jtecs.mutation.PartitionDimension FLAG =
            dev.jtecs.mutation.PartitionDimension.presence("stress.flag", FLAGGED);
    /** Every partition tag, in a fixed order. */
    public static final List<TagComponent> PARTITION_TAGS = List.of(CALM, ALERT, PANIC, FLAGGED);

    /** The dimension of one of {@link #PARTITION_TAGS}. */
    public static dev.jtecs.mutation.PartitionDimension dimensionOf(TagComponent tag) {
        return tag == FLAGGED ? FLAG : MOOD;
    }

    /** Every palette component, in a fixed order. */
    public static final List<Component<?>> ALL = List.of(POSITION, STATS, VELOCITY, LABEL, MARKED, HEALTH, NAME,
            LEVEL, SCORE, ACTIVE, MOVER, ELITE, DISABLED, PAUSED);
    /** What comparisons read: the palette, the key, the tag that requires it and the relationship markers. */
    public static final List<Component<?>> COMPARED;

    static {
        List<Component<?>> compared = new java.util.ArrayList<>(ALL);
        compared.add(KEY);
        compared.add(KEYED);
        compared.addAll(RELATIONSHIPS);
        compared.addAll(PARTITION_TAGS);
        COMPARED = List.copyOf(compared);
    }

    private ModelComponents() {}

    /**
     * An edge of a relationship to {@code target}: a payload relationship's carries a random record, or, one time
     * in four, the zero payload of {@code to(target)}.
     */
    public static RelationshipValue edge(BaseRelationship<?> relationship, long target, SplittableRandom random) {
        if (relationship == SPRING && random.nextInt(4) != 0) {
            return SPRING.of(new Spring(target, random.nextInt(8) / 2f, random.nextInt(4)));
        }
        if (relationship == LOAN && random.nextInt(4) != 0) {
            return LOAN.of(new Loan(target, random.nextInt(1, 6)));
        }
        return relationship instanceof Relationship plain ? plain.to(target)
                : ((RelationshipDefinition<?>) relationship).to(target);
    }

    /** A random input for a component: its definition (default value) one time in four, else a fresh value. */
    public static Input randomInput(Component<?> component, SplittableRandom random) {
        if (random.nextInt(4) == 0 || component instanceof TagComponent) {
            return component;
        }
        if (component == POSITION) {
            return POSITION.of(new Position(random.nextInt(-1000, 1000) / 4f, random.nextInt(-1000, 1000) / 8f));
        }
        if (component == STATS) {
            return STATS.of(new Stats((byte) random.nextInt(256), random.nextBoolean(), (short) random.nextInt(),
                    (char) random.nextInt(65536), random.nextInt(), random.nextLong(), random.nextInt(1000) / 3f,
                    random.nextInt(1000) / 7.0));
        }
        if (component == VELOCITY) {
            return VELOCITY.of(new Velocity(random.nextInt(-100, 100) / 2f, random.nextInt(-100, 100) / 4f));
        }
        if (component == LABEL) {
            return LABEL.of(new Label("label-" + random.nextInt(100), List.of("t" + random.nextInt(5))));
        }
        if (component == HEALTH) {
            return HEALTH.of(random.nextInt(0, 200) / 2.0);
        }
        if (component == NAME) {
            return NAME.of("name-" + random.nextInt(50));
        }
        if (component == LEVEL) {
            return LEVEL.of(random.nextInt(-5, 100));
        }
        if (component == SCORE) {
            return SCORE.of(random.nextLong());
        }
        return ACTIVE.of(random.nextBoolean());
    }

    /**
     * The value a component named by its definition starts with where no constructor runs (a batch spawn's
     * explicit definition, a component a batch writer adds): zero bits for a native record, the default for a
     * scalar, empty ({@code null}) for a managed value, present for a tag.
     */
    public static Object uninitialized(Component<?> component) {
        if (component.storage() == StorageKind.NATIVE) {
            return zeroBits(component);
        }
        if (component.storage() == StorageKind.MANAGED) {
            return null;
        }
        return component.newDefault();
    }

    private static Object zeroBits(Component<?> component) {
        if (component == POSITION) {
            return new Position(0f, 0f);
        }
        if (component == STATS) {
            return new Stats((byte) 0, false, (short) 0, (char) 0, 0, 0L, 0f, 0.0);
        }
        if (component == VELOCITY) {
            return new Velocity(0f, 0f);
        }
        throw new IllegalArgumentException("not a native palette component: " + component.name());
    }
}
