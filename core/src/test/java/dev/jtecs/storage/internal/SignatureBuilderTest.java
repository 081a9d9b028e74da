package dev.jtecs.storage.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.TagComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SignatureBuilderTest {
    static final List<TagComponent> TAGS = new ArrayList<>();

    static {
        for (int i = 0; i < 40; i++) {
            TAGS.add(Components.tag("test.signature.T" + i));
        }
    }

    private final NativeMemory memory = new NativeMemory();
    private final ArchetypeRegistry registry = new ArchetypeRegistry(memory);

    @AfterEach
    void tearDown() {
        registry.close();
        memory.close();
    }

    @Test
    void staysSortedAndDuplicateFreeUnderRandomEdits() {
        long seed = 3;
        SplittableRandom random = new SplittableRandom(seed);
        SignatureBuilder builder = new SignatureBuilder();
        TreeMap<Integer, Component<?>> reference = new TreeMap<>();
        for (int step = 0; step < 2000; step++) {
            TagComponent tag = TAGS.get(random.nextInt(TAGS.size()));
            if (random.nextBoolean()) {
                assertEquals(reference.put(tag.id(), tag) == null, builder.add(tag), "seed=" + seed);
            } else {
                assertEquals(reference.remove(tag.id()) != null, builder.remove(tag), "seed=" + seed);
            }
            assertEquals(reference.size(), builder.size());
        }
        List<Component<?>> listed = new ArrayList<>();
        for (int i = 0; i < builder.size(); i++) {
            listed.add(builder.get(i));
        }
        assertEquals(new ArrayList<>(reference.values()), listed);
    }

    @Test
    void resolvesToTheOneTableOfTheSignatureWithoutIntermediates() {
        SignatureBuilder builder = new SignatureBuilder();
        builder.add(TAGS.get(5));
        builder.add(TAGS.get(1));
        builder.add(TAGS.get(9));
        Table table = builder.resolve(registry);
        assertEquals(2, registry.size(), "root plus the one table: nothing in between");
        assertEquals(3, table.componentCount());
        assertSame(table, new SignatureBuilder().loadFrom(table).resolve(registry));
        builder.remove(TAGS.get(9));
        assertFalse(builder.contains(TAGS.get(9)));
        assertTrue(builder.contains(TAGS.get(5)));
        Table smaller = builder.resolve(registry);
        assertEquals(2, smaller.componentCount());
        assertSame(registry.root(), builder.clear().resolve(registry));
    }

    @Test
    void relationshipMarkersFollowTheirPairs() {
        dev.jtecs.component.Relationship rel = dev.jtecs.component.Relationships.register("test.sig.Rel");
        PairRegistry pairs = new PairRegistry();
        dev.jtecs.component.PairComponent pair = pairs.pair(rel, dev.jtecs.entity.Entity.pack(3, 0));
        SignatureBuilder signature = new SignatureBuilder();
        signature.add(pair);
        assertTrue(signature.normalizeRelationships(), "a pair brings its marker");
        assertTrue(signature.contains(rel));
        assertFalse(signature.normalizeRelationships(), "already consistent");
        signature.remove(pair);
        assertTrue(signature.normalizeRelationships(), "no pair left: the marker goes");
        assertFalse(signature.contains(rel));
    }

    @Test
    void loadingATableOfMoreComponentsThanTheFirstRoomGrowsFirst() {
        Component<?>[] seventeen = new Component<?>[17]; // one past the builder's first room of 16
        for (int i = 0; i < seventeen.length; i++) {
            seventeen[i] = TAGS.get(i);
        }
        java.util.Arrays.sort(seventeen, java.util.Comparator.comparingInt(Component::id));
        Table table = registry.findOrCreate(seventeen);
        SignatureBuilder builder = new SignatureBuilder().loadFrom(table);
        assertEquals(17, builder.size());
        for (int i = 0; i < 17; i++) {
            assertSame(seventeen[i], builder.get(i));
        }
        assertSame(table, builder.resolve(registry));
    }

    @Test
    void normalizingAFullBuilderLooksAtEveryEntryAndNoFurther() {
        dev.jtecs.component.Relationship rel = dev.jtecs.component.Relationships.register("test.sig.Full");
        PairRegistry pairs = new PairRegistry();
        dev.jtecs.component.PairComponent pair = pairs.pair(rel, dev.jtecs.entity.Entity.pack(4, 0));
        SignatureBuilder consistent = new SignatureBuilder();
        for (int i = 0; i < 14; i++) {
            consistent.add(TAGS.get(i));
        }
        consistent.add(rel);
        consistent.add(pair); // sixteen entries: the first room, full
        assertEquals(16, consistent.size());
        assertFalse(consistent.normalizeRelationships(), "every marker has its pair");
        assertEquals(16, consistent.size());
        consistent.removeEdgesOf(rel, pair);
        assertEquals(16, consistent.size(), "the pair kept, from a full builder");
        SignatureBuilder stale = new SignatureBuilder();
        for (int i = 0; i < 15; i++) {
            stale.add(TAGS.get(i));
        }
        stale.add(rel); // a marker whose pairs are gone, the last of sixteen entries
        assertTrue(stale.normalizeRelationships());
        assertFalse(stale.contains(rel));
        assertEquals(15, stale.size());
    }

    @Test
    void removingTheEdgesOfARelationshipKeepsTheOneAskedForAndEverythingElse() {
        dev.jtecs.component.Relationship rel = dev.jtecs.component.Relationships.register("test.sig.Edges");
        dev.jtecs.component.Relationship other = dev.jtecs.component.Relationships.register("test.sig.Other");
        PairRegistry pairs = new PairRegistry();
        dev.jtecs.component.PairComponent a = pairs.pair(rel, dev.jtecs.entity.Entity.pack(1, 0));
        dev.jtecs.component.PairComponent b = pairs.pair(rel, dev.jtecs.entity.Entity.pack(2, 0));
        dev.jtecs.component.PairComponent c = pairs.pair(rel, dev.jtecs.entity.Entity.pack(3, 0));
        dev.jtecs.component.PairComponent elsewhere = pairs.pair(other, dev.jtecs.entity.Entity.pack(1, 0));
        SignatureBuilder builder = new SignatureBuilder();
        for (Component<?> component : List.of(a, TAGS.get(0), b, rel, c, other, elsewhere)) {
            builder.add(component);
        }
        builder.removeEdgesOf(rel, b);
        assertFalse(builder.contains(a));
        assertTrue(builder.contains(b), "the pair to keep");
        assertFalse(builder.contains(c));
        assertTrue(builder.contains(rel), "the marker is not a pair");
        assertTrue(builder.contains(elsewhere), "another relationship's pair");
        assertTrue(builder.contains(TAGS.get(0)));
        assertEquals(5, builder.size());
        builder.removeEdgesOf(rel, null);
        assertFalse(builder.contains(b));
        assertEquals(4, builder.size());
        assertTrue(builder.normalizeRelationships(), "the marker without pairs goes");
        assertFalse(builder.contains(rel));
        assertTrue(builder.contains(other));
        SignatureBuilder onlyPairs = new SignatureBuilder(); // a pair at index 0 too
        onlyPairs.add(c);
        onlyPairs.add(a);
        onlyPairs.removeEdgesOf(rel, null);
        assertEquals(0, onlyPairs.size());
    }
}
