package dev.jtecs.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.ChildOf;
import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.ComponentValue;
import dev.jtecs.component.Components;
import dev.jtecs.component.Input;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.RelationshipDefinition;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.component.Relationships;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The definition value: what it accepts, what it refuses, and how its defaults resolve. */
class BundleDefinitionTest {
    record Speed(float x, float y) {}

    record Bag(List<String> items) {}

    static final class Opaque {
        Opaque(int seed) {} // no no-argument constructor: the component has no default
    }

    record Tether(long target, float length) {}

    static final NativeComponent<Speed> SPEED = Components.registerNative(Speed.class);
    static final ManagedComponent<Bag> BAG = Components.registerManaged(Bag.class);
    static final ManagedComponent<Opaque> OPAQUE = Components.registerManaged(Opaque.class);
    static final ScalarComponent.OfInt HP = Components.scalar("test.bundledef.Hp", 10);
    static final TagComponent MOB = Components.tag("test.bundledef.Mob");
    static final RelationshipDefinition<Tether> TETHER = Relationships.register(Tether.class);
    /** Dense, so it has selectors (the builtin ChildOf is sparse and has none). */
    static final dev.jtecs.component.Relationship ANCHORED = Relationships.register("test.bundledef.Anchored");

    @Test
    void methodsReturnChangedCopiesInNamingOrder() {
        BundleDefinition base = BundleDefinition.required(SPEED);
        BundleDefinition more = base.with(HP.of(5), MOB).andRequired(BAG).with(OPAQUE, () -> new Opaque(1));
        assertEquals(List.of(SPEED), base.requiredComponents());
        assertEquals(List.of(), base.defaultedComponents());
        assertEquals(List.of(SPEED, BAG), more.requiredComponents());
        assertEquals(List.of(HP, MOB, OPAQUE), more.defaultedComponents());
        assertEquals(List.of(), BundleDefinition.empty().requiredComponents());
        assertEquals("BundleDefinition[required=[" + SPEED.name() + ", " + BAG.name() + "] defaulted=[test.bundledef.Hp, "
                + "test.bundledef.Mob, " + OPAQUE.name() + "]]", more.toString());
    }

    @Test
    void aComponentAppearsOnceWhetherRequiredOrDefaulted() {
        BundleDefinition definition = BundleDefinition.required(SPEED).with(HP);
        IllegalArgumentException twiceRequired = assertThrows(IllegalArgumentException.class,
                () -> definition.andRequired(SPEED));
        assertTrue(twiceRequired.getMessage().startsWith("component " + SPEED.name() + " is already required"),
                twiceRequired.getMessage());
        IllegalArgumentException defaultOfRequired = assertThrows(IllegalArgumentException.class,
                () -> definition.with(SPEED.of(new Speed(1, 1))));
        assertTrue(defaultOfRequired.getMessage().contains("is already required"), defaultOfRequired.getMessage());
        IllegalArgumentException requiredOfDefault = assertThrows(IllegalArgumentException.class,
                () -> definition.andRequired(HP));
        assertTrue(requiredOfDefault.getMessage().contains("already has a default"), requiredOfDefault.getMessage());
        assertThrows(IllegalArgumentException.class, () -> definition.with(HP, () -> 3));
        IllegalArgumentException inOneCall = assertThrows(IllegalArgumentException.class,
                () -> BundleDefinition.empty().with(MOB, MOB));
        assertEquals("component test.bundledef.Mob is named twice in one with(...)", inOneCall.getMessage());
        IllegalArgumentException twiceInOneCall = assertThrows(IllegalArgumentException.class,
                () -> BundleDefinition.required(BAG, BAG));
        assertEquals("component " + BAG.name() + " is named twice in one required(...)", twiceInOneCall.getMessage());
        assertEquals(List.of(SPEED), definition.requiredComponents(), "refusals change nothing");
        assertEquals(List.of(HP), definition.defaultedComponents());
    }

