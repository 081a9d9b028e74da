/**
 * Relationships as the world exposes them beyond components: the visitor types of its walks along edges.
 *
 * <p>An edge {@code REL.to(target)} is declared in {@code dev.jtecs.component} and stored by {@code storage} (a
 * dense edge is a pair component of the source's archetype, a sparse one an entry of the world's edge store); what
 * follows from edges lives in {@code relation.internal}: reads from a target to its sources, the walks, and what a
 * dying target does to the edges pointing at it.
 *
 * <pre>
 *   World.traverse(root, REL, visitor)  ──► TraversalVisitor.visit(entity, depth)   children first, depth 0
 *   World.walkUp(id, REL, visitor)      ──► AncestorVisitor.visit(ancestor, depth)  parent at depth 1 ... stop: false
 * </pre>
 *
 * <p>Invariants: walks read published edges only, visit each entity at most once, and allocate nothing per entity;
 * a visitor may start another walk (it gets scratch of its own).
 */
package dev.jtecs.relation;
