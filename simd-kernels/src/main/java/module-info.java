/**
 * Vector API kernels over jtecs columns, each with a scalar twin. The only module that reads jdk.incubator.vector,
 * and in it only {@code dev.jtecs.kernels.vector} uses it.
 */
module dev.jtecs.kernels {
    requires transitive dev.jtecs.core; // the kernel API takes and returns core types (components, fields, archetypes)
    requires jdk.incubator.vector;
    exports dev.jtecs.kernels;
    exports dev.jtecs.kernels.parallel;
    exports dev.jtecs.kernels.vector;
}
