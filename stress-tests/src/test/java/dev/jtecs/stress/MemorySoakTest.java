package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.LABEL;
import static dev.jtecs.stress.ModelComponents.LEVEL;
import static dev.jtecs.stress.ModelComponents.MARKED;
import static dev.jtecs.stress.ModelComponents.POSITION;
import static dev.jtecs.stress.ModelComponents.STATS;
import static dev.jtecs.stress.ModelComponents.VELOCITY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Input;
import dev.jtecs.stress.ModelComponents.Label;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Native and heap memory of a world: everything back after {@code close()}, a plateau under churn, and no heap
 * object per entity for native components. Bounds are stated where they are checked, each with its reason;
 * randomized parts print their seed ({@code -Djtecs.memorySeed=<seed>} replays one).
 */
class MemorySoakTest {
    private static final long KIB = 1024;

    @Test
    void closeReturnsEveryNativeByteTheWorldHeld() {
        long baseline = World.nativeBytesHeldByOpenWorlds();
        World world = World.create(WorldConfig.defaults().maxEntities(1 << 20));
        world.batchSpawn(300_000, List.<Input>of(POSITION, VELOCITY, STATS)); // columns past the large-buffer size
        for (int i = 0; i < 20_000; i++) {
            long id = world.spawn(LEVEL.of(i), LABEL.of(new Label("x", List.of())));
            if (i % 3 == 0) {
                world.despawn(id);
            }
        }
        long footprint = world.nativeFootprintBytes();
        assertTrue(world.nativeBytesReserved() > 300_000L * 40, "reserved=" + world.nativeBytesReserved());
        assertTrue(footprint >= world.nativeBytesReserved(), "footprint=" + footprint);
        assertEquals(baseline + footprint, World.nativeBytesHeldByOpenWorlds(), "the process total counts it");
        world.close();
        assertEquals(baseline, World.nativeBytesHeldByOpenWorlds(), "close() returned every byte, to the byte");
    }

    @Test
    void churnKeepsNativeBytesAndHeapOnAPlateau() {
        long seed = Long.getLong("jtecs.memorySeed", 20261201L);
        System.out.println("memory soak: seed " + seed + " (replay with -Djtecs.memorySeed=" + seed + ")");
        List<MemorySoak.Round> rounds = MemorySoak.soak(seed, 9, 8_000);
        rounds.forEach(round -> System.out.println("  " + round));
        int warm = 2; // the first rounds create most archetypes and grow the slabs to their working size
        MemorySoak.Round first = rounds.get(warm);
        MemorySoak.Round last = rounds.get(rounds.size() - 1);
        for (int r = warm + 1; r < rounds.size(); r++) {
            MemorySoak.Round before = rounds.get(r - 1);
            MemorySoak.Round now = rounds.get(r);
            assertEquals(before.entities(), now.entities(), "every round ends with the pinned parents only");
            int newArchetypes = now.archetypes() - before.archetypes();
            // Native: a round that leaves no new archetype leaves the same bytes reserved, to the byte (every
            // emptied archetype is compacted to its smallest capacity); a new, empty archetype holds at most 4 KiB
            // (64 rows of the widest shape: entity, Position, Stats, Level columns, each 64-byte aligned).
            assertTrue(now.nativeReserved() - before.nativeReserved() <= newArchetypes * 4 * KIB,
                    "native bytes grew without new archetypes: " + before + " -> " + now);
        }
        // Slabs are kept for reuse, never returned while the world lives: at most one more once warm.
        assertTrue(last.nativeFootprint() <= first.nativeFootprint() + 1024 * KIB, first + " -> " + last);
        // Heap: an archetype costs a few KiB of heap (its table, column views, query entries); 16 KiB each is
        // generous. 256 KiB on top absorbs collector noise; a leak of 4 bytes per entity and round would exceed
        // it over these rounds (8,000 entities x 6 rounds x 4 B = 192 KiB, plus what each round's peak adds).
        long allowed = (last.archetypes() - first.archetypes()) * 16 * KIB + 256 * KIB;
        assertTrue(last.heapAfterGc() - first.heapAfterGc() <= allowed, "heap after GC grew "
                + (last.heapAfterGc() - first.heapAfterGc()) + " bytes (allowed " + allowed + "): " + first + " -> "
                + last);
    }

    @Test
    void nativeComponentsCreateNoHeapObjectPerEntity() {
        int count = 1_000_000;
        double natives = MemorySoak.heapBytesPerEntity(count, List.<Input>of(POSITION, VELOCITY, STATS));
        double tags = MemorySoak.heapBytesPerEntity(count, List.<Input>of(MARKED));
        System.out.printf("heap per entity: %.2f bytes with three native components, %.2f with a tag only%n",
                natives, tags);
        // The entity index is the one per-entity heap structure: per slot an int generation, a byte state, an int
        // table, an int row and an int free-list position (17 bytes), arrays sized to maxEntities. Any heap
        // object per entity would add at least 16 bytes (header and padding) and a 4-byte reference.
        assertTrue(natives < 24, "heap per native-only entity: " + natives + " bytes");
        // A tag-only entity carries the same index entry and no column value: the native values must cost the
        // heap nothing beyond it (0.5 B/entity = 500 KB over the million, far above collector noise here).
        assertTrue(natives - tags < 0.5, "native values cost the heap " + (natives - tags) + " bytes per entity");
    }
}
