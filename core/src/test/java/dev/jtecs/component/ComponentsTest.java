package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class ComponentsTest {
    record Velocity(float x, float y) {}

    record Inventory(List<String> items) {}

    record Pinned(int a) {}

    record Renamed(int a) {}

    record Conflict(long v) {}

    record Racy(double v) {}

    @Test
    void primitiveRecordsBecomeNativeAndOthersManaged() {
        Component<Velocity> velocity = Components.register(Velocity.class);
        Component<Inventory> inventory = Components.register(Inventory.class);
        assertInstanceOf(NativeComponent.class, velocity);
        assertInstanceOf(ManagedComponent.class, inventory);
        assertEquals(StorageKind.NATIVE, velocity.storage());
        assertEquals(StorageKind.MANAGED, inventory.storage());
    }

    @Test
    void nameDefaultsToCanonicalClassName() {
        NativeComponent<Velocity> velocity = Components.registerNative(Velocity.class);
        assertEquals(Velocity.class.getCanonicalName(), velocity.name());
    }

    @Test
    void registeringTheSameDefinitionAgainReturnsIt() {
        NativeComponent<Velocity> first = Components.registerNative(Velocity.class);
        NativeComponent<Velocity> second = Components.register(Velocity.class);
        assertSame(first, second);
    }

    @Test
    void explicitNamePinsIdentityAndLookupWorks() {
        NativeComponent<Pinned> pinned = Components.registerNative(Pinned.class, o -> o.name("test.components.Pinned"));
        assertEquals("test.components.Pinned", pinned.name());
        assertSame(pinned, Components.findByName("test.components.Pinned"));
        assertSame(pinned, Components.findById(pinned.id()));
        assertSame(pinned, Components.requireById(pinned.id()));
        assertTrue(Components.declared().contains(pinned));
        assertEquals(Components.count(), Components.declared().size());
    }

    @Test
    void duplicateNameForDifferentDefinitionIsAnError() {
        Components.registerNative(Renamed.class, o -> o.name("test.components.Shared"));
        int before = Components.count();
        String message = assertThrows(IllegalStateException.class,
                () -> Components.registerNative(Conflict.class, o -> o.name("test.components.Shared"))).getMessage();
        assertTrue(message.contains("test.components.Shared"), message);
        assertThrows(IllegalStateException.class, () -> Components.tag("test.components.Shared"));
        assertThrows(IllegalStateException.class, () -> Components.scalar("test.components.Shared", 1.0));
        assertEquals(before, Components.count(), "a rejected registration assigns no id");
    }

    @Test
    void sameNameWithFactoryIsNotTheSameDefinition() {
        Components.tag("test.components.TagTwice");
        assertSame(Components.findByName("test.components.TagTwice"), Components.tag("test.components.TagTwice"));
        assertThrows(IllegalStateException.class,
                () -> Components.tag("test.components.TagTwice", o -> o.transient_(true)));
    }

    @Test
    void scalarsAreIdempotentOnlyWithTheSameDefault() {
        ScalarComponent.OfDouble a = Components.scalar("test.components.Hp", 10.0);
        assertSame(a, Components.scalar("test.components.Hp", 10.0));
        assertThrows(IllegalStateException.class, () -> Components.scalar("test.components.Hp", 11.0));
        assertThrows(IllegalStateException.class, () -> Components.scalar("test.components.Hp", 10L));
    }

    @Test
    void lookupsOfUnknownIdsAndNames() {
        assertNull(Components.findById(0));
        assertNull(Components.findById(-1));
        assertNull(Components.findById(Components.MAX_COMPONENT_ID));
        assertNull(Components.findByName("no.such.Component"));
        assertThrows(IllegalArgumentException.class, () -> Components.requireById(Integer.MAX_VALUE));
    }

    @Test
    void idsLeaveRoomForRelationshipPairs() {
        assertTrue(Components.FIRST_PAIR_ID > Components.MAX_COMPONENT_ID);
        for (Component<?> component : Components.declared()) {
            assertTrue(component.id() >= 1 && component.id() <= Components.MAX_COMPONENT_ID);
        }
    }

    @Test
    void nonPrimitiveRecordCannotBeNative() {
        @SuppressWarnings({"unchecked", "rawtypes"})
        Class<Record> raw = (Class) Inventory.class;
        assertThrows(IllegalArgumentException.class, () -> Components.registerNative(raw));
        assertThrows(IllegalArgumentException.class, () -> Components.registerManaged(int.class));
    }

    @Test
    void blankAndConflictingNamesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> Components.tag(" "));
        assertThrows(IllegalArgumentException.class, () -> Components.tag("a.b", o -> o.name("c.d")));
        assertThrows(IllegalArgumentException.class,
                () -> Components.tag("test.components.TagFactory", o -> o.defaults(() -> true)));
    }

    @Test
    void concurrentRegistrationAssignsOneIdPerName() throws Exception {
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<Component<?>>>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            futures.add(pool.submit(() -> {
                start.await();
                List<Component<?>> mine = new ArrayList<>();
                mine.add(Components.register(Racy.class));
                for (int i = 0; i < 50; i++) {
                    mine.add(Components.tag("test.components.race." + i));
                }
                return mine;
            }));
        }
        start.countDown();
        ConcurrentHashMap<String, Component<?>> seen = new ConcurrentHashMap<>();
        for (Future<List<Component<?>>> future : futures) {
            for (Component<?> component : future.get()) {
                Component<?> previous = seen.putIfAbsent(component.name(), component);
                if (previous != null) {
                    assertSame(previous, component);
                }
            }
        }
        pool.shutdown();
        assertEquals(51, seen.size());
        long distinctIds = seen.values().stream().mapToInt(Component::id).distinct().count();
        assertEquals(51, distinctIds);
    }

    record Labelled(float x, String label, int count) {}

    @Test
    void registerNativeNamesTheRecordTheFieldAndTheKindItNeeds() {
        int before = Components.count();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Components.registerNative(Labelled.class));
        assertTrue(e.getMessage().contains(Labelled.class.getName()), e.getMessage());
        assertTrue(e.getMessage().contains("'label' is a java.lang.String"), e.getMessage());
        assertTrue(e.getMessage().contains("must be a primitive"), e.getMessage());
        assertEquals(before, Components.count(), "nothing was registered");
    }
}
