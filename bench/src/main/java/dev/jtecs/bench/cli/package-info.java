/**
 * The {@code jtecs} command line: one picocli subcommand per job, launched by the {@code ./jtecs} script.
 *
 * <pre>
 *   ./jtecs particles --entities N --frames F ──► JtecsCommand ──► ParticlesCommand ──► ParticleSimulation
 *   ./jtecs stress --minutes N --seed S       ──► JtecsCommand ──► StressCommand    ──► ModelSweep (stress-tests)
 * </pre>
 *
 * <p>Invariants: every job prints its summary to standard output and returns exit code 0; bad options exit 2;
 * {@code stress} exits 1 when it finds a mismatch.
 */
package dev.jtecs.bench.cli;
