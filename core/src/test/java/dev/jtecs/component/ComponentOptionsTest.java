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
}
