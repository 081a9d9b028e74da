/** Randomized model tests, fault injection, bad-input tables and memory soaks for jtecs. */
module dev.jtecs.stress {
    requires dev.jtecs.core;
    requires java.management; // heap use after collection, for the memory soak
    exports dev.jtecs.stress;
}
