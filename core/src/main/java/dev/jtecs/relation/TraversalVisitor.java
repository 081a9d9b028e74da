package dev.jtecs.relation;

/** Receives the entities a traversal reaches, with their depth (direct children of the root at depth 0). */
@FunctionalInterface
public interface TraversalVisitor {
    void visit(long entity, int depth);
}
