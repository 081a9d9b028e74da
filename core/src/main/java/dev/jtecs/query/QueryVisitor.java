package dev.jtecs.query;

import dev.jtecs.storage.Archetype;

/** Visits one non-empty matching archetype: its rows are {@code [0, count)}. */
@FunctionalInterface
public interface QueryVisitor {
    void visit(Archetype archetype, int count);
}
