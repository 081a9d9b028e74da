package dev.jtecs.snapshot.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jtecs.component.Components;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.snapshot.Snapshot;
import dev.jtecs.snapshot.SnapshotOptions;
import dev.jtecs.world.World;
import org.junit.jupiter.api.Test;

class SnapshotEngineTest {
    record Pos(float x, float y) {}

    static final NativeComponent<Pos> POS = Components.registerNative(Pos.class, o -> o.name("engine.Pos"));
    static final ScalarComponent.OfString LABEL = Components.scalar("engine.Label", "none");

    @Test
    void aTableSnapshotRoundTrips() {
        try (World world = World.create(); World copy = World.create()) {
            long a = world.spawn(POS.of(new Pos(1, 2)), LABEL.of("a"));
            long b = world.spawn(POS.of(new Pos(3, 4)));
            world.despawn(world.spawn());
            Snapshot table = world.saveSnapshot();
            System.out.println(table.table());
            copy.loadSnapshot(table);
            assertEquals(new Pos(1, 2), copy.get(a, POS));
            assertEquals("a", copy.get(a, LABEL));
            assertEquals(new Pos(3, 4), copy.get(b, POS));
            Snapshot binary = world.saveSnapshot(SnapshotOptions.binary());
            System.out.println(binary);
            try (World third = World.create()) {
                third.loadSnapshot(binary);
                assertEquals(new Pos(3, 4), third.get(b, POS));
                assertEquals("a", third.get(a, LABEL));
                assertEquals(world.spawn(), third.spawn());
            }
        }
    }
}
