/** Randomized model tests, fault injection and soak runs for jtecs. */
module dev.jtecs.stress {
    requires dev.jtecs.core;
    exports dev.jtecs.stress;
}
