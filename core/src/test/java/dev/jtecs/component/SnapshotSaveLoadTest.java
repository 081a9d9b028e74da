package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.world.World;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code snapshotSave} and {@code snapshotLoad} of every value definition: the custom codec when one is
 * registered (world-aware ones get the world), the automatic one otherwise, each the inverse of the other.
 */
class SnapshotSaveLoadTest {
    record Body(float x, double mass, long tick, boolean awake, byte tier, short rank, char code, int hull) {}

    record Crate(int size) {}

    enum Kind { SMALL, LARGE }

    record Label(String text, Kind kind, Integer weight) {}

    record Bag(List<String> items) {}

    record Spring(long target, float stiffness) {}

    record Lease(long target, String holder) {}

    static final NativeComponent<Body> BODY = Components.registerNative(Body.class, o -> o.name("codec.Body"));
    /** A custom codec on a native component: a string. */
    static final NativeComponent<Crate> CRATE = Components.registerNative(Crate.class, o -> o.name("codec.Crate")
            .save(crate -> "crate:" + crate.size())
            .load(saved -> new Crate(Integer.parseInt(((String) saved).substring(6)))));
    static final ManagedComponent<Label> LABEL = Components.registerManaged(Label.class, o -> o.name("codec.Label"));
    /** No automatic form: a list inside a record. */
    static final ManagedComponent<Bag> BAG = Components.registerManaged(Bag.class, o -> o.name("codec.Bag"));
    /** A custom codec that returns what no snapshot can hold. */
    static final ManagedComponent<Bag> BAD_BAG = Components.registerManaged(Bag.class, o -> o.name("codec.BadBag")
            .save(bag -> new Object()).load(saved -> new Bag(List.of())));
    static final ScalarComponent.OfDouble HEALTH = Components.scalar("codec.Health", 1.0);
    static final ScalarComponent.OfLong TICKS = Components.scalar("codec.Ticks", 0L);
    static final ScalarComponent.OfString NAME = Components.scalar("codec.Name", "");
    @SuppressWarnings("unchecked")
    static final ScalarComponent.OfInt LEVEL = Components.scalar("codec.Level", 0,
            o -> ((ComponentOptions<Integer>) o).save(level -> "L" + level).deserialize(World.class,
                    (world, saved) -> Integer.parseInt(((String) saved).substring(1)) + world.entityCount()));
    static final RelationshipDefinition<Spring> SPRING = Relationships.register(Spring.class,
            o -> o.name("codec.Spring"));
    /** A sparse managed payload with a custom codec that names its target and holder. */
    static final RelationshipDefinition<Lease> LEASE = Relationships.register(Lease.class, o -> o.name("codec.Lease")
            .sparse().save(edge -> List.of(Long.toString(((Lease) edge).target()), ((Lease) edge).holder()))
            .load(saved -> new Lease(Long.parseLong((String) ((List<?>) saved).get(0)),
                    (String) ((List<?>) saved).get(1))));

