package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jtecs.component.Components;
import dev.jtecs.component.DoubleField;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.nativebindings.DirtyUploader;
import dev.jtecs.nativebindings.UploadTarget;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples of {@code docs/rendering.md}. */
class RenderingGuideTest {
    record Position(float x, float y) {}

    record Heat(double value) {}

    static final NativeComponent<Position> POSITION =
            Components.registerNative(Position.class, o -> o.name("docs.rendering.Position"));
    static final NativeComponent<Heat> HEAT = Components.registerNative(Heat.class, o -> o.name("docs.rendering.Heat"));
    static final FloatField X = POSITION.floatField("x");
    static final FloatField Y = POSITION.floatField("y");
    static final DoubleField VALUE = HEAT.doubleField("value");

    @Test
    void whatEachChangeUploads() {
        try (World world = World.create()) {
            // begin-example
            UploadTarget counting = new UploadTarget() {                 // GlColumnBuffers in a real viewer
                @Override
                public void upload(int field, long byteOffset, long address, long byteCount) { }

                @Override
                public void grow(int field, long capacityBytes, long keptBytes) { }
            };
            DirtyUploader uploader = new DirtyUploader(List.of(X, Y, VALUE), counting);
            world.batchSpawn(1000, List.of(POSITION, HEAT));
            assertEquals(1000 * (4 + 4 + 8), uploader.upload(world));   // a new archetype: every row

            assertEquals(0, uploader.upload(world));                    // nothing changed: nothing sent

            Archetype dots = world.archetypeOf(world.batchSpawn(1, List.of(POSITION, HEAT)).get(0));
            assertEquals(4 + 4 + 8, uploader.upload(world));            // a spawn: the appended row only

            dots.getMut(VALUE);                                         // marks Heat: its one column
            assertEquals(1001 * 8, uploader.upload(world));

            world.despawn(dots.entity(10));                             // the last row moves into row 10
            assertEquals(4 + 4 + 8, uploader.upload(world));            // that row, in every field
            // end-example
        }
    }
}
