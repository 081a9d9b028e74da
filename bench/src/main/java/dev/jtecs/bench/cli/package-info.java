/**
 * The {@code jtecs} command line: one picocli subcommand per job, launched by the {@code ./jtecs} script.
 *
 * <pre>
 *   ./jtecs particles --entities N --frames F ──► JtecsCommand ──► ParticlesCommand ──► ParticleSimulation
 * </pre>
 *
 * <p>Invariants: every job prints its summary to standard output and returns exit code 0; bad options exit 2.
 */
package dev.jtecs.bench.cli;
