package dev.jtecs.snapshot;

/**
 * Delivered at address 0 at the end of a load, after entities, random streams, states, the pipeline and custom
 * data are restored and every handler's {@code finish} ran.
 *
 * @param prelude the loaded snapshot's prelude
 */
public record FinishSnapshotLoad(SnapshotPrelude prelude) {}
