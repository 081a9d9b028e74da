package dev.jtecs.bench.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Test support: runs the {@code jtecs} command line in-process and captures its exit code, stdout and stderr. */
record CliRun(int exit, String out, String err) {
    private static final Pattern CHECKSUM = Pattern.compile("checksum\\s+([0-9a-f]{16})");

    static CliRun of(String... args) {
        PrintStream original = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        int exit;
        try {
            CommandLine cli = new CommandLine(new JtecsCommand());
            cli.setErr(new PrintWriter(err, true));
            exit = cli.execute(args);
        } finally {
            System.setOut(original);
        }
        return new CliRun(exit, buffer.toString(StandardCharsets.UTF_8), err.toString());
    }

    /** The checksum the summary printed. */
    String checksum() {
        Matcher m = CHECKSUM.matcher(out);
        if (!m.find()) {
            throw new AssertionError("no checksum in:\n" + out + "\nstderr:\n" + err);
        }
        return m.group(1);
    }

    @Override
    public String toString() {
        return "exit=" + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
}
