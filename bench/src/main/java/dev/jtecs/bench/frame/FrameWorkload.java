package dev.jtecs.bench.frame;

/**
 * One frame-based job as the command line and the benchmarks drive it: built and populated by its constructor,
 * then {@link #frame()} over and over, then {@link #checksum()} and {@link #close()}.
 *
 * <p>Invariants: deterministic (the same parameters give the same state after every frame, byte for byte);
 * the counters and the extraction figures describe the frames run so far.
 */
public interface FrameWorkload extends AutoCloseable {
    /** The workload's name in the workload table ({@code particles}, {@code transforms}). */
    String name();

    /** Runs one frame. */
    void frame();

    /** Live entities now. */
    int liveCount();

    /** Entities spawned by frames so far (the initial population excluded). */
    long spawned();

    /** Entities expired (despawned) by frames so far. */
    long expired();

    /** The extraction step of this workload. */
    DirtyExtractor extractor();

    /** Native bytes held: the world's columns plus the extraction buffer. */
    long nativeBytes();

    /** The fingerprint of the current state (see {@link StateChecksum}). */
    long checksum();

    @Override
    void close();
}
