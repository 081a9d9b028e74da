/** Vector API kernels over jtecs columns, each with a scalar twin. The only module that reads jdk.incubator.vector. */
module dev.jtecs.kernels {
    requires dev.jtecs.core;
    requires jdk.incubator.vector;
    exports dev.jtecs.kernels;
}
