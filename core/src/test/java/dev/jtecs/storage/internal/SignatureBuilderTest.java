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
}