    @Test
    void defaultsThatCannotBeSharedOrHaveNoValueAreRefused() {
        IllegalArgumentException bare = assertThrows(IllegalArgumentException.class,
                () -> BundleDefinition.empty().with(ChildOf.COMPONENT));
        assertTrue(bare.getMessage().startsWith("relationship ChildOf has no target to default to"), bare.getMessage());
        IllegalArgumentException noDefault = assertThrows(IllegalArgumentException.class,
                () -> BundleDefinition.empty().with(OPAQUE));
        assertTrue(noDefault.getMessage().contains("has no default value"), noDefault.getMessage());
        IllegalArgumentException sharedKey = assertThrows(IllegalArgumentException.class,
                () -> BundleDefinition.empty().with(EntityKey.COMPONENT.of("boss")));
        assertTrue(sharedKey.getMessage().startsWith("an EntityKey default would give every entity the same key"),
                sharedKey.getMessage());
        int[] next = {0};
        BundleDefinition keyed = BundleDefinition.empty().with(EntityKey.COMPONENT, () -> "mob-" + next[0]++);
        assertEquals(List.of(EntityKey.COMPONENT), keyed.defaultedComponents(), "a key factory is fine");
        BundleDefinition.required(EntityKey.COMPONENT); // and so is requiring a key
    }

    @Test
    void selectorsAreQueryTermsNotBundleComponents() {
        IllegalArgumentException required = assertThrows(IllegalArgumentException.class,
                () -> BundleDefinition.required(ANCHORED.targeting(Entity.pack(1, 0))));
        assertTrue(required.getMessage().startsWith("selector "), required.getMessage());
        assertTrue(required.getMessage().contains("name the relationship test.bundledef.Anchored"),
                required.getMessage());
        assertThrows(IllegalArgumentException.class, () -> BundleDefinition.empty()
                .with(ANCHORED.targeting(Entity.pack(1, 0)), () -> null));
        BundleDefinition.required(ANCHORED); // the relationship itself may be required
        BundleDefinition.required(ChildOf.COMPONENT); // and so may the builtin sparse one
    }

    @Test
    void nullsAreRefused() {
        assertThrows(NullPointerException.class, () -> BundleDefinition.required((dev.jtecs.component.Component<?>) null));
        assertThrows(NullPointerException.class, () -> BundleDefinition.empty().with((Input) null));
        assertThrows(NullPointerException.class, () -> BundleDefinition.empty().with(HP, null));
        assertThrows(NullPointerException.class, () -> BundleDefinition.empty().with(null, () -> 1));
    }

    @Test
    void aSharedDefaultResolvesToTheSameInputAndAFactoryToAFreshOne() {
        Input shared = BAG.of(new Bag(List.of("rope")));
        BundleDefinition definition = BundleDefinition.empty().with(shared).with(SPEED, () -> new Speed(2, 3));
        BundleDefinition.Default sharedDefault = definition.defaults().get(0);
        assertSame(shared, sharedDefault.resolve("b"));
        assertSame(shared, sharedDefault.resolve("b"));
        Input made = definition.defaults().get(1).resolve("b");
        assertEquals(new ComponentValue<>(SPEED, new Speed(2, 3)), made);
    }

    @Test
    void factoryValuesBecomeTheRightKindOfInput() {
        long target = Entity.pack(5, 0);
        Input edge = BundleDefinition.inputOf("b", ChildOf.COMPONENT, ChildOf.COMPONENT.to(target));
        assertEquals(ChildOf.COMPONENT.to(target), edge);
        Input payload = BundleDefinition.inputOf("b", TETHER, new Tether(target, 2f));
        assertEquals(new RelationshipValue(TETHER, target, new Tether(target, 2f)), payload);
        assertInstanceOf(ComponentValue.class, BundleDefinition.inputOf("b", HP, 4));
        IllegalStateException wrongEdge = assertThrows(IllegalStateException.class,
                () -> BundleDefinition.inputOf("b", ChildOf.COMPONENT, "parent"));
        assertTrue(wrongEdge.getMessage().startsWith("bundle 'b': the factory of ChildOf must return an edge"),
                wrongEdge.getMessage());
        BundleDefinition.Default nothing =
                BundleDefinition.empty().with(HP, () -> null).defaults().get(0);
        IllegalStateException nullValue = assertThrows(IllegalStateException.class, () -> nothing.resolve("b"));
        assertEquals("bundle 'b': the factory of test.bundledef.Hp returned null", nullValue.getMessage());
    }
}
