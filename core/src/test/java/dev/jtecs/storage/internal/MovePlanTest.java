package dev.jtecs.storage.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jtecs.component.Components;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.TagComponent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MovePlanTest {
    record Three(int a, long b, double c) {}

    record Ref(Object o) {}

    static final NativeComponent<Three> THREE = Components.registerNative(Three.class);
    static final ManagedComponent<Ref> REF = Components.registerManaged(Ref.class);
    static final TagComponent MARK = Components.tag("test.moveplan.Mark");

    private final NativeMemory memory = new NativeMemory();
    private final ArchetypeRegistry registry = new ArchetypeRegistry(memory);

    @AfterEach
    void tearDown() {
        registry.close();
        memory.close();
    }

    @Test
    void pairsEverySharedColumnAndListsMissingPositions() {
        Table source = registry.withAdded(registry.withAdded(registry.root(), THREE), REF);
        Table destination = registry.withAdded(registry.withAdded(registry.root(), THREE), MARK);
        MovePlan plan = MovePlan.between(source, destination);
        assertEquals(3, plan.nativeSource.length);
        assertArrayEquals(new int[] {4, 8, 8}, plan.nativeBytes);
        assertEquals(0, plan.heapSource.length);
        assertArrayEquals(new int[] {destination.position(MARK.id())}, plan.missingPositions);
        MovePlan back = MovePlan.between(destination, source);
        assertArrayEquals(new int[] {source.position(REF.id())}, back.missingPositions);
        assertEquals(destination, plan.destination);
    }

    @Test
    void heapColumnsArePaired() {
        Table source = registry.withAdded(registry.root(), REF);
        Table destination = registry.withAdded(source, MARK);
        MovePlan plan = MovePlan.between(source, destination);
        assertEquals(1, plan.heapSource.length);
        assertEquals(0, plan.nativeSource.length);
    }

    record First(Object o) {}

    record Second(Object o) {}

    static final ManagedComponent<First> FIRST = Components.registerManaged(First.class);
    static final ManagedComponent<Second> SECOND = Components.registerManaged(Second.class);

    @Test
    void heapColumnsArePairedByComponentWhateverTheirIndexOnEachSide() {
        // the source holds REF's heap column first; the destination starts its heap columns with FIRST's
        Table source = registry.withAdded(registry.withAdded(registry.withAdded(registry.root(), REF), FIRST),
                SECOND);
        Table destination = registry.withRemoved(source, REF);
        MovePlan plan = MovePlan.between(source, destination);
        assertArrayEquals(new int[] {source.heapIndexAt(source.position(FIRST.id())),
                source.heapIndexAt(source.position(SECOND.id()))}, plan.heapSource);
        assertArrayEquals(new int[] {0, 1}, plan.heapDestination);
        assertEquals(0, plan.missingPositions.length);
    }
}
