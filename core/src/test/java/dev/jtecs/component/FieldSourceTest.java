package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jtecs.entity.Entity;
import org.junit.jupiter.api.Test;

class FieldSourceTest {
    record Mixed(byte b, boolean z, short s, char c, int i, float f, long l, double d) {}

    record Link(long target, byte b, boolean z, short s, char c, int i, float f, long l, double d) {}

    static final NativeComponent<Mixed> MIXED = Components.register(Mixed.class);
    static final RelationshipDefinition<Link> LINK = Relationships.register(Link.class);

    @Test
    void everyKindOfHandleComesFromEitherSourceWithItsFieldIndex() {
        FieldSource selector = LINK.targeting(Entity.pack(3, 0));
        for (FieldSource source : new FieldSource[] {MIXED, selector}) {
            int shift = source == MIXED ? 0 : 1; // the link's target comes first
            assertEquals(shift, source.byteField("b").field());
            assertEquals(1 + shift, source.booleanField("z").field());
            assertEquals(2 + shift, source.shortField("s").field());
            assertEquals(3 + shift, source.charField("c").field());
            assertEquals(4 + shift, source.intField("i").field());
            assertEquals(5 + shift, source.floatField("f").field());
            assertEquals(6 + shift, source.longField("l").field());
            assertEquals(7 + shift, source.doubleField("d").field());
            assertSame(source.fieldOwner(), source.floatField("f").component());
            assertThrows(IllegalArgumentException.class, () -> source.floatField("i"), "the wrong kind");
            assertThrows(IllegalArgumentException.class, () -> source.intField("missing"));
        }
    }
}
