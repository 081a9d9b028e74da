package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.entity.Entity;
import org.junit.jupiter.api.Test;

class RelationshipDefinitionTest {
    record Spring(float stiffness, long target, int group) {}

    record Bond(long target, String label) {}

    record NoTarget(int target, float k) {}

    static final RelationshipDefinition<Spring> SPRING = Relationships.register(Spring.class);
    static final RelationshipDefinition<Bond> BOND = Relationships.register(Bond.class,
            o -> o.name("test.def.Bond").sparse().exclusive());

    private final long target = Entity.pack(7, 1);

    @Test
    void aRecordOfPrimitivesIsStoredNativelyAndAnyOtherByReference() {
        assertEquals(Spring.class.getCanonicalName(), SPRING.name());
        assertSame(Spring.class, SPRING.payloadType());
        assertEquals(StorageKind.NATIVE, SPRING.payloadStorage());
        assertEquals(java.util.List.of("stiffness", "target", "group"), SPRING.payloadLayout().fieldNames());
        assertEquals(1, SPRING.targetField());
        assertEquals(StorageKind.TAG, SPRING.storage(), "the definition itself is the marker");
        assertEquals("test.def.Bond", BOND.name());
        assertEquals(StorageKind.MANAGED, BOND.payloadStorage());
        assertTrue(BOND.isSparse() && BOND.isExclusive());
        assertSame(SPRING, Relationships.register(Spring.class), "registering again returns the definition");
        assertThrows(IllegalStateException.class, () -> Relationships.register(Spring.class, o -> o.exclusive()));
    }

    @Test
    void edgesTakeTheirTargetFromTheRecord() {
        RelationshipValue edge = SPRING.of(new Spring(2f, target, 3));
        assertEquals(target, edge.target());
        assertEquals(new Spring(2f, target, 3), edge.payload());
        assertSame(SPRING, edge.component());
        assertEquals(new Spring(0f, target, 0), SPRING.to(target).payload(), "other fields zero");
        assertEquals(new Bond(target, null), BOND.to(target).payload());
        assertEquals(new Spring(2f, target, 3), SPRING.edgeValue(target, new Spring(2f, target, 3)));
        assertThrows(IllegalArgumentException.class, () -> SPRING.of(new Spring(1f, 0, 0)), "no such entity");
        assertThrows(IllegalArgumentException.class, () -> new RelationshipValue(SPRING, target, "not a spring"));
        assertThrows(IllegalArgumentException.class, () -> new RelationshipValue(SPRING, target, null));
        assertThrows(UnsupportedOperationException.class, SPRING::newDefault);
    }

    @Test
    void aRecordWithoutALongTargetIsRefusedAndNothingIsRegistered() {
        assertThrows(IllegalArgumentException.class, () -> Relationships.register(NoTarget.class));
        assertNull(Components.findByName(NoTarget.class.getCanonicalName()));
    }

    @Test
    void selectorsGiveColumnHandlesForPayloadFieldsButNeverForTheTarget() {
        TargetSelector<Spring> selector = SPRING.targeting(target);
        assertEquals(StorageKind.NATIVE, selector.storage());
        assertEquals(new Spring(0f, target, 0), selector.newDefault());
        FloatField stiffness = selector.floatField("stiffness");
        assertSame(selector, stiffness.component());
        assertEquals(0, stiffness.field());
        assertEquals(2, selector.intField("group").field());
        assertThrows(IllegalArgumentException.class, () -> selector.longField("target"));
        assertThrows(IllegalArgumentException.class, () -> selector.floatField("group"), "an int field");
        assertThrows(IllegalArgumentException.class, () -> selector.floatField("missing"));
        assertThrows(IllegalArgumentException.class, () -> BOND.targeting(target), "sparse: no selector");
        Relationship tagOnly = Relationships.register("test.def.TagOnly");
        assertThrows(IllegalArgumentException.class, () -> tagOnly.targeting(target).floatField("k"));
    }

    record Leash(long target, float length, String label) {}

    static final RelationshipDefinition<Leash> LEASH = Relationships.register(Leash.class,
            o -> o.name("test.def.Leash").defaults(to -> new Leash(to, 2.5f, "leash to " + Entity.toString(to))));

    @Test
    void defaultFactory() {
        Leash made = LEASH.defaultFactory(target);
        assertEquals(new Leash(target, 2.5f, "leash to " + Entity.toString(target)), made);
        assertEquals(made, LEASH.to(target).payload(), "a bare edge carries the factory's payload");
        assertTrue(LEASH.to(target).payload() != LEASH.to(target).payload(), "built anew for every edge");
        assertEquals(new Spring(0, target, 0), SPRING.defaultFactory(target), "without a factory: zero fields");
        assertEquals(new Leash(target, 0, null), LEASH.toZeroed(target).payload());

        RelationshipDefinition<Bond> wrongTarget = Relationships.register(Bond.class,
                o -> o.name("test.def.WrongTarget").defaults(to -> new Bond(to + 1, "off by one")));
        assertThrows(IllegalStateException.class, () -> wrongTarget.to(target));
        assertThrows(IllegalArgumentException.class, () -> Relationships.register("test.def.TargetOnlyDefaults",
                o -> o.defaults(to -> new Bond(to, "x"))), "a target-only relationship has no payload");
        assertThrows(IllegalStateException.class, () -> Relationships.register(Leash.class,
                o -> o.name("test.def.Leash").defaults(to -> new Leash(to, 1, "other"))), "factories cannot be compared");
    }
}
