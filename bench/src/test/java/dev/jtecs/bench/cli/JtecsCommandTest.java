package dev.jtecs.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;
import org.junit.jupiter.api.Test;

class JtecsCommandTest {
    @Test
    void listsItsSubcommandsAndFailsOnUnknownOnes() {
        CommandLine cli = new CommandLine(new JtecsCommand());
        assertTrue(cli.getSubcommands().containsKey("particles"));
        assertTrue(cli.getSubcommands().containsKey("transforms"));
        assertTrue(cli.getSubcommands().containsKey("stress"));
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));
        assertEquals(2, cli.execute("no-such-job"));
        assertTrue(err.toString().contains("no-such-job"), err.toString());
    }
}
