/**
 * The vector twins: for each ops interface {@code XOps} of {@link dev.jtecs.kernels}, the final class
 * {@code VectorXOps} implements it with {@code jdk.incubator.vector}, and holds its one {@code INSTANCE}, its lane
 * helpers ({@code lanes()}, {@link dev.jtecs.kernels.vector.VectorParticleOps#paddedCount}) and its {@code warmUp()}.
 * This is the only package of jtecs that uses the Vector API. {@code KernelProvider} reaches it by name, and only once
 * it has found the module readable and C2 on, so nothing loads these classes by accident where vectors cannot run;
 * code that wants the vector kernels whatever the provider chose (the bench's plain-segment baselines, the twin tests)
 * names {@code VectorXOps.INSTANCE}. A twin runs whole vectors and leaves to its scalar twin, {@code ScalarXOps}, the
 * rows a vector may not cover.
 *
 * <pre>
 *   KernelProvider ──(vector chosen)──► "dev.jtecs.kernels.vector.Vector" + "ParticleOps" .INSTANCE ──► ParticleOps
 *   VectorXOps.op(segments, count):
 *     unconditional (integrate, accelerate, scale, countdown, matrices, lerp):
 *         whole vectors over [0, paddedCount(count))       the rows past count are padding: written, never seen
 *     conditional, reductions (wrap, clamp, minMax, sum):
 *         whole vectors over [0, count - count % lanes) ──► ScalarXOps.op(segment, body, count)   the tail
 *     compose2d: whole vectors to the padded bound; lanes past count store their own bits back
 *     fills, rows [from, to): ScalarFillOps head ──► whole vectors from the first aligned row ──► ScalarFillOps tail
 * </pre>
 *
 * <p>Invariants: each twin agrees with its scalar twin bit for bit (the same operations in the same order, no fused
 * multiply-add; NaN payloads of arithmetic aside, {@code affine2d}'s lanewise SIN/COS within a few ulps, a sum within
 * a tolerance); species are {@code static final}, and only the preferred species of each element type appear (a
 * second float species makes the Vector API's shared call sites polymorphic, and every kernel then allocates); once
 * C2 has compiled it, a call allocates nothing. Loops hold only arithmetic, with copies and constants in bulk calls
 * and small separate loops, so they stay within C2's inlining budget (see {@code VectorTransformOps}); a twin never
 * reaches into {@link dev.jtecs.kernels.parallel}, and the API package never names this one in code.
 */
package dev.jtecs.kernels.vector;
