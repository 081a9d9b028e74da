package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
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

    /** Every setter returns the options, so a registration can chain them. */
    @Test
    void everySetterChains() {
        RelationshipOptions options = new RelationshipOptions();
        assertSame(options, options.requires(ROLE));
        assertSame(options, options.save(edge -> edge.toString()));
        assertSame(options, options.load(tree -> null));
        RelationshipOptions worldAware = new RelationshipOptions(); // deserialize excludes load: its own options
        assertSame(worldAware, worldAware.deserialize(Object.class, (world, tree) -> null));
        assertSame(options, options.defaults(target -> null));
        assertSame(options, options.exclusive().transient_(false));
    }
}
