package dev.jtecs.stress;

import java.util.List;

/** The engine and the reference model disagreed: carries what is needed to replay the run. */
public final class ModelMismatch extends AssertionError {
    private final long seed;
    private final int step;

    public ModelMismatch(long seed, int step, String message, List<String> lastOperations) {
        super("model mismatch (replay with seed=" + seed + ", failing at operation #" + step + "): " + message
                + "\nlast operations:\n  " + String.join("\n  ", lastOperations));
        this.seed = seed;
        this.step = step;
    }

    public long seed() {
        return seed;
    }

    public int step() {
        return step;
    }
}
