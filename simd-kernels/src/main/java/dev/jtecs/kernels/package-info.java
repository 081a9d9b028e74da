/**
 * SIMD kernels: system kernels that run across whole columns with {@code jdk.incubator.vector}, each paired with
 * a scalar twin that is its specification and its tail loop, and a runner that marks dirty exactly the columns a
 * kernel wrote.
 *
 * <pre>
 *   KernelProvider ──(once: module readable? C2 on? -Djtecs.kernels)──► ParticleOps: vector | SCALAR
 *   MotionKernels.integrate2d(ops, X, Y, DX, DY) ──► ColumnKernel { KernelColumns: writes, reads, WritePolicy }
 *   KernelRunner.run(query, kernel, dt):
 *       for each archetype with rows: segments of its columns ──► kernel.run(segments, count, dt)
 *                                     ──► markComponentDirty(each written component)   [ALWAYS, or if changed]
 *   TransformKernels.affine2d(ops) / model3d(ops): Transform2D ──► Affine2D (2x3), Transform3D ──► Model3D (4x4)
 *   LifetimeCountdown.countDown(query, dt): TTL.remaining -= dt (LifetimeOps) ──► spent ids ──► despawnExpired
 *   Motion3DKernels.integrate3d / gravity3d / damping3d / wrap3d / clamp3d: the 2D kernels' arithmetic per axis
 *   OverLifetime.colour / size / lerp: TTL ──► t = (float) percentComplete ──► (1 - t) * start + t * end
 *   World.batchSpawn(n, inputs, BatchFill) ──► rows [from, to) ──► FillOps: constant | range | uniform(key, row)
 *   ParallelKernelRunner.run(query, kernel, dt): gather (calling thread) ──► 64-row aligned chunks ──► ForkJoinPool
 *       workers run the kernel on slices ──► join ──► mark dirty (calling thread)
 *       [CommandKernel] chunk ChunkCommands ──► rows to ids ──► applied in chunk order in one world scope
 *   ParallelLifetimeCountdown: the TTL countdown the same way; spent rows merged in chunk order
 *   HierarchyComposer.compose(world): plan (rebuilt when World.structureVersion() moves) ──► per archetype:
 *       parent pose, (float) cos/sin once ──► TransformOps.compose2d ──changed?──► mark Transform2D
 *   KernelSystems.install(world): jtecs.TTL ─► LifetimeSystem, jtecs.RelativeTransform2D ─► HierarchyComposer
 *   BoundsReducer.bounds2d(query, x, y): BoundsOps.minMax per column ──► Bounds2D        (reads only)
 * </pre>
 *
 * <p>Invariants: vector kernels agree with their twins ({@link dev.jtecs.kernels.ScalarParticleOps}) bit for bit,
 * NaN payloads aside where arithmetic produces them (the one exception: lanewise SIN/COS, within a few ulps, see
 * {@link dev.jtecs.kernels.TransformKernels}); species are {@code static final}, and only the preferred species of
 * each element type appear (a second float species makes the Vector API's shared call sites polymorphic, and every
 * kernel then allocates); unconditional kernels may write the padding rows of a column, conditional ones never
 * touch them (a change they report is a real row's), and fills touch no row outside their range; a kernel's run
 * allocates nothing and never marks dirty state itself. Parallel passes touch the world from the
 * calling thread only (workers see sliced segments, never an archetype or the world), and give the bytes, dirty
 * marks and structural results of the single-threaded pass for every thread count.
 */
package dev.jtecs.kernels;
