package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.jtecs.component.Components;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.TagComponent;
import dev.jtecs.snapshot.SnapshotOptions;
import dev.jtecs.world.World;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The samples of docs/testing.md. */
class TestingGuideTest {
    record Position(float x, float y) {}

    static final NativeComponent<Position> POSITION =
            Components.registerNative(Position.class, o -> o.name("docs.testing.Position"));
    static final TagComponent FROZEN = Components.tag("docs.testing.Frozen");

    @Test
    void twoWorldsGivenTheSameCallsSaveTheSameBytes() {
        try (World one = World.create(); World two = World.create()) {
            // begin-example
            for (World world : List.of(one, two)) {
                long a = world.spawn(POSITION.of(new Position(1, 2)));
                world.defer();
                long b = world.spawn(POSITION.of(new Position(3, 4)), FROZEN);
                world.despawn(a);
                world.set(b, POSITION.of(new Position(5, 6)));
                world.commit();
            }
            byte[] first = one.saveSnapshot(SnapshotOptions.binary()).toByteArray();
            byte[] second = two.saveSnapshot(SnapshotOptions.binary()).toByteArray();
            assertArrayEquals(first, second); // the same calls: the same state, byte for byte
            // end-example
            two.spawn(POSITION.of(new Position(0, 0)));
            assertFalse(Arrays.equals(first, two.saveSnapshot(SnapshotOptions.binary()).toByteArray()));
        }
    }
}
