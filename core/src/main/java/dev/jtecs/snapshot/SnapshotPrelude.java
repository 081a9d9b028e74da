package dev.jtecs.snapshot;

import java.util.List;

/**
 * What a snapshot says about itself, validated: returned by a load and handed to its events and handlers.
 *
 * @param version the framing version ({@link Snapshot#VERSION}), independent of any game data version
 * @param nextEntityId the next fresh entity slot after restoration: slots below it have been used
 * @param entityCount the number of saved entities
 * @param archetypeCount the number of saved archetype frames
 * @param componentTable the saved components in frame-index order
 */
public record SnapshotPrelude(int version, int nextEntityId, long entityCount, int archetypeCount,
        List<SnapshotComponentEntry> componentTable) {
    public SnapshotPrelude {
        componentTable = List.copyOf(componentTable);
    }
}
