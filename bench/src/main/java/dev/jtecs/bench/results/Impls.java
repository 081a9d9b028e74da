package dev.jtecs.bench.results;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The implementation names a result may carry, and the order tables and charts list them in.
 *
 * <p>{@link #STANDARD} are the names WORKLOADS.md defines. A workload may add a variant of jtecs or of a plain
 * baseline under a kebab-case name that starts with {@code jtecs-} or {@code plain-} (such as
 * {@code jtecs-reused-world}); no other names are accepted, so a peer can never hide under a new name.
 */
public final class Impls {
    /** The engine, the way its guides teach. */
    public static final String JTECS = "jtecs";
    /** The engine with its kernels' scalar twins. */
    public static final String JTECS_SCALAR = "jtecs-scalar";
    /**
     * The engine's instant path: the same per-entity calls as {@link #JTECS} outside any {@code defer} scope, each
     * published before it returns (the per-entity workloads, where the staged and the instant path differ).
     */
    public static final String JTECS_INSTANT = "jtecs-instant";
    /** A plain {@code float[]} struct-of-arrays loop. */
    public static final String PLAIN_ARRAY = "plain-array";
    /** A frame's steps as one hand-written loop over plain arrays (the fused workloads' floor). */
    public static final String PLAIN_ARRAY_FUSED = "plain-array-fused";
    /** A {@code FloatVector} loop over bare aligned {@code MemorySegment}s. */
    public static final String PLAIN_SEGMENT_VECTOR = "plain-segment-vector";
    /** Dominion 0.9.0. */
    public static final String DOMINION = "dominion";
    /** Artemis-odb 2.3.0. */
    public static final String ARTEMIS = "artemis";
    /** Ashley 1.7.4. */
    public static final String ASHLEY = "ashley";

    /** The names of WORKLOADS.md, in display order. */
    public static final List<String> STANDARD =
            List.of(JTECS, JTECS_SCALAR, PLAIN_ARRAY, PLAIN_SEGMENT_VECTOR, PLAIN_ARRAY_FUSED, DOMINION, ARTEMIS,
                    ASHLEY);

    private static final Pattern VARIANT = Pattern.compile("(jtecs|plain)(-[a-z0-9]+)+");

    private Impls() {}

    /** Whether {@code impl} is a standard name or a well-formed jtecs or plain variant. */
    public static boolean isValid(String impl) {
        return STANDARD.contains(impl) || VARIANT.matcher(impl).matches();
    }

    /** Returns {@code impl}, or throws when it is not {@link #isValid valid}. */
    public static String check(String impl) {
        if (!isValid(impl)) {
            throw new IllegalArgumentException("impl='" + impl + "' is neither one of " + STANDARD
                    + " nor a kebab-case variant starting with jtecs- or plain-");
        }
        return impl;
    }

    /**
     * The display rank: jtecs, then its variants, then the plain baselines and their variants, then the peers.
     * Names of equal rank sort by name.
     */
    public static int rank(String impl) {
        return switch (impl) {
            case JTECS -> 0;
            case JTECS_SCALAR -> 1;
            case PLAIN_ARRAY -> 3;
            case PLAIN_SEGMENT_VECTOR, PLAIN_ARRAY_FUSED -> 4;
            case DOMINION -> 6;
            case ARTEMIS -> 7;
            case ASHLEY -> 8;
            default -> impl.startsWith("jtecs-") ? 2 : 5;
        };
    }
}
