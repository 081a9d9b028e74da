package dev.jtecs.component.lookupfixture;

/** Package-private: a managed component (a record with a reference field), saved by the automatic snapshot codec. */
record Bag(String name, int count) {
}
