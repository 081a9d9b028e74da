package dev.jtecs.bench.suite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AsyncProfilerLibraryTest {
    /** ELF, 64-bit, little-endian, x86-64: what a fork's {@code System.load} needs on the bundled platform. */
    @Test
    void extractsTheBundledLinuxX64LibraryIntoTheDirectory(@TempDir Path dir) throws IOException {
        Path library = AsyncProfilerLibrary.extractInto(dir.resolve("profiles"));
        assertEquals(dir.resolve("profiles").resolve("libasyncProfiler.so"), library);
        byte[] bytes = Files.readAllBytes(library);
        assertTrue(bytes.length > 100_000, "the whole library, not a stub: " + bytes.length + " bytes");
        assertArrayEquals(new byte[] {0x7f, 'E', 'L', 'F', 2, 1}, Arrays.copyOf(bytes, 6), "a 64-bit LE ELF file");
        int machine = (bytes[18] & 0xff) | (bytes[19] & 0xff) << 8;
        assertEquals(62, machine, "e_machine EM_X86_64");
    }

    @Test
    void extractingAgainReplacesAnOlderCopy(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("libasyncProfiler.so"), "stale");
        Path library = AsyncProfilerLibrary.extractInto(dir);
        assertTrue(Files.size(library) > 100_000, "the stale file was replaced");
    }

    @Test
    void onlyLinuxOnX8664IsSupportedAndOthersAreToldWhy() {
        assertNull(AsyncProfilerLibrary.unsupported("Linux", "amd64"));
        assertNull(AsyncProfilerLibrary.unsupported("Linux", "x86_64"));
        String mac = AsyncProfilerLibrary.unsupported("Mac OS X", "aarch64");
        assertTrue(mac.startsWith("--profile needs Linux on x86-64") && mac.endsWith("(this JVM runs on Mac OS X "
                + "aarch64)"), mac);
        assertTrue(AsyncProfilerLibrary.unsupported("Linux", "aarch64").contains("Linux aarch64"));
        assertTrue(AsyncProfilerLibrary.unsupported("Windows 11", "amd64").contains("Windows 11 amd64"));
    }
}
