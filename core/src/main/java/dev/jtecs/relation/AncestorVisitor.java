package dev.jtecs.relation;

/** Receives each ancestor {@code walkUp} reaches (the direct parent at depth 1); returns whether to go on. */
@FunctionalInterface
public interface AncestorVisitor {
    boolean visit(long ancestor, int depth);
}
