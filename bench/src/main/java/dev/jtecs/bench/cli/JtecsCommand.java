package dev.jtecs.bench.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code jtecs} command line: one subcommand per job. */
@Command(name = "jtecs", mixinStandardHelpOptions = true, version = "jtecs 0.1.0",
        description = "A data-oriented entity-component-system engine for Java 25.",
        subcommands = {ParticlesCommand.class, TransformsCommand.class, ViewCommand.class, BenchCommand.class,
            StressCommand.class})
public final class JtecsCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true"); // the report chart draws off screen
        }
        System.exit(new CommandLine(new JtecsCommand()).execute(args));
    }
}
