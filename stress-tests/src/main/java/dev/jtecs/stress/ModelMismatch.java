package dev.jtecs.stress;

import java.util.List;

/**
 * The engine and the reference model disagreed (or the engine threw where the reference expected nothing):
 * carries what is needed to replay the run, the script when one was executed, and the kind of disagreement
 * the shrinker preserves.
 */
public final class ModelMismatch extends AssertionError {
    private static final long serialVersionUID = 1L;

    private final long seed;
    private final int step;
    private final String detail;
    private final transient ModelScript script;

    public ModelMismatch(long seed, int step, String message, List<String> lastOperations) {
        this(seed, step, message, lastOperations, null);
    }

    /** A mismatch while executing {@code script}, at operation {@code step} ({@code ops().size()}: the closing commit). */
    public ModelMismatch(ModelScript script, int step, String message, List<String> lastOperations) {
        this(script.seed(), step, message, lastOperations, script);
    }

    private ModelMismatch(long seed, int step, String message, List<String> lastOperations, ModelScript script) {
        super("model mismatch (replay with seed=" + seed + ", failing at operation #" + step + "): " + message
                + "\nlast operations:\n  " + String.join("\n  ", lastOperations));
        this.seed = seed;
        this.step = step;
        this.detail = message;
        this.script = script;
    }

    public long seed() {
        return seed;
    }

    public int step() {
        return step;
    }

    /** What disagreed, without the replay header and the operation log. */
    public String detail() {
        return detail;
    }

    /** The script whose execution failed, or {@code null} when the mismatch was built from a seed alone. */
    public ModelScript script() {
        return script;
    }

    /**
     * The kind of disagreement: the detail up to the values each side gave ({@code " world="}), digits folded to
     * {@code #}, so the same check failing on other ids and values is the same kind.
     */
    public String kind() {
        return kindOf(detail);
    }

    static String kindOf(String detail) {
        String kind = detail;
        for (String cut : new String[] {" world=", ": world=", " model="}) {
            int at = kind.indexOf(cut);
            if (at >= 0) {
                kind = kind.substring(0, at);
            }
        }
        return kind.replaceAll("[0-9]+", "#");
    }
}
