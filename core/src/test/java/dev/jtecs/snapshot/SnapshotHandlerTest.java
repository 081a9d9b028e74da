package dev.jtecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A handler made of two functions, and the defaults of one that overrides nothing. */
class SnapshotHandlerTest {
    @Test
    void aHandlerOfTwoFunctionsCallsThemWithTheWorldAndTheValue() {
        List<Object> loaded = new ArrayList<>();
        SnapshotHandler<String> handler = SnapshotHandler.of("game.level", world -> world + "!",
                (world, value) -> loaded.add(world + "=" + value));
        assertEquals("game.level", handler.name());
        assertEquals("w!", handler.save("w"));
        handler.load("w", 3);
        assertEquals(List.of("w=3"), loaded);
        handler.finish("w", new SnapshotPrelude(1, 0, 0, 0, List.of())); // the default does nothing
        assertEquals("SnapshotHandler[game.level]", handler.toString());
    }

    @Test
    void missingFunctionsSaveNothingAndIgnoreTheLoad() {
        SnapshotHandler<String> handler = SnapshotHandler.of("quiet", null, null);
        assertNull(handler.save("w"));
        handler.load("w", 1); // nothing to call
        SnapshotHandler<String> bare = () -> "bare";
        assertNull(bare.save("w"));
        bare.load("w", 1);
        assertThrows(NullPointerException.class, () -> SnapshotHandler.of(null, null, null));
    }
}
