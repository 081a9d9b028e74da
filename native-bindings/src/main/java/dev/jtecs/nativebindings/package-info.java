/**
 * Native bindings: columns handed to native code without a copy on the Java heap. A {@link
 * dev.jtecs.nativebindings.DirtyUploader} runs late in a frame, visits the archetypes that turned dirty, and sends
 * only their dirty columns (or, for structural changes the row residue describes, only the appended and
 * overwritten rows) from each column's native address into an {@link dev.jtecs.nativebindings.UploadTarget};
 * {@link dev.jtecs.nativebindings.GlColumnBuffers} is the OpenGL one. A {@link
 * dev.jtecs.nativebindings.PointRenderer} draws those buffers as points, a {@link dev.jtecs.nativebindings.Viewer}
 * runs the frame loop in a window or offscreen, and {@link dev.jtecs.nativebindings.GlContext} owns the one GLFW
 * context.
 *
 * <pre>
 *   world.update ─► ... systems ... ─► RENDER: uploader.upload(world)
 *                                        │ per dirty archetype, per dirty column: nglBufferSubData(address + row * size)
 *                                        ▼
 *                                  GlColumnBuffers (one GL buffer per field, one region of rows per archetype)
 *                                        │ vertex attributes, glMultiDrawArrays over the regions
 *                                        ▼
 *                                  PointRenderer ─► window (Viewer.runWindow) or OffscreenFrame ─► PNG
 * </pre>
 *
 * <p>Invariants: this is the only module that makes restricted native calls (the core makes none); every GL call
 * happens on the thread where the {@link dev.jtecs.nativebindings.GlContext} was opened; after an upload the
 * regions mirror their archetypes' rows bit for bit.
 */
package dev.jtecs.nativebindings;
