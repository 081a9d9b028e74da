/**
 * Run reports of the frame-based jobs: the per-frame log a run fills, the summary computed from it, and the
 * report folder ({@code --report DIR}): a JSON of the whole run (Jackson) and a PNG chart of the frame times
 * (XChart).
 *
 * <pre>
 *   job loop ──► FrameLog.record(frame figures) ──► RunSummary.of(log, ...) ──► summary table (stdout)
 *                                                         └──► RunReport ──► DIR/&lt;workload&gt;.json
 *                                                                       └──► DIR/&lt;workload&gt;-frame-times.png
 * </pre>
 *
 * <p>Invariants: a report's JSON reads back into an equal {@code RunReport} (arrays compared by content);
 * the summary's frame-time and allocation figures cover only the frames after the warm-up, and come from
 * HdrHistogram (three significant digits).
 */
package dev.jtecs.bench.report;
