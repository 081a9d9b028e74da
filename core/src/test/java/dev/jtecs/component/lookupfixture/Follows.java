package dev.jtecs.component.lookupfixture;

/** Package-private: a payload relationship's record (its {@code long target} names the followed entity). */
record Follows(long target, float weight) {
}
