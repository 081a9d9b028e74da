/**
 * The {@code jtecs} command line: one picocli subcommand per job, launched by the {@code ./jtecs} script.
 *
 * <pre>
 *   ./jtecs particles  [--entities N] [--frames F] [--kernels scalar|vector] [--seed S] [--report DIR]
 *   ./jtecs transforms [same options]
 *        JtecsCommand ──► ParticlesCommand | TransformsCommand (FrameJobCommand: options, loop, summary, report)
 *                              ──► ParticleSimulation | TransformsSimulation (FrameWorkload)
 * </pre>
 *
 * <p>Invariants: every option is checked before anything runs; a bad option exits 2 with a message naming it
 * and the usage; a completed run prints its summary table and checksum to standard output and exits 0; the
 * progress bar goes to standard error.
 */
package dev.jtecs.bench.cli;
