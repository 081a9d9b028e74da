package dev.jtecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.Transform2D;
import dev.jtecs.query.QueryDescriptor;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The save options: the format each factory and each output implies, the layers' checks, custom data keys. */
class SnapshotOptionsTest {
    @Test
    void theDefaultIsATableUntilABufferOrAPathAsksForBytes() {
        SnapshotOptions defaults = SnapshotOptions.defaults();
        assertEquals(SnapshotFormat.TABLE, defaults.format());
        assertFalse(defaults.formatGiven());
        try (SnapshotBuffer buffer = new SnapshotBuffer()) {
            SnapshotOptions buffered = SnapshotOptions.defaults().buffer(buffer);
            assertEquals(SnapshotFormat.BINARY, buffered.format());
            assertSame(buffer, buffered.buffer());
            assertFalse(buffered.formatGiven());
        }
        SnapshotOptions filed = SnapshotOptions.defaults().path(Path.of("x.snap"));
        assertEquals(SnapshotFormat.BINARY, filed.format());
        assertEquals(Path.of("x.snap"), filed.path());

        assertEquals(SnapshotFormat.TABLE, SnapshotOptions.table().format());
        assertTrue(SnapshotOptions.table().formatGiven());
        assertEquals(SnapshotFormat.TABLE, SnapshotOptions.table().path(Path.of("y")).format(),
                "an explicit table stays a table (the save refuses the path)");
        assertEquals(SnapshotFormat.BINARY, SnapshotOptions.binary().format());
        assertTrue(SnapshotOptions.binary().formatGiven());
        assertNull(SnapshotOptions.binary().buffer());
        assertNull(SnapshotOptions.binary().path());
        assertNull(SnapshotOptions.binary().filter());
    }

    @Test
    void layersAreCheckedAtTheBoundsAndCopiedBothWays() {
        SnapshotOptions options = SnapshotOptions.table();
        assertNull(options.layers(), "all layers");
        int[] given = {0, 31};
        options.layers(given);
        given[0] = 5;
        assertArrayEquals(new int[] {0, 31}, options.layers(), "the options copied the array");
        options.layers()[1] = 7;
        assertArrayEquals(new int[] {0, 31}, options.layers(), "and hand out a copy");
        IllegalArgumentException low = assertThrows(IllegalArgumentException.class, () -> options.layers(3, -1));
        assertEquals("layers: layer -1 is outside 0..31", low.getMessage());
        IllegalArgumentException high = assertThrows(IllegalArgumentException.class, () -> options.layers(32));
        assertEquals("layers: layer 32 is outside 0..31", high.getMessage());
        assertArrayEquals(new int[] {0, 31}, options.layers(), "a refused call keeps the layers they had");
        assertEquals("SnapshotOptions[format=TABLE, buffer=false, path=null, filter=null, layers=[0, 31], "
                + "customData=[]]", options.toString());
    }

    @Test
    void customDataKeepsItsOrderAndRefusesEmptyAndRepeatedKeys() {
        SnapshotOptions options = SnapshotOptions.binary().customData("b", 1).customData("a", List.of("x"))
                .customData("n", null);
        assertEquals(List.of("b", "a", "n"), List.copyOf(options.customData().keySet()));
        assertEquals(List.of("x"), options.customData().get("a"));
        assertTrue(options.customData().containsKey("n"));
        assertThrows(UnsupportedOperationException.class, () -> options.customData().put("c", 2));
        assertEquals("customData: a key must not be empty",
                assertThrows(IllegalArgumentException.class, () -> options.customData("", 1)).getMessage());
        assertEquals("customData: key 'a' is given twice",
                assertThrows(IllegalArgumentException.class, () -> options.customData("a", 2)).getMessage());
        assertEquals(List.of("x"), options.customData().get("a"), "the first value stays");
        assertThrows(NullPointerException.class, () -> options.customData(null, 1));
    }

    @Test
    void theFilterAndOutputsAreKeptAndShown() {
        QueryDescriptor filter = QueryDescriptor.builder().include(Transform2D.COMPONENT).build();
        SnapshotOptions options = SnapshotOptions.binary().filter(filter).path(Path.of("out.snap"));
        assertSame(filter, options.filter());
        assertEquals("SnapshotOptions[format=BINARY, buffer=false, path=out.snap, filter=" + filter
                + ", layers=all, customData=[]]", options.toString());
        try (SnapshotBuffer buffer = new SnapshotBuffer()) {
            assertTrue(options.buffer(buffer).toString().contains("buffer=true"));
        }
        assertThrows(NullPointerException.class, () -> options.filter(null));
        assertThrows(NullPointerException.class, () -> options.path(null));
        assertThrows(NullPointerException.class, () -> options.buffer(null));
        assertThrows(NullPointerException.class, () -> options.layers((int[]) null));
        assertEquals(Map.of(), SnapshotOptions.defaults().customData());
    }
}
