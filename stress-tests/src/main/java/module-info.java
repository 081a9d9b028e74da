/** Randomized model tests, fault injection, bad-input tables and memory soaks for jtecs. */
module dev.jtecs.stress {
    requires transitive dev.jtecs.core; // the model and fault types name components, inputs and worlds
    requires dev.jtecs.kernels; // the parallel kernel runner, whose worker threads the fault runs arm
    requires java.management; // heap use after collection, for the memory soak
    exports dev.jtecs.stress;
}
