/**
 * SIMD kernels: system kernels that run across whole columns with {@code jdk.incubator.vector}, each paired with
 * a scalar twin that is its specification and its tail loop, and a runner that marks dirty exactly the columns a
 * kernel wrote. Filled by the simd-kernels issue; this module holds nothing else.
 */
package dev.jtecs.kernels;
