package dev.jtecs.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code jtecs} launcher script at the repository root (not a class: this test runs the script). It must find
 * its repository however it is invoked: by path from another folder, or through symbolic links, relative ones
 * included. {@code JTECS_LAUNCHER_DRY_RUN=1} makes it print what it found instead of building and running.
 */
class LauncherScriptTest {
    /** Surefire runs in the bench module's folder; the script is one level up. */
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path SCRIPT = ROOT.resolve("jtecs");

    private static String dryRun(Path invoked, Path workingDirectory) throws IOException, InterruptedException {
        assumeTrue(Files.isExecutable(SCRIPT), "no executable launcher at " + SCRIPT);
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")) || Files.isExecutable(Path.of("/usr/bin/bash")),
                "bash is needed");
        ProcessBuilder builder = new ProcessBuilder(invoked.toString()).directory(workingDirectory.toFile())
                .redirectErrorStream(true);
        builder.environment().put("JTECS_LAUNCHER_DRY_RUN", "1");
        builder.environment().put("JAVA_HOME", System.getProperty("java.home")); // this JVM is a JDK 25
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the launcher did not finish: " + output);
        assertEquals(0, process.exitValue(), output);
        return output;
    }

    private static String expectedRoot() throws IOException {
        return "root=" + ROOT.toRealPath() + "\n";
    }

    @Test
    void findsItsRepositoryWhenCalledByPathFromAnotherFolder(@TempDir Path elsewhere) throws Exception {
        String output = dryRun(SCRIPT, elsewhere);
        assertTrue(output.startsWith(expectedRoot()), output);
        assertTrue(output.contains("jar=" + ROOT.toRealPath().resolve("bench/target/jtecs.jar")), output);
    }

    @Test
    void findsItsRepositoryThroughAnAbsoluteSymlink(@TempDir Path tmp) throws Exception {
        Path link = Files.createSymbolicLink(tmp.resolve("j"), SCRIPT);
        assertTrue(dryRun(link, tmp).startsWith(expectedRoot()));
    }

    @Test
    void findsItsRepositoryThroughAChainOfRelativeSymlinks(@TempDir Path tmp) throws Exception {
        Path first = Files.createSymbolicLink(tmp.resolve("first"), SCRIPT);
        Path bin = Files.createDirectories(tmp.resolve("home/bin"));
        Path second = Files.createSymbolicLink(bin.resolve("jtecs"), Path.of("../../first")); // relative to bin
        Path cwd = Files.createDirectories(tmp.resolve("somewhere/else"));
        assertTrue(Files.isSameFile(second, SCRIPT));
        assertTrue(dryRun(second, cwd).startsWith(expectedRoot()), first.toString());
    }
}
