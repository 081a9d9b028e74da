package dev.jtecs.bench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

class ImplsTest {
    @Test
    void acceptsTheStandardNamesAndJtecsOrPlainVariants() {
        for (String impl : Impls.STANDARD) {
            assertTrue(Impls.isValid(impl), impl);
        }
        assertTrue(Impls.isValid("jtecs-reused-world"));
        assertTrue(Impls.isValid("plain-array-allocate"));
    }

    @Test
    void refusesPeersUnderNewNamesAndMalformedNames() {
        for (String bad : List.of("", "JTECS", "jtecs-", "jtecs_scalar", "dominion-fast", "bevy", "plain", "jtecs--x",
                "jtecs-Scalar")) {
            assertFalse(Impls.isValid(bad), bad);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Impls.check(bad));
            assertTrue(e.getMessage().contains("impl='" + bad + "'"), e.getMessage());
        }
    }

    @Test
    void ranksJtecsThenItsVariantsThenPlainBaselinesThenPeers() {
        List<String> shuffled = new ArrayList<>(List.of("ashley", "plain-array-allocate", "artemis", "jtecs-scalar",
                "plain-array", "jtecs-full-rescan", "dominion", "plain-segment-vector", "jtecs"));
        shuffled.sort(Comparator.comparingInt(Impls::rank).thenComparing(Comparator.naturalOrder()));
        assertEquals(List.of("jtecs", "jtecs-scalar", "jtecs-full-rescan", "plain-array", "plain-segment-vector",
                "plain-array-allocate", "dominion", "artemis", "ashley"), shuffled);
    }
}
