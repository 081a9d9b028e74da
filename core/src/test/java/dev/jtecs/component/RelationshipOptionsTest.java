package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RelationshipOptionsTest {
    static final TagComponent ROLE = Components.tag("test.relopts.Role");

    @Test
    void collectsExclusivityTransienceAndRequirements() {
        RelationshipOptions options = new RelationshipOptions();
        assertFalse(options.isExclusive());
        options.exclusive().transient_(true).requires(ROLE);
        assertTrue(options.isExclusive());
        assertTrue(options.componentOptions().isTransient());
        assertEquals(List.of(ROLE), options.componentOptions().requires());
    }
}
