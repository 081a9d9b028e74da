package dev.jtecs.component.lookupfixture;

/** Package-private: a native component the core reaches only through the module's lookup. */
record Secret(float x, int n) {
}
