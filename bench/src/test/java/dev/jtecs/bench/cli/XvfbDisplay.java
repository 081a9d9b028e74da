package dev.jtecs.bench.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Test support: a private X server (Xvfb, with Mesa's software OpenGL behind it) for tests that open a real
 * window in a child JVM. It picks a free display number itself ({@code -displayfd}) and is stopped on close.
 * A machine without Xvfb fails the test with the command that installs it: no test is skipped for want of a
 * display ({@code .ci/run} installs the packages on CI).
 */
final class XvfbDisplay implements AutoCloseable {
    static final String INSTALL = "apt-get install -y xvfb libgl1-mesa-dri libglx-mesa0 libegl-mesa0";

    private final Process server;
    private final String display;

    private XvfbDisplay(Process server, String display) {
        this.server = server;
        this.display = display;
    }

    /** Starts an Xvfb server and waits until it accepts clients (it prints its display number then). */
    static XvfbDisplay start() throws IOException {
        Path xvfb = Path.of("/usr/bin/Xvfb");
        if (!Files.isExecutable(xvfb)) {
            throw new AssertionError("Xvfb is not installed (" + xvfb + "); install it: " + INSTALL);
        }
        Process server = new ProcessBuilder(xvfb.toString(), "-displayfd", "1", "-nolisten", "tcp", "-screen", "0",
                "1024x768x24").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader lines = new BufferedReader(new InputStreamReader(server.getInputStream(),
                    StandardCharsets.US_ASCII));
            String number = lines.readLine(); // written once the server is ready
            if (number == null || !number.strip().matches("\\d+")) {
                throw new AssertionError("Xvfb did not report a display number (got " + number + ")");
            }
            return new XvfbDisplay(server, ":" + number.strip());
        } catch (IOException | RuntimeException | Error e) {
            server.destroyForcibly();
            throw e;
        }
    }

    /** The value of {@code DISPLAY} for clients of this server. */
    String display() {
        return display;
    }

    @Override
    public void close() {
        server.destroy();
        try {
            if (!server.waitFor(5, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        } catch (InterruptedException e) {
            server.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
