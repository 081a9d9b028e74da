package dev.jtecs.bench.peers;

import dev.dominion.ecs.api.Dominion;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Creates the Dominion worlds of the benchmarks with a class index that cannot confuse two of their component
 * classes.
 *
 * <p>Dominion 0.9.0 finds a component class's index by the top {@code class-index-bit} bits of its identity hash
 * code (20 by default) and does not check which class owns the slot it finds: two classes whose capped hashes
 * agree share an index, and the next {@code createEntity} with both throws "Duplicate object types are not
 * allowed". Identity hashes depend on what else the JVM did first, so an unrelated change elsewhere can make two
 * of our classes collide in every run from then on (it did: the bench tests failed after the engine began
 * spinning a class per record type). So before each world is created, this computes the capped hashes of every
 * Dominion component class the benchmarks use, picks the fewest bits from 20 (Dominion's default) to 24 (its
 * maximum) at which they are all distinct, and names it for that world ({@code dominion.<name>.class-index-bit}).
 * The hashes are fixed once computed, and Dominion computes the same ones, so the choice holds for the run.
 */
public final class DominionWorlds {
    private static final int DEFAULT_BITS = 20;
    private static final int MAX_BITS = 24;
    private static final String NAME = "jtecs-bench";

    private DominionWorlds() {}

    /** A new Dominion world whose class index tells every benchmark component class apart. */
    public static synchronized Dominion create() {
        System.setProperty("dominion." + NAME + ".class-index-bit", Integer.toString(safeBits(componentClasses())));
        return Dominion.create(NAME);
    }

    /**
     * The fewest class-index bits, from Dominion's default, at which the given classes' capped identity hashes
     * are distinct.
     *
     * @throws IllegalStateException when even Dominion's maximum leaves two of them on one index
     */
    static int safeBits(List<Class<?>> classes) {
        for (int bits = DEFAULT_BITS; bits <= MAX_BITS; bits++) {
            Set<Integer> seen = new HashSet<>();
            boolean distinct = true;
            for (Class<?> type : classes) {
                distinct &= seen.add(System.identityHashCode(type) >> (32 - bits));
            }
            if (distinct) {
                return bits;
            }
        }
        throw new IllegalStateException("two Dominion component classes share a class index at every size up to "
                + MAX_BITS + " bits: " + classes);
    }

    /** Every class the benchmarks hand Dominion as a component: the nested Dominion classes of the peer types. */
    static List<Class<?>> componentClasses() {
        List<Class<?>> classes = new ArrayList<>();
        for (Class<?> holder : List.of(PeerComponents.class, PeerTags.class)) {
            for (Class<?> nested : holder.getDeclaredClasses()) {
                if (nested.getSimpleName().startsWith("Dominion")) {
                    classes.add(nested);
                }
            }
        }
        return classes;
    }
}
