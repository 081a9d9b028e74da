package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Keeps the guides honest: every Java sample in {@code docs/*.md} must be, line for line, a
 * {@code // begin-example} ... {@code // end-example} region of a test method in this package, and every such
 * region must appear in some guide.
 *
 * <p>A sample is a fenced {@code java} block directly preceded by a marker line
 * {@code <!-- example: ClassName#methodName -->}. Both sides are compared after stripping their common
 * indentation. {@code README.md} is the index: it may hold samples but need not.
 *
 * <p>The repository's top-level {@code README.md} shows a compiled example too: its marked samples are held to
 * the same rule. Unmarked Java there (a {@code module-info.java} to copy, say) is left alone, since the top-level
 * README also shows build configuration that is no test's body.
 */
class GuideExamplesTest {
    private static final Pattern MARKER = Pattern.compile("^<!-- example: (\\w+)#(\\w+) -->$");
    private static final Pattern METHOD = Pattern.compile("^\\s*(?:[\\w<>\\[\\]]+\\s+)*void\\s+(\\w+)\\s*\\(.*");
    private static final String BEGIN = "// begin-example";
    private static final String END = "// end-example";
    private static final String INDEX = "README.md";

    /** The module base dir: Maven runs tests there, so the guides are right here. */
    private static final Path DOCS = Path.of("").toAbsolutePath();
    private static final Path SOURCES = DOCS.resolve("src/test/java/dev/jtecs/docs");
    /** The repository's README, one level above the docs module. */
    private static final Path TOP_README = DOCS.resolve("../README.md").normalize();
    private static final String TOP_README_NAME = "../README.md";

    /** A guide's sample: where it is, what it names, and the code it shows. */
    record Sample(String guide, int line, String className, String method, List<String> code) {
        String key() {
            return className + "#" + method;
        }
    }

    /** A region of a test source: the method it sits in, whether that method is a test, and its code. */
    record Region(String className, String method, boolean isTest, int line, List<String> code) {
        String key() {
            return className + "#" + method;
        }
    }

    @TestFactory
    Stream<DynamicTest> everySampleMatchesItsCompiledRegion() {
        List<Sample> samples = new ArrayList<>();
        for (Path guide : guides()) {
            samples.addAll(samplesOf(guide.getFileName().toString(), read(guide)));
        }
        samples.addAll(topReadmeSamples());
        assertFalse(samples.isEmpty(), "no samples found under " + DOCS);
        Map<String, Map<String, Region>> regionsByClass = new LinkedHashMap<>();
        return samples.stream().map(sample -> DynamicTest.dynamicTest(
                sample.guide() + ":" + sample.line() + " " + sample.key(), () -> {
                    Map<String, Region> regions =
                            regionsByClass.computeIfAbsent(sample.className(), GuideExamplesTest::regionsOfClass);
                    Region region = regions.get(sample.key());
                    if (region == null) {
                        fail(sample.guide() + ":" + sample.line() + " names " + sample.key()
                                + ", but that method has no example region; regions: " + regions.keySet());
                    }
                    assertTrue(region.isTest(), sample.key() + " is not a @Test method, so its code never runs");
                    assertEquals(String.join("\n", stripIndent(region.code())),
                            String.join("\n", stripIndent(sample.code())),
                            sample.guide() + ":" + sample.line() + " has drifted from " + sample.className()
                                    + ".java:" + region.line());
                }));
    }

    @Test
    void everyGuideShowsAtLeastOneSample() {
        for (Path guide : guides()) {
            String name = guide.getFileName().toString();
            if (!name.equals(INDEX)) {
                assertFalse(samplesOf(name, read(guide)).isEmpty(), name + " shows no compiled example");
            }
        }
    }

    @Test
    void everyRegionIsShownInSomeGuide() throws IOException {
        Set<String> shown = new TreeSet<>();
        for (Path guide : guides()) {
            samplesOf(guide.getFileName().toString(), read(guide)).forEach(s -> shown.add(s.key()));
        }
        topReadmeSamples().forEach(s -> shown.add(s.key()));
        Set<String> unshown = new TreeSet<>();
        try (Stream<Path> files = Files.list(SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String className = file.getFileName().toString().replace(".java", "");
                for (String key : regionsOf(className, read(file)).keySet()) {
                    if (!shown.contains(key)) {
                        unshown.add(key);
                    }
                }
            }
        }
        assertTrue(unshown.isEmpty(), "example regions that no guide shows: " + unshown);
    }

    @Test
    void theTopLevelReadmeShowsACompiledExample() {
        assertTrue(Files.isRegularFile(TOP_README), "no " + TOP_README);
        assertFalse(topReadmeSamples().isEmpty(), TOP_README + " shows no marked, compiled example");
    }

    @Test
    void theIndexLinksEveryGuide() {
        String index = String.join("\n", read(DOCS.resolve(INDEX)));
        for (Path guide : guides()) {
            String name = guide.getFileName().toString();
            if (!name.equals(INDEX)) {
                assertTrue(index.contains("](" + name + ")"), INDEX + " does not link " + name);
            }
        }
    }

    @Test
    void extractionFollowsTheRules() {
        List<String> source = List.of(
                "class Demo {",
                "    @Test",
                "    void shown() {",
                "        int before = 0;",
                "        // begin-example",
                "        if (true) {",
                "            run();",
                "        }",
                "        // end-example",
                "    }",
                "    void helper() {",
                "        // begin-example",
                "        x();",
                "        // end-example",
                "    }",
                "}");
        Map<String, Region> regions = regionsOf("Demo", source);
        assertEquals(List.of("if (true) {", "    run();", "}"), stripIndent(regions.get("Demo#shown").code()));
        assertTrue(regions.get("Demo#shown").isTest());
        assertFalse(regions.get("Demo#helper").isTest());

        List<String> guide = List.of(
                "Intro.",
                "<!-- example: Demo#shown -->",
                "```java",
                "if (true) {",
                "    run();",
                "}",
                "```",
                "```java",
                "unmarked();",
                "```");
        IllegalStateException unmarked = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalStateException.class, () -> samplesOf("demo.md", guide));
        assertTrue(unmarked.getMessage().contains("demo.md:8"), unmarked.getMessage());
        assertEquals(List.of("if (true) {", "    run();", "}"), samplesOf("demo.md", guide.subList(0, 7)).get(0).code());
    }

    // ---------------------------------------------------------------- parsing

    /** The marked samples of the top-level README (none when it is absent); its unmarked Java is skipped. */
    private static List<Sample> topReadmeSamples() {
        if (!Files.isRegularFile(TOP_README)) {
            return List.of();
        }
        List<String> lines = read(TOP_README);
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (MARKER.matcher(lines.get(i).strip()).matches()) {
                int at = i;
                int close = i + 1 < lines.size() ? closingFence(TOP_README_NAME, lines, i + 1) : i + 1;
                samples.addAll(samplesOf(TOP_README_NAME, lines.subList(i, Math.min(lines.size(), close + 1)))
                        .stream().map(s -> new Sample(s.guide(), s.line() + at, s.className(), s.method(), s.code()))
                        .toList());
                i = close;
            }
        }
        return samples;
    }

    private static List<Path> guides() {
        try (Stream<Path> files = Files.list(DOCS)) {
            List<Path> guides = files.filter(f -> f.getFileName().toString().endsWith(".md")).sorted().toList();
            assertTrue(guides.stream().anyMatch(g -> g.getFileName().toString().equals(INDEX)),
                    "no " + INDEX + " in " + DOCS + " (tests must run with the docs module as working directory)");
            return guides;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The marked samples of one guide. A {@code java} fence without a marker, a marker without a fence right
     * after it, or an unclosed fence is an error: no Java in a guide escapes the check.
     */
    static List<Sample> samplesOf(String guide, List<String> lines) {
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            Matcher marker = MARKER.matcher(line.strip());
            if (marker.matches()) {
                if (i + 1 >= lines.size() || !lines.get(i + 1).strip().equals("```java")) {
                    throw new IllegalStateException(guide + ":" + (i + 1) + ": marker not followed by ```java");
                }
                int close = closingFence(guide, lines, i + 1);
                samples.add(new Sample(guide, i + 1, marker.group(1), marker.group(2),
                        List.copyOf(lines.subList(i + 2, close))));
                i = close;
            } else if (line.strip().startsWith("```java")) {
                throw new IllegalStateException(guide + ":" + (i + 1)
                        + ": java sample without an <!-- example: Class#method --> marker line above it");
            } else if (line.strip().startsWith("```")) {
                i = closingFence(guide, lines, i); // a non-Java block (a diagram, a table of bits): skip it
            }
        }
        return samples;
    }

    private static int closingFence(String guide, List<String> lines, int open) {
        for (int j = open + 1; j < lines.size(); j++) {
            if (lines.get(j).strip().equals("```")) {
                return j;
            }
        }
        throw new IllegalStateException(guide + ":" + (open + 1) + ": fence is never closed");
    }

    private static Map<String, Region> regionsOfClass(String className) {
        Path source = SOURCES.resolve(className + ".java");
        assertTrue(Files.isRegularFile(source), "no test source " + source);
        return regionsOf(className, read(source));
    }

    /**
     * The example regions of one source, keyed {@code Class#method}: a region belongs to the nearest method
     * declared above it. At most one region per method; regions do not nest.
     */
    static Map<String, Region> regionsOf(String className, List<String> lines) {
        Map<String, Region> regions = new LinkedHashMap<>();
        String method = null;
        boolean isTest = false;
        for (int i = 0; i < lines.size(); i++) {
            String stripped = lines.get(i).strip();
            Matcher declaration = METHOD.matcher(lines.get(i));
            if (declaration.matches() && !stripped.startsWith("//") && !stripped.startsWith("return")) {
                method = declaration.group(1);
                isTest = i > 0 && lines.get(i - 1).strip().startsWith("@Test");
            } else if (stripped.equals(BEGIN)) {
                if (method == null) {
                    throw new IllegalStateException(className + ".java:" + (i + 1) + ": region outside a method");
                }
                int end = i + 1;
                while (end < lines.size() && !lines.get(end).strip().equals(END)) {
                    if (lines.get(end).strip().equals(BEGIN)) {
                        throw new IllegalStateException(className + ".java:" + (end + 1) + ": nested region");
                    }
                    end++;
                }
                if (end == lines.size()) {
                    throw new IllegalStateException(className + ".java:" + (i + 1) + ": region never ends");
                }
                Region region = new Region(className, method, isTest, i + 1, List.copyOf(lines.subList(i + 1, end)));
                if (regions.putIfAbsent(region.key(), region) != null) {
                    throw new IllegalStateException(className + ".java:" + (i + 1) + ": second region in " + method);
                }
                i = end;
            }
        }
        return regions;
    }

    /** Removes the indentation every non-blank line shares; blank lines become empty. */
    static List<String> stripIndent(List<String> lines) {
        int indent = Integer.MAX_VALUE;
        for (String line : lines) {
            if (!line.isBlank()) {
                indent = Math.min(indent, line.length() - line.stripLeading().length());
            }
        }
        List<String> out = new ArrayList<>(lines.size());
        for (String line : lines) {
            out.add(line.isBlank() ? "" : line.substring(indent).stripTrailing());
        }
        return out;
    }

    private static List<String> read(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
