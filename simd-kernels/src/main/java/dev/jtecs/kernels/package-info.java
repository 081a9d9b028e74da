/**
 * Column kernels: system kernels that run across whole columns of jtecs archetypes, and the bookkeeping an engine
 * needs around them. A kernel declares the columns it writes and reads and when its writes count
 * ({@link dev.jtecs.kernels.ColumnKernel}, {@link dev.jtecs.kernels.KernelColumns},
 * {@link dev.jtecs.kernels.WritePolicy}); {@link dev.jtecs.kernels.KernelRunner} hands it one archetype's segments at a
 * time and marks dirty exactly the components it wrote. The arithmetic sits behind one ops interface per family
 * ({@code ParticleOps}, {@code TransformOps}, {@code LifetimeOps}, {@code LifetimeLerpOps}, {@code FillOps},
 * {@code BoundsOps}, {@code SumOps}), each with two twins: {@code Scalar<Ops>} here, a plain loop that is the
 * specification (its interface's {@code SCALAR}), and {@code Vector<Ops>} in {@link dev.jtecs.kernels.vector}, which
 * {@link dev.jtecs.kernels.KernelProvider} picks once per JVM when the Vector API pays. The named kernels
 * ({@code MotionKernels}, {@code Motion3DKernels}, {@code TransformKernels}, {@code OverLifetime}), the passes and
 * systems ({@code LifetimeCountdown}, {@code LifetimeSystem}, {@code HierarchyComposer}, {@code BoundsReducer},
 * {@code BatchFill}, {@code KernelSystems}) take an ops instance or the provider's. The parallel passes are in
 * {@link dev.jtecs.kernels.parallel}; both other packages build on this one, which names neither.
 *
 * <pre>
 *   KernelProvider ──(once: module readable? C2 on? -Djtecs.kernels)──► ParticleOps: Vector..INSTANCE | SCALAR
 *                   (the vector twin found by name: kernels.vector.Vector + "ParticleOps")
 *   MotionKernels.integrate2d(ops, X, Y, DX, DY) ──► ColumnKernel { KernelColumns: writes, reads, WritePolicy }
 *   KernelRunner.run(query, kernel, dt):
 *       for each archetype with rows: segments of its columns ──► kernel.run(segments, count, dt)
 *                                     ──► markDirty(each written component)   [ALWAYS, or if changed]
 *   TransformKernels.affine2d(ops) / model3d(ops): Transform2D ──► Affine2D (2x3), Transform3D ──► Model3D (4x4)
 *   LifetimeCountdown.countDown(query, dt): TTL.remaining -= dt (LifetimeOps) ──► spent ids ──► despawnExpired
 *   Motion3DKernels.integrate3d / gravity3d / damping3d / wrap3d / clamp3d: the 2D kernels' arithmetic per axis
 *   OverLifetime.colour / size / lerp: TTL ──► t = (float) percentComplete ──► (1 - t) * start + t * end
 *   World.batchSpawn(n, inputs, BatchFill) ──► rows [from, to) ──► FillOps: constant | range | uniform(key, row)
 *   HierarchyComposer.compose(world): plan (rebuilt when World.structureVersion() moves) ──► per archetype:
 *       parent pose, (float) cos/sin once ──► TransformOps.compose2d ──changed?──► mark Transform2D
 *   KernelSystems.install(world): jtecs.TTL ─► LifetimeSystem, jtecs.RelativeTransform2D ─► HierarchyComposer
 *   BoundsReducer.bounds2d(query, x, y): BoundsOps.minMax per column ──► Bounds2D        (reads only)
 * </pre>
 *
 * <p>Invariants: the two twins of an operation agree bit for bit, NaN payloads aside where arithmetic produces them
 * (the exceptions: lanewise SIN/COS in {@code affine2d}, within a few ulps, see
 * {@link dev.jtecs.kernels.vector.VectorTransformOps}, and a sum, within a tolerance, see
 * {@link dev.jtecs.kernels.SumOps}); unconditional kernels may write the padding rows of a column, conditional ones
 * never change them (a change they report is a real row's), and fills touch no row outside their range; a kernel's
 * run allocates nothing and never marks dirty state itself. A scalar twin never touches {@code jdk.incubator.vector}
 * or the vector package, so this package loads and runs where that module is absent; no class here names
 * {@code kernels.vector} or {@code kernels.parallel} in code (the module's architecture test holds all three).
 */
package dev.jtecs.kernels;