    @Test
    void aNativeValueSavesAsAMapOfItsFieldsAndLoadsBack() {
        Body body = new Body(1.5f, Double.NaN, Long.MIN_VALUE, true, (byte) -3, (short) 7, 'x', 9);
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("x", 1.5f);
        expected.put("mass", "NaN");
        expected.put("tick", "-9223372036854775808");
        expected.put("awake", true);
        expected.put("tier", -3);
        expected.put("rank", 7);
        expected.put("code", (int) 'x');
        expected.put("hull", 9);
        Object saved = BODY.snapshotSave(body);
        assertEquals(expected, saved);
        assertEquals(List.copyOf(expected.keySet()), List.copyOf(((Map<?, ?>) saved).keySet()), "declaration order");
        assertEquals(body, BODY.snapshotLoad(saved, null));
        assertEquals(new Body(2f, 0, 0, false, (byte) 0, (short) 0, '\0', 0),
                BODY.snapshotLoad(Map.of("x", 2.0), null), "a field the map lacks takes zero");
        IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class,
                () -> BODY.snapshotLoad(Map.of("tick", "soon"), null));
        assertTrue(wrong.getMessage().contains("snapshotLoad(codec.Body).tick: 'soon' is not a decimal integer"),
                wrong.getMessage());
        assertThrows(IllegalArgumentException.class, () -> BODY.snapshotLoad("a body", null));
    }

    @Test
    void aCustomCodecReplacesTheAutomaticOneInBothDirections() {
        assertEquals("crate:12", CRATE.snapshotSave(new Crate(12)));
        assertEquals(new Crate(12), CRATE.snapshotLoad("crate:12", null));
        assertThrows(NumberFormatException.class, () -> CRATE.snapshotLoad("crate:twelve", null),
                "the codec's own refusal comes through");
        IllegalArgumentException notATree = assertThrows(IllegalArgumentException.class,
                () -> BAD_BAG.snapshotSave(new Bag(List.of("a"))));
        assertTrue(notATree.getMessage().contains("snapshotSave(codec.BadBag)"), notATree.getMessage());
    }

    @Test
    void aManagedValueUsesTheAutomaticFormOrSaysWhyItCannot() {
        Label label = new Label("gold", Kind.LARGE, null);
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("text", "gold");
        expected.put("kind", "LARGE");
        expected.put("weight", null);
        assertEquals(expected, LABEL.snapshotSave(label));
        assertEquals(label, LABEL.snapshotLoad(expected, null));
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> LABEL.snapshotLoad(Map.of("kind", "HUGE"), null));
        assertTrue(unknown.getMessage().contains("'HUGE' is not a constant of"), unknown.getMessage());
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> BAG.snapshotSave(new Bag(List.of("rope"))));
        assertTrue(refused.getMessage().contains("the automatic codec cannot encode")
                && refused.getMessage().contains("register save/load codecs"), refused.getMessage());
    }

    @Test
    void aScalarSavesAsItsValueAndAWorldAwareCodecGetsTheWorld() {
        assertEquals(2.5, HEALTH.snapshotSave(2.5));
        assertEquals("-Infinity", HEALTH.snapshotSave(Double.NEGATIVE_INFINITY));
        assertEquals(Double.NEGATIVE_INFINITY, HEALTH.snapshotLoad("-Infinity", null));
        assertEquals("123", TICKS.snapshotSave(123L), "a long is an exact decimal string");
        assertEquals(123L, TICKS.snapshotLoad("123", null));
        assertEquals(123L, TICKS.snapshotLoad(123, null));
        assertEquals("ä", NAME.snapshotSave("ä"));
        assertEquals("ä", NAME.snapshotLoad("ä", null));
        IllegalArgumentException nothing = assertThrows(IllegalArgumentException.class,
                () -> HEALTH.snapshotLoad(null, null));
        assertTrue(nothing.getMessage().contains("snapshotLoad(codec.Health)"), nothing.getMessage());
        assertEquals("L4", LEVEL.snapshotSave(4));
        try (World world = World.create()) {
            world.spawn();
            world.spawn();
            assertEquals(6, LEVEL.snapshotLoad("L4", world), "deserialize saw a world of two entities");
            IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
                    () -> LEVEL.snapshotLoad("L4", "not a world"));
            assertTrue(other.getMessage().contains("deserialize expects a " + World.class.getName()),
                    other.getMessage());
        }
    }

    @Test
    void aRelationshipPayloadSavesWithItsTarget() {
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("target", "42");
        expected.put("stiffness", 0.5f);
        assertEquals(expected, SPRING.snapshotSave(new Spring(42, 0.5f)));
        assertEquals(new Spring(42, 0.5f), SPRING.snapshotLoad(expected, null));
        assertEquals(List.of("7", "ann"), LEASE.snapshotSave(new Lease(7, "ann")));
        assertEquals(new Lease(7, "ann"), LEASE.snapshotLoad(List.of("7", "ann"), null));
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void aValueOfAnotherTypeIsRefused() {
        NativeComponent raw = BODY;
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> raw.snapshotSave(new Crate(1)));
        assertTrue(refused.getMessage().contains("is not a " + Body.class.getName()), refused.getMessage());
        assertThrows(NullPointerException.class, () -> BODY.snapshotSave(null));
    }
}
