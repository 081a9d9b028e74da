package dev.jtecs.kernels;

/** Which implementation of the kernels runs: the Vector API one, or its scalar twin (the specification). */
public enum KernelMode {
    /** {@code jdk.incubator.vector} kernels over whole vectors, with the scalar twin as the tail. */
    VECTOR,
    /** The scalar twins alone: plain loops, one row at a time. */
    SCALAR
}
