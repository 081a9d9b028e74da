package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
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

    /**
     * The search for an implicit default, run again: the registry answers a second registration of a class with
     * its first definition, so in a process that registered these types before (a mutation-testing worker, which
     * runs the tests again for each change it makes) only a definition built here searches again.
     */
    @Test
    void aDefinitionBuiltAfreshSearchesForItsDefaultAgain() {
        ManagedComponent<EveryKind> every = new ManagedComponent<>(1, EveryKind.class, new ComponentOptions<>());
        assertEquals(new EveryKind(false, (char) 0, (byte) 0, (short) 0, 0, 0L, 0f, 0d, null), every.newDefault());
        ManagedComponent<Bag> bag = new ManagedComponent<>(2, Bag.class, new ComponentOptions<>());
        assertTrue(bag.hasDefault());
        assertNotSame(bag.newDefault(), bag.newDefault());
        assertFalse(new ManagedComponent<>(3, NoDefault.class, new ComponentOptions<>()).hasDefault());
    }

    /** Each primitive's zero comes boxed as its own wrapper (a constructor handle takes no other); null otherwise. */
    @Test
    void zeroOfBoxesEachPrimitivesZeroInItsOwnWrapper() {
        assertEquals(Boolean.FALSE, ManagedComponent.zeroOf(boolean.class));
        assertEquals(Character.valueOf((char) 0), ManagedComponent.zeroOf(char.class));
        assertEquals(Byte.valueOf((byte) 0), ManagedComponent.zeroOf(byte.class));
        assertEquals(Short.valueOf((short) 0), ManagedComponent.zeroOf(short.class));
        assertEquals(Integer.valueOf(0), ManagedComponent.zeroOf(int.class));
        assertEquals(Long.valueOf(0L), ManagedComponent.zeroOf(long.class));
        assertEquals(Float.valueOf(0f), ManagedComponent.zeroOf(float.class));
        assertEquals(Double.valueOf(0d), ManagedComponent.zeroOf(double.class));
        assertNull(ManagedComponent.zeroOf(Integer.class));
        assertNull(ManagedComponent.zeroOf(String.class));
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
