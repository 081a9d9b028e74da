/**
 * The {@code jtecs} command line: one picocli subcommand per job, launched by the {@code ./jtecs} script.
 *
 * <pre>
 *   ./jtecs particles  [--entities N] [--frames F] [--kernels scalar|vector] [--threads T] [--seed S] [--report DIR]
 *   ./jtecs transforms [same options]
 *        JtecsCommand ──► ParticlesCommand | TransformsCommand (FrameJobCommand: options, loop, summary, report)
 *                              ──► ParticleSimulation | TransformsSimulation (FrameWorkload)
 *   ./jtecs bench [--quick] [--only W...] [--check-views]
 *                                          ──► BenchCommand  ──► SuiteRunner (JMH) ──► results JSON / MD / PNG
 *   ./jtecs stress --minutes N --seed S    ──► StressCommand ──► ModelSweep (stress-tests)
 * </pre>
 *
 * <p>Invariants: every option is checked before anything runs; a bad option exits 2 with a message naming it
 * and the usage; a completed job prints its summary to standard output and exits 0; {@code stress} exits 1 when
 * it finds a mismatch; progress goes to standard error.
 */
package dev.jtecs.bench.cli;
