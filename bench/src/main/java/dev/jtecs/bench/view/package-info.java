/**
 * The frame jobs in front of the viewer of {@code native-bindings}: {@link dev.jtecs.bench.view.WorkloadScene}
 * takes a {@code particles} or {@code transforms} workload, swaps its extraction system for the dirty-driven GL
 * upload, and says how its entities are drawn (which columns are x, y and colour).
 *
 * <pre>
 *   ParticleSimulation | TransformsSimulation ──► WorkloadScene ──► DirtyUploader ──► GlColumnBuffers
 *        (world.update: the job's systems,           (system view.Upload, RENDER)         │
 *         then the upload)                                                  PointRenderer ◄┘ ──► Viewer
 * </pre>
 *
 * <p>Invariants: the upload is the frame's only consumer of dirty state; the job's state is the same with or
 * without the viewer (the upload only reads columns); every GL call happens on the frame thread.
 */
package dev.jtecs.bench.view;
