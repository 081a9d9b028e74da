package dev.jtecs.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.mutation.BatchIds;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.internal.Table;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The maintenance pass behind {@code World.compact()} ({@link Compaction}). */
class CompactionTest {
    record Pos(float x, float y) {}

    record Vel(float x, float y) {}

    static final NativeComponent<Pos> POS = Components.registerNative(Pos.class);
    static final NativeComponent<Vel> VEL = Components.registerNative(Vel.class);

    private final World world = World.create();

    @AfterEach
    void close() {
        world.close();
    }

    private Query query(Component<?>... include) {
        return world.newQuery(QueryDescriptor.builder().include(include).build());
    }

    @Test
    void compactRebuildsStorageThatLostMostRowsAndKeepsValues() {
        BatchIds ids = world.batchSpawn(10_000, List.of(POS.of(new Pos(1, 2))));
        world.batchSpawn(100, List.of(VEL));
        Query positions = query(POS);
        world.batchDespawn(positions);
        long keep = world.spawn(POS.of(new Pos(5, 6)));
        Archetype archetype = world.archetypeOf(keep);
        long reservedBefore = world.nativeBytesReserved();
        CompactResult result = world.compact();
        assertEquals(new CompactResult(0, 1), result);
        assertTrue(world.nativeBytesReserved() < reservedBefore);
        assertEquals(Table.ROW_PADDING, archetype.capacityRows());
        assertEquals(new Pos(5, 6), world.get(keep, POS));
        assertFalse(world.isAlive(ids.first()));
        assertEquals(new CompactResult(0, 0), world.compact(), "nothing left to rebuild");
    }

    @Test
    void compactRefusesPendingWorkScopesAndPublication() {
        world.defer();
        world.spawn(POS);
        assertThrows(IllegalStateException.class, world::compact);
        world.commit();
        world.forEachArchetype(a -> assertThrows(IllegalStateException.class, world::compact));
        world.newQuery(QueryDescriptor.builder().include(POS).onEntitiesAdded((a, f, t) ->
                assertThrows(IllegalStateException.class, world::compact)).build());
        world.spawn(POS);
    }
}
