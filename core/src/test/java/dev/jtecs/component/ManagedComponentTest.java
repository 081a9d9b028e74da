package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ManagedComponentTest {
    record Named(String name, int rank) {}

    static final class Bag {
        final List<String> items = new ArrayList<>();
    }

    static final class NoDefault {
        final String value;

        NoDefault(String value) {
            this.value = value;
        }
    }

    record WithFactory(List<String> items) {}

    @Test
    void recordDefaultUsesZeroAndNullArguments() {
        ManagedComponent<Named> named = Components.registerManaged(Named.class);
        assertTrue(named.hasDefault());
        assertEquals(new Named(null, 0), named.newDefault());
        assertEquals(ComponentLayout.HEAP, named.layout());
    }

    record EveryKind(boolean z, char c, byte b, short s, int i, long l, float f, double d, List<String> rest) {}

    /** The implicit default passes each primitive component its own zero, of its own type, and null otherwise. */
    @Test
    void recordDefaultGivesEveryPrimitiveKindItsZero() {
        ManagedComponent<EveryKind> every = Components.registerManaged(EveryKind.class);
        assertTrue(every.hasDefault());
        assertEquals(new EveryKind(false, (char) 0, (byte) 0, (short) 0, 0, 0L, 0f, 0d, null), every.newDefault());
    }

    @Test
    void classDefaultUsesNoArgumentConstructorFreshEachTime() {
        ManagedComponent<Bag> bag = Components.registerManaged(Bag.class);
        assertNotSame(bag.newDefault(), bag.newDefault());
    }

    @Test
    void typeWithoutDefaultSaysSo() {
        ManagedComponent<NoDefault> none = Components.registerManaged(NoDefault.class);
        assertFalse(none.hasDefault());
        String message = assertThrows(IllegalStateException.class, none::newDefault).getMessage();
        assertTrue(message.contains("no default"), message);
    }

    record Validated(String name) {
        Validated {
            if (name == null) {
                throw new IllegalArgumentException("name");
            }
        }
    }

    @Test
    void recordWhoseConstructorRejectsDefaultsHasNoDefault() {
        ManagedComponent<Validated> validated = Components.registerManaged(Validated.class);
        assertFalse(validated.hasDefault());
        assertThrows(IllegalStateException.class, validated::newDefault);
    }

    @Test
    void factoryWinsAndIsCheckedForType() {
        ManagedComponent<WithFactory> withFactory = Components.registerManaged(WithFactory.class,
                o -> o.defaults(() -> new WithFactory(List.of("a"))));
        assertEquals(List.of("a"), withFactory.newDefault().items());
        assertEquals(StorageKind.MANAGED, withFactory.storage());
    }

    @Test
    void factoryReturningNullIsReported() {
        record Nully(String s) {}
        ManagedComponent<Nully> nully = Components.registerManaged(Nully.class, o -> o.defaults(() -> null));
        assertThrows(IllegalStateException.class, nully::newDefault);
    }
}
