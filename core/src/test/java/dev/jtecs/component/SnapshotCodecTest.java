package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SnapshotCodecTest {
    record Tag(String text) {}

    /** The destination "world" the world-aware decoder asks for: any type will do for the codec itself. */
    record Host(String prefix) {}

    @Test
    void aPlainDecoderNeedsNoWorldAndSaysSo() {
        SnapshotCodec<Tag> codec = new ComponentOptions<Tag>().save(tag -> List.of(tag.text()))
                .load(tree -> new Tag((String) ((List<?>) tree).get(0))).codec("test.Tag");
        assertEquals(List.of("a"), codec.save(new Tag("a")));
        assertEquals(new Tag("b"), codec.load(List.of("b"), null), "no world needed, none checked");
        assertFalse(codec.isWorldAware());
        assertEquals("SnapshotCodec[test.Tag]", codec.toString());
    }

    @Test
    void aWorldAwareDecoderGetsTheWorldAndRefusesAnotherType() {
        SnapshotCodec<Tag> codec = new ComponentOptions<Tag>().save(tag -> Map.of("t", tag.text()))
                .deserialize(Host.class, (host, tree) -> new Tag(host.prefix() + ((Map<?, ?>) tree).get("t")))
                .codec("test.Tag");
        assertEquals(new Tag("x:y"), codec.load(Map.of("t", "y"), new Host("x:")));
        assertTrue(codec.isWorldAware());
        assertEquals("SnapshotCodec[test.Tag, world-aware]", codec.toString());
        IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class,
                () -> codec.load(Map.of("t", "y"), "not a host"));
        assertEquals("component test.Tag: its deserialize expects a " + Host.class.getName()
                + ", got java.lang.String", wrong.getMessage());
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> codec.load(Map.of("t", "y"), null));
        assertTrue(none.getMessage().endsWith(", got null"), none.getMessage());
    }
}
