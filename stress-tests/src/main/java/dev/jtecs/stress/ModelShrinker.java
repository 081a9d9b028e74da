package dev.jtecs.stress;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Shrinks a failing {@link ModelScript} to a small one that still fails with the same kind of mismatch
 * ({@link ModelMismatch#kind()}): operations after the failing one are dropped, then delta debugging (ddmin)
 * removes chunks of operations while a candidate still fails, then each operation's {@link ModelOp#simpler()}
 * variants are tried, and handles are renumbered from 0. Every candidate runs from scratch on a fresh world and
 * reference; only candidates that fail with the same kind are kept, so the result always reproduces.
 *
 * <p>The work is bounded by a time budget: when it runs out, the smallest failing script found so far is the
 * result ({@link Result#complete()} false).
 */
public final class ModelShrinker {
    /** A shrinking's outcome: the shrunk script, the mismatch it gives, and what the shrinking cost. */
    public record Result(ModelScript original, ModelScript shrunk, ModelMismatch mismatch, int executions,
            boolean complete, Duration took) {
        /** The shrunk script as a JUnit 5 test class whose comment names the mismatch. */
        public String junit() {
            return shrunk.toJunit("Shrunk from " + original.ops().size() + " to " + shrunk.ops().size()
                    + " operations; the mismatch it reproduces:\n" + mismatch.detail());
        }
    }

    private final String kind;
    private final Supplier<WorldCalls> calls;
    private final long deadline;
    private int executions;
    private boolean complete = true;

    private ModelShrinker(String kind, Supplier<WorldCalls> calls, Duration budget) {
        this.kind = kind;
        this.calls = calls;
        this.deadline = System.nanoTime() + budget.toNanos();
    }

    /** Shrinks the script of a mismatch that the plain world gave. */
    public static Result shrink(ModelMismatch failure, Duration budget) {
        if (failure.script() == null) {
            throw new IllegalArgumentException("the mismatch carries no script (seed=" + failure.seed() + ")");
        }
        return shrink(failure.script(), failure, () -> WorldCalls.DIRECT, budget);
    }

    /**
     * Shrinks {@code script}, which failed with {@code failure} when run through the calls {@code calls} makes
     * (a fresh façade per run, for façades that count).
     */
    public static Result shrink(ModelScript script, ModelMismatch failure, Supplier<WorldCalls> calls,
            Duration budget) {
        Objects.requireNonNull(script, "script");
        Objects.requireNonNull(failure, "failure");
        long start = System.nanoTime();
        ModelShrinker shrinker = new ModelShrinker(failure.kind(), calls, budget);
        List<ModelOp> ops = new ArrayList<>(script.ops());
        if (failure.step() < ops.size()) {
            ops = new ArrayList<>(ops.subList(0, failure.step() + 1)); // nothing after the failing operation ran
        }
        ModelScript best = script.withOps(ops);
        ModelMismatch mismatch = shrinker.failure(best);
        if (mismatch == null) { // the truncation lost it (it should not): shrink the whole script instead
            best = script;
            mismatch = failure;
        }
        for (int round = 0; round < 4; round++) {
            ModelScript before = best;
            best = shrinker.ddmin(best);
            best = shrinker.simplify(best);
            if (best.equals(before) || shrinker.late()) {
                break;
            }
        }
        ModelScript renumbered = ModelHandles.renumber(best);
        if (!renumbered.equals(best) && shrinker.failure(renumbered) != null) {
            best = renumbered;
        }
        ModelMismatch last = shrinker.failure(best);
        return new Result(script, best, last != null ? last : mismatch, shrinker.executions,
                shrinker.complete, Duration.ofNanos(System.nanoTime() - start));
    }

    /** Delta debugging over the operations: keeps any chunk or complement that still fails. */
    private ModelScript ddmin(ModelScript script) {
        List<ModelOp> ops = script.ops();
        int n = 2;
        while (ops.size() >= 2 && !late()) {
            List<List<ModelOp>> chunks = split(ops, n);
            List<ModelOp> reduced = null;
            for (int i = 0; i < chunks.size() && reduced == null && !late(); i++) {
                List<ModelOp> complement = new ArrayList<>(ops.size());
                for (int j = 0; j < chunks.size(); j++) {
                    if (j != i) {
                        complement.addAll(chunks.get(j));
                    }
                }
                if (fails(script.withOps(complement))) {
                    reduced = complement;
                    n = Math.max(n - 1, 2);
                }
            }
            for (int i = 0; i < chunks.size() && reduced == null && n > 2 && !late(); i++) {
                if (fails(script.withOps(chunks.get(i)))) {
                    reduced = chunks.get(i);
                    n = 2;
                }
            }
            if (reduced != null) {
                ops = reduced;
            } else if (n >= ops.size()) {
                break;
            } else {
                n = Math.min(ops.size(), 2 * n);
            }
        }
        if (ops.size() == 1 && fails(script.withOps(List.of()))) {
            ops = List.of(); // the closing commit alone fails
        }
        return script.withOps(ops);
    }

    /** Replaces operations by simpler variants that still fail, until none helps. */
    private ModelScript simplify(ModelScript script) {
        List<ModelOp> ops = new ArrayList<>(script.ops());
        for (int i = 0; i < ops.size() && !late(); i++) {
            boolean changed = true;
            while (changed && !late()) {
                changed = false;
                for (ModelOp simpler : ops.get(i).simpler()) {
                    List<ModelOp> candidate = new ArrayList<>(ops);
                    candidate.set(i, simpler);
                    if (fails(script.withOps(candidate))) {
                        ops = candidate;
                        changed = true;
                        break;
                    }
                }
            }
        }
        return script.withOps(ops);
    }

    private static List<List<ModelOp>> split(List<ModelOp> ops, int n) {
        List<List<ModelOp>> chunks = new ArrayList<>(n);
        int size = ops.size();
        for (int i = 0; i < n; i++) {
            int from = (int) ((long) size * i / n);
            int to = (int) ((long) size * (i + 1) / n);
            if (from < to) {
                chunks.add(ops.subList(from, to));
            }
        }
        return chunks;
    }

    private boolean fails(ModelScript candidate) {
        return failure(candidate) != null;
    }

    /** The candidate's mismatch when it fails with the kind being shrunk, else {@code null}. */
    private ModelMismatch failure(ModelScript candidate) {
        executions++;
        try {
            new ModelRun(candidate, calls.get()).run();
            return null;
        } catch (ModelMismatch mismatch) {
            return kind.equals(mismatch.kind()) ? mismatch : null;
        }
    }

    private boolean late() {
        if (System.nanoTime() - deadline > 0) {
            complete = false;
            return true;
        }
        return false;
    }
}
