package dev.jtecs.snapshot.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.PrimitiveKind;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.RelationshipDefinition;
import dev.jtecs.component.Relationships;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.snapshot.SnapshotComponentEntry;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The component table's view of each kind of definition: its kind name, the layout its values are saved with,
 * its codec, whether the binary form copies its columns raw, and why the automatic codec refuses it.
 */
class SchemaTest {
    record Point(float x, int y) {}

    record Named(long target, String name) {}

    record Link(long target, float weight) {}

    /** A list inside a record: the automatic codec cannot take it. */
    record Crate(List<String> items) {}

    record CrateEdge(long target, List<String> items) {}

    static final NativeComponent<Point> POINT = Components.registerNative(Point.class, o -> o.name("schema.Point"));
    static final NativeComponent<Point> CODED = Components.registerNative(Point.class, o -> o.name("schema.Coded")
            .save(p -> p.x() + "," + p.y()).load(s -> new Point(0, 0)));
    static final ScalarComponent.OfInt COUNT = Components.scalar("schema.Count", 0);
    static final ScalarComponent.OfString TEXT = Components.scalar("schema.Text", "");
    static final ManagedComponent<Named> LABEL = Components.registerManaged(Named.class, o -> o.name("schema.Label"));
    static final ManagedComponent<Crate> CRATE = Components.registerManaged(Crate.class, o -> o.name("schema.Crate"));
    static final ManagedComponent<Crate> CODED_CRATE = Components.registerManaged(Crate.class,
            o -> o.name("schema.CodedCrate").save(c -> c.items()).load(s -> new Crate(List.of())));
    static final TagComponent MARK = Components.tag("schema.Mark");
    static final Relationship LIKES = Relationships.register("schema.Likes");
    static final Relationship SEES = Relationships.register("schema.Sees", o -> o.sparse());
    static final RelationshipDefinition<Link> LINK = Relationships.register(Link.class, o -> o.name("schema.Link"));
    static final RelationshipDefinition<Link> SPARSE_LINK = Relationships.register(Link.class,
            o -> o.name("schema.SparseLink").sparse());
    static final RelationshipDefinition<Link> CODED_LINK = Relationships.register(Link.class,
            o -> o.name("schema.CodedLink").save(l -> "l").load(s -> new Link(0, 0)));
    static final RelationshipDefinition<Named> NAMED = Relationships.register(Named.class, o -> o.name("schema.Named"));
    static final RelationshipDefinition<Named> SPARSE_NAMED = Relationships.register(Named.class,
            o -> o.name("schema.SparseNamed").sparse());
    static final RelationshipDefinition<CrateEdge> CRATE_EDGE = Relationships.register(CrateEdge.class,
            o -> o.name("schema.CrateEdge"));

    @Test
    void everyDefinitionNamesItsKind() {
        assertEquals("native", Schema.kind(POINT));
        assertEquals("native", Schema.kind(CODED));
        assertEquals("scalar", Schema.kind(COUNT));
        assertEquals("scalar", Schema.kind(TEXT));
        assertEquals("managed", Schema.kind(LABEL));
        assertEquals("tag", Schema.kind(MARK));
        assertEquals("relationship", Schema.kind(LIKES));
        assertEquals("sparse-relationship", Schema.kind(SEES));
        assertEquals("relationship+native", Schema.kind(LINK));
        assertEquals("sparse-relationship+native", Schema.kind(SPARSE_LINK));
        assertEquals("relationship+managed", Schema.kind(NAMED));
        assertEquals("sparse-relationship+managed", Schema.kind(SPARSE_NAMED));
    }

    @Test
    void valuesAreSavedWithTheComponentsLayoutOrTheEdgesPayloadLayout() {
        assertEquals(List.of("x", "y"), Schema.layout(POINT).fieldNames());
        assertEquals(List.of("weight"), Schema.layout(LINK).fieldNames().subList(
                Schema.layout(LINK).fieldNames().size() - 1, Schema.layout(LINK).fieldNames().size()));
        assertSame(LINK.edgeLayout(), Schema.layout(LINK));
        assertSame(COUNT.layout(), Schema.layout(COUNT));
        assertTrue(Schema.layout(LIKES).fieldNames().isEmpty(), "a target-only relationship stores nothing");
    }

    @Test
    void theCodecIsTheCustomOneOrNone() {
        assertNull(Schema.codec(POINT));
        assertNotNull(Schema.codec(CODED));
        assertEquals("1.5,2", Schema.codec(CODED).save(new Point(1.5f, 2)));
        assertEquals("l", Schema.codec(CODED_LINK).save(new Link(1, 1)));
        assertNull(Schema.codec(LINK));
    }

    @Test
    void onlyNativeColumnsWithoutACustomCodecAndDenseNativePayloadsAreCopiedRaw() {
        assertTrue(Schema.raw(POINT));
        assertTrue(Schema.raw(COUNT), "a numeric scalar");
        assertTrue(Schema.raw(LINK), "a dense native payload");
        assertFalse(Schema.raw(CODED), "its codec must run");
        assertFalse(Schema.raw(CODED_LINK), "its codec must run");
        assertFalse(Schema.raw(TEXT), "a string scalar lives in a heap column");
        assertFalse(Schema.raw(LABEL));
        assertFalse(Schema.raw(MARK));
        assertFalse(Schema.raw(LIKES), "no payload");
        assertFalse(Schema.raw(SPARSE_LINK), "sparse payloads live in the edge store");
        assertFalse(Schema.raw(NAMED), "a managed payload");
    }

    @Test
    void managedValuesTheAutomaticCodecCannotTakeAreRefusedUnlessACodecTakesThem() {
        assertNull(Schema.refusal(POINT));
        assertNull(Schema.refusal(LABEL), "a record of a long and a string suits the automatic codec");
        assertNull(Schema.refusal(NAMED));
        assertNull(Schema.refusal(LIKES));
        assertNull(Schema.refusal(CODED_CRATE), "a custom codec takes any value");
        String crate = Schema.refusal(CRATE);
        assertNotNull(crate);
        assertTrue(crate.contains("items"), crate);
        String edge = Schema.refusal(CRATE_EDGE);
        assertNotNull(edge, "a managed payload the automatic codec cannot take");
        assertTrue(edge.contains("items"), edge);
    }

    @Test
    void theEntryCarriesTheNameKindLayoutFingerprintAndCodecFlag() {
        SnapshotComponentEntry point = Schema.entry(POINT);
        assertEquals(new SnapshotComponentEntry("schema.Point", "native", List.of("x", "y"),
                List.of(PrimitiveKind.FLOAT, PrimitiveKind.INT), SnapshotComponentEntry.fingerprint(List.of("x", "y"),
                List.of(PrimitiveKind.FLOAT, PrimitiveKind.INT)), false), point);
        assertTrue(Schema.entry(CODED).customCodec());
        assertEquals("tag", Schema.entry(MARK).kind());
        assertEquals(List.of(), Schema.entry(MARK).fieldNames());
    }
}
