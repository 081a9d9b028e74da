package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Keeps the README's "Use jtecs in your project" true where a release or a renamed module would make it false
 * without anyone noticing: the version it tells a consumer to name, and each library artifact's JPMS module. The
 * consumer projects of {@code consumer-it} check the rest (they build and run as the section says).
 */
class ReadmeUseSectionTest {
    /** The docs module's base dir (Maven runs tests there); the README and the other modules are beside it. */
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @Test
    void theVersionTheSectionNamesIsTheProjectsVersion() throws IOException {
        String version = firstGroup(Pattern.compile("<artifactId>jtecs-parent</artifactId>\\s*<version>([^<]+)"
                + "</version>"), Files.readString(ROOT.resolve("pom.xml")));
        String section = section();
        assertEquals(version, firstGroup(Pattern.compile("<artifactId>jtecs-bom</artifactId>\\s*<version>([^<]+)"
                + "</version>"), section), "the BOM import's version");
        assertEquals(version, firstGroup(Pattern.compile("give each dependency `<version>([^<]+)</version>`"),
                section), "the version without the BOM");
        assertEquals(version, firstGroup(Pattern.compile("<artifactId>jtecs-bom</artifactId>\\s*<version>([^<]+)"
                + "</version>"), Files.readString(ROOT.resolve("bom/pom.xml"))), "bom/pom.xml (it has no parent)");
    }

    @Test
    void eachLibraryArtifactIsNamedWithItsModule() throws IOException {
        String section = section();
        for (String folder : List.of("core", "simd-kernels", "native-bindings")) {
            String artifact = firstGroup(Pattern.compile("</parent>\\s*<artifactId>([^<]+)</artifactId>"),
                    Files.readString(ROOT.resolve(folder).resolve("pom.xml")));
            String module = firstGroup(Pattern.compile("(?m)^module\\s+([\\w.]+)\\s*\\{"),
                    Files.readString(ROOT.resolve(folder).resolve("src/main/java/module-info.java")));
            assertTrue(section.contains("| `" + artifact + "` | `" + module + "` |"),
                    "the section's table names " + artifact + " with its module " + module);
            boolean shown = section.contains("<artifactId>" + artifact + "</artifactId>");
            assertTrue(shown || folder.equals("native-bindings"), "the section shows the dependency on " + artifact);
        }
    }

    /** The README's section, from its heading to the next one. */
    private static String section() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        int start = readme.indexOf("## Use jtecs in your project\n");
        assertFalse(start < 0, "README.md has a section 'Use jtecs in your project'");
        int end = readme.indexOf("\n## ", start + 1);
        return readme.substring(start, end < 0 ? readme.length() : end);
    }

    private static String firstGroup(Pattern pattern, String text) {
        Matcher matcher = pattern.matcher(text);
        assertTrue(matcher.find(), "no match for " + pattern);
        return matcher.group(1);
    }
}
