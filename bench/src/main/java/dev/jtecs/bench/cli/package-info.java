/**
 * The {@code jtecs} command line: one picocli subcommand per job, launched by the {@code ./jtecs} script.
 *
 * <pre>
 *   ./jtecs particles  [--entities N] [--frames F] [--kernels scalar|vector] [--threads T] [--seed S] [--report DIR]
 *   ./jtecs transforms [same options]
 *        JtecsCommand ──► ParticlesCommand | TransformsCommand (FrameJobCommand: options, loop, summary, report)
 *                              ──► ParticleSimulation | TransformsSimulation (FrameWorkload)
 *   ./jtecs view particles|transforms [--entities N] [--seed S] [--threads T] [--kernels K] [--frames F]
 *                [--screenshot FILE] ──► ViewCommand ──► WorkloadScene (the job, its extraction replaced by the
 *                                        GL upload) ──► Viewer: a window, or offscreen frames into a PNG
 *   ./jtecs bench [--quick] [--only W...] [--check-views]
 *                                          ──► BenchCommand  ──► SuiteRunner (JMH) ──► results JSON / MD / PNG
 *   ./jtecs stress --minutes N --seed S    ──► StressCommand ──► ModelSweep (stress-tests)
 * </pre>
 *
 * <p>Invariants: every option is checked before anything runs; a bad option exits 2 with a message naming it
 * and the usage; a completed job prints its summary to standard output and exits 0; {@code stress} exits 1 when
 * it finds a mismatch; {@code view} exits 1, after one line on standard error, when a window is asked for and
 * there is no display; progress goes to standard error.
 */
package dev.jtecs.bench.cli;
