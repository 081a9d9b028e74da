package dev.jtecs.bench.suite;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * The native library of async-profiler that {@code jtecs bench --profile} hands to JMH's {@code AsyncProfiler}:
 * the build bundles the Linux x64 one (the {@code tools.profiler:async-profiler} jar of that classifier), and a
 * fork loads it from a file, so {@link #extractInto} copies it out of the class path first.
 *
 * <p>Why not JFR: on the short per-entity paths JFR's samples land far from where the time goes. It put 65% of the
 * {@code reparent} benchmark's samples on the allocation of the edge value, which async-profiler put at 2.5% and
 * which, made beforehand, saved about 4%. async-profiler samples where the thread is (its {@code cpu} event) and
 * lands within a few instructions of the cost, not always on it: it charged 12% of the {@code remove} benchmark
 * to a check whose removal saved nothing measurable. Take a profile as a lead and confirm it by ablation.
 */
public final class AsyncProfilerLibrary {
    private AsyncProfilerLibrary() {}

    /** Where the library sits on the class path (in the jar of the {@code linux-x64} classifier). */
    static final String RESOURCE = "linux-x64/libasyncProfiler.so";

    /** The library's file name once extracted. */
    static final String FILE_NAME = "libasyncProfiler.so";

    /**
     * Why this JVM cannot load the bundled library, or {@code null} when it can: only Linux on x86-64 is bundled.
     * {@code osName} and {@code osArch} are the {@code os.name} and {@code os.arch} system properties.
     */
    static String unsupported(String osName, String osArch) {
        String arch = osArch.toLowerCase(Locale.ROOT);
        if (osName.toLowerCase(Locale.ROOT).startsWith("linux") && (arch.equals("amd64") || arch.equals("x86_64"))) {
            return null;
        }
        return "--profile needs Linux on x86-64: the build bundles async-profiler's library for that platform only "
                + "(this JVM runs on " + osName + " " + osArch + ")";
    }

    /** {@link #unsupported(String, String)} for this JVM. */
    public static String unsupportedHere() {
        return unsupported(System.getProperty("os.name", "?"), System.getProperty("os.arch", "?"));
    }

    /**
     * Copies the bundled library into {@code directory} (created if missing) as {@value #FILE_NAME}, replacing an
     * older copy, and returns its path.
     *
     * @throws IllegalStateException when the class path lacks the library (a build without the dependency)
     * @throws UncheckedIOException when the file cannot be written
     */
    public static Path extractInto(Path directory) {
        try (InputStream in = AsyncProfilerLibrary.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("async-profiler's library (" + RESOURCE + ") is not on the class path; "
                        + "build the bench module with its dependencies (mvn package -pl bench -am)");
            }
            Files.createDirectories(directory);
            Path library = directory.resolve(FILE_NAME);
            Files.copy(in, library, StandardCopyOption.REPLACE_EXISTING);
            return library;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write async-profiler's library into " + directory, e);
        }
    }
}
