package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ComponentOptionsTest {
    @Test
    void startsEmptyAndRecordsEachOption() {
        ComponentOptions<String> options = new ComponentOptions<>();
        assertNull(options.name());
        assertFalse(options.isTransient());
        assertNull(options.defaults());
        assertTrue(options.requires().isEmpty());
        TagComponent tag = Components.tag("test.options.Req");
        options.name("test.options.Name").transient_(true).defaults(() -> "d").requires(tag);
        assertEquals("test.options.Name", options.name());
        assertTrue(options.isTransient());
        assertEquals("d", options.defaults().get());
        assertEquals(tag, options.requires().get(0));
        assertTrue(options.toString().contains("test.options.Name"));
    }

    @Test
    void rejectsNullsAndBlankNames() {
        ComponentOptions<String> options = new ComponentOptions<>();
        assertThrows(NullPointerException.class, () -> options.name(null));
        assertThrows(IllegalArgumentException.class, () -> options.name("  "));
        assertThrows(NullPointerException.class, () -> options.defaults(null));
        assertThrows(NullPointerException.class, () -> options.requires((Input) null));
    }

    /** A codec is none, or an encoder with exactly one decoder; every other mix is refused, saying what is missing. */
    @Test
    void aCodecIsAnEncoderWithExactlyOneDecoder() {
        assertNull(new ComponentOptions<String>().codec("c"), "nothing given: no codec");
        java.util.function.Function<String, Object> save = text -> text;
        java.util.function.Function<Object, String> load = tree -> (String) tree;
        java.util.function.BiFunction<Object, Object, String> deserialize = (world, tree) -> (String) tree;
        assertFalse(new ComponentOptions<String>().save(save).load(load).codec("c").isWorldAware());
        assertTrue(new ComponentOptions<String>().save(save).deserialize(Object.class, deserialize).codec("c")
                .isWorldAware());
        String encoderOnly = assertThrows(IllegalArgumentException.class,
                () -> new ComponentOptions<String>().save(save).codec("c")).getMessage();
        assertTrue(encoderOnly.endsWith("save needs a load or deserialize decoder"), encoderOnly);
        for (ComponentOptions<String> decoderOnly : java.util.List.of(new ComponentOptions<String>().load(load),
                new ComponentOptions<String>().deserialize(Object.class, deserialize))) {
            String message = assertThrows(IllegalArgumentException.class, () -> decoderOnly.codec("c")).getMessage();
            assertTrue(message.endsWith("load/deserialize needs a save encoder"), message);
        }
        ComponentOptions<String> both = new ComponentOptions<String>().save(save).load(load)
                .deserialize(Object.class, deserialize);
        String message = assertThrows(IllegalArgumentException.class, () -> both.codec("c")).getMessage();
        assertTrue(message.endsWith("give load or deserialize, not both"), message);
    }
}
