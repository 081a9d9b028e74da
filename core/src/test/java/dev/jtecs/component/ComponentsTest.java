package dev.jtecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.mutation.BatchIds;
import dev.jtecs.snapshot.Snapshot;
import dev.jtecs.world.World;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReader;
import java.lang.module.ModuleReference;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
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

    // ------------------------------------------- a named module that opens nothing: Components.register(lookup, ...)

    @Test
    void aRecordOfAModuleThatOpensNothingIsRefusedWithoutItsLookupAndTheMessageSaysWhatToDo() throws Exception {
        Class<Record> secret = fixtureClass(fixtureModule(), "Secret");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> Components.registerNative(secret, o -> o.name("test.lookup.refused.Secret")));
        assertTrue(refused.getMessage().contains("Components.register(MethodHandles.lookup(), ...)"),
                refused.getMessage());
        assertTrue(refused.getMessage().contains("open its package to dev.jtecs.core"), refused.getMessage());
        assertNull(Components.findByName("test.lookup.refused.Secret"));
    }

    @Test
    void withTheModulesLookupTheCoreStoresCopiesAndSnapshotsItsPackagePrivateRecords() throws Throwable {
        ClassLoader module = fixtureModule();
        MethodHandles.Lookup lookup = (MethodHandles.Lookup) hand(module, "lookup", MethodType.methodType(
                MethodHandles.Lookup.class)).invoke();
        Class<Record> secretType = fixtureClass(module, "Secret");
        Class<Object> bagType = fixtureClass(module, "Bag");
        NativeComponent<Record> secret = Components.register(lookup, secretType, o -> o.name("test.lookup.Secret"));
        ManagedComponent<Object> bag = Components.register(lookup, bagType, o -> o.name("test.lookup.Bag"));
        Record position = (Record) hand(module, "secret", MethodType.methodType(Object.class, float.class,
                int.class)).invoke(1.5f, 7);
        Object coins = hand(module, "bag", MethodType.methodType(Object.class, String.class, int.class))
                .invoke("coins", 12);
        try (World world = World.create()) {
            long id = world.spawn(secret.of(position), bag.of(coins));
            // the native record went into its columns field by field and comes back through its constructor
            assertEquals(position, world.get(id, secret));
            assertEquals(coins, world.get(id, bag));
            // one managed value for a batch is copied per entity (the record copier builds each copy)
            BatchIds batch = world.batchSpawn(2, List.of(secret.of(position), bag.of(coins)));
            assertEquals(coins, world.get(batch.get(0), bag));
            assertNotSame(coins, world.get(batch.get(0), bag));
            // the automatic snapshot codec reads the managed record's components and builds it back
            Snapshot saved = world.saveSnapshot();
            world.loadSnapshot(saved);
            assertEquals(coins, world.get(id, bag));
            assertEquals(position, world.get(batch.get(1), secret));
        }
    }

    @Test
    void aPayloadRelationshipOfAModuleThatOpensNothingTakesItsLookupAsAnOption() throws Throwable {
        ClassLoader module = fixtureModule();
        MethodHandles.Lookup lookup = (MethodHandles.Lookup) hand(module, "lookup", MethodType.methodType(
                MethodHandles.Lookup.class)).invoke();
        Class<Record> followsType = fixtureClass(module, "Follows");
        assertThrows(IllegalArgumentException.class,
                () -> Relationships.register(followsType, o -> o.name("test.lookup.refused.Follows")));
        RelationshipDefinition<Record> follows = Relationships.register(followsType,
                o -> o.name("test.lookup.Follows").lookup(lookup));
        Record edge = (Record) hand(module, "follows", MethodType.methodType(Object.class, long.class,
                float.class)).invoke(42L, 0.5f);
        assertEquals(42L, follows.of(edge).target()); // read through the record's accessor
        assertEquals(9L, follows.targetOf((Record) follows.to(9L).payload())); // built by its constructor
    }

    @Test
    void aLookupThatCannotReachTheClassIsRefusedAndRegistersNothing() throws Exception {
        Class<Record> secret = fixtureClass(fixtureModule(), "Secret");
        // this test's lookup lives in another module (the class path's), which the fixture opens nothing to
        IllegalArgumentException foreign = assertThrows(IllegalArgumentException.class, () -> Components.register(
                MethodHandles.lookup(), secret, o -> o.name("test.lookup.foreign.Secret")));
        assertTrue(foreign.getMessage().contains("cannot reach"), foreign.getMessage());
        IllegalArgumentException weak = assertThrows(IllegalArgumentException.class, () -> Components.register(
                MethodHandles.publicLookup(), secret, o -> o.name("test.lookup.public.Secret")));
        assertTrue(weak.getMessage().contains("full privilege"), weak.getMessage());
        assertNull(Components.findByName("test.lookup.foreign.Secret"));
        assertNull(Components.findByName("test.lookup.public.Secret"));
    }

    @Test
    void onTheClassPathALookupIsHarmlessAndLeavesTheDefinitionAsItIs() {
        NativeComponent<Velocity> plain = Components.register(Velocity.class);
        NativeComponent<Velocity> withLookup = Components.register(MethodHandles.lookup(), Velocity.class);
        assertSame(plain, withLookup);
    }

    @Test
    void tagsScalarsAndTargetOnlyRelationshipsHaveNoClassAndRefuseALookup() {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        assertThrows(IllegalArgumentException.class, () -> Components.tag("test.lookup.Tag", o -> o.lookup(lookup)));
        assertThrows(IllegalArgumentException.class,
                () -> Components.scalar("test.lookup.Scalar", 1, o -> o.lookup(lookup)));
        assertThrows(IllegalArgumentException.class,
                () -> Relationships.register("test.lookup.Relationship", o -> o.lookup(lookup)));
        assertNull(Components.findByName("test.lookup.Tag"));
    }

    /** A public static method of the fixture module's {@code Hand} (its package is exported). */
    private static MethodHandle hand(ClassLoader module, String name, MethodType type) throws Exception {
        return MethodHandles.publicLookup().findStatic(fixtureClass(module, "Hand"), name, type);
    }

    @SuppressWarnings("unchecked")
    private static <T> Class<T> fixtureClass(ClassLoader module, String simpleName) throws ClassNotFoundException {
        return (Class<T>) Class.forName(FIXTURE_PACKAGE + "." + simpleName, true, module);
    }

    private static final String FIXTURE_PACKAGE = "dev.jtecs.component.lookupfixture";

    /**
     * Defines the classes of {@code lookupfixture} (compiled with these tests) once more, as a fresh named module
     * in a layer of its own: {@code module jtecs.lookupfixture { exports dev.jtecs.component.lookupfixture; }},
     * opening nothing, as a consumer's game module would. Its records are package-private, so the core (here in
     * the class path's unnamed module) can reach them only through the lookup {@code Hand} hands out. Each call
     * makes a new module, so one test's grant never helps another.
     */
    private static ClassLoader fixtureModule() throws IOException {
        Map<String, byte[]> classes = new HashMap<>();
        for (String name : List.of("Hand", "Secret", "Bag", "Follows")) {
            String path = FIXTURE_PACKAGE.replace('.', '/') + "/" + name + ".class";
            try (InputStream in = ComponentsTest.class.getClassLoader().getResourceAsStream(path)) {
                classes.put(path, in.readAllBytes());
            }
        }
        ModuleDescriptor descriptor = ModuleDescriptor.newModule("jtecs.lookupfixture")
                .exports(FIXTURE_PACKAGE).packages(Set.of(FIXTURE_PACKAGE)).build();
        ModuleReference reference = new ModuleReference(descriptor, null) {
            @Override
            public ModuleReader open() {
                return new ModuleReader() {
                    @Override
                    public Optional<URI> find(String name) {
                        return Optional.empty();
                    }

                    @Override
                    public Optional<InputStream> open(String name) {
                        byte[] bytes = classes.get(name);
                        return Optional.ofNullable(bytes == null ? null : new ByteArrayInputStream(bytes));
                    }

                    @Override
                    public Optional<ByteBuffer> read(String name) {
                        byte[] bytes = classes.get(name);
                        return Optional.ofNullable(bytes == null ? null : ByteBuffer.wrap(bytes));
                    }

                    @Override
                    public Stream<String> list() {
                        return classes.keySet().stream();
                    }

                    @Override
                    public void close() {
                    }
                };
            }
        };
        ModuleFinder finder = new ModuleFinder() {
            @Override
            public Optional<ModuleReference> find(String name) {
                return name.equals(descriptor.name()) ? Optional.of(reference) : Optional.empty();
            }

            @Override
            public Set<ModuleReference> findAll() {
                return Set.of(reference);
            }
        };
        Configuration configuration = ModuleLayer.boot().configuration()
                .resolve(finder, ModuleFinder.of(), Set.of(descriptor.name()));
        ModuleLayer layer = ModuleLayer.boot().defineModulesWithOneLoader(configuration,
                ClassLoader.getSystemClassLoader());
        return layer.findLoader(descriptor.name());
    }
}
