package dev.jtecs.bench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jtecs.stress.ModelSweep;
import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Objects;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * What one {@code jtecs stress} run found, in the two forms a CI system reads: a JUnit XML report
 * ({@code --junit-xml}) and a JSON summary ({@code --json}).
 *
 * <p>The JUnit report is one {@code <testsuite name="jtecs.stress">} with one test case for the clean seeds
 * ({@code seeds 1 to 41}, absent when the very first seed failed) and, after a mismatch, one failed test case for
 * the failing seed ({@code seed 42}): its {@code <failure>} holds the mismatch and the shrunk JUnit class to save.
 * A sweep of millions of seeds thus stays a report of two test cases. The suite's properties record the options,
 * and {@code <system-out>} the totals.
 *
 * <p>The JSON summary holds the options, the totals, the exit code and, after a mismatch, an object with the seed,
 * the operation, the message, the shrinking and the JUnit source ({@code "mismatch": null} when clean).
 *
 * @param started when the run started
 * @param firstSeed the first seed run ({@code --seed})
 * @param lastSeed the last seed run: the failing one after a mismatch
 * @param operationsPerSeed {@code --operations}
 * @param relations whether relationship edges took part
 * @param totals what the seeds checked
 * @param elapsedNanos the run's wall time, shrinking excluded
 * @param mismatch the failure, or {@code null} for a clean run
 */
record StressReport(Instant started, long firstSeed, long lastSeed, int operationsPerSeed, boolean relations,
        ModelSweep.Totals totals, long elapsedNanos, Failure mismatch) {

    /** Exit code of a run without mismatch. */
    static final int CLEAN = 0;
    /** Exit code of a run that found a mismatch (the shrunk JUnit source is printed). */
    static final int MISMATCH = 1;
    /** Exit code of bad options: nothing ran. */
    static final int BAD_USAGE = 2;
    /** Exit code of a clean run whose report files could not be written. */
    static final int REPORT_NOT_WRITTEN = 3;

    /** The JUnit suite's name. */
    static final String SUITE = "jtecs.stress";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * A mismatch as reported.
     *
     * @param seed the failing seed
     * @param operation the index of the operation at which the engine and the model disagreed
     * @param message the full mismatch (replay line, detail, last operations)
     * @param originalOperations operations of the failing script
     * @param shrunkOperations operations left after shrinking
     * @param shrinkRuns executions the shrinking took
     * @param shrinkComplete false when the shrinking budget ran out first
     * @param testClass the class name to save the JUnit source under
     * @param testFile where in the repository to save it
     * @param junitSource the shrunk script as a JUnit test class
     */
    record Failure(long seed, int operation, String message, int originalOperations, int shrunkOperations,
            int shrinkRuns, boolean shrinkComplete, String testClass, String testFile, String junitSource) {
        Failure {
            Objects.requireNonNull(message, "message");
            Objects.requireNonNull(testClass, "testClass");
            Objects.requireNonNull(testFile, "testFile");
            Objects.requireNonNull(junitSource, "junitSource");
        }

        /** The first line of the message: what a CI summary shows. */
        String headline() {
            int end = message.indexOf('\n');
            return end < 0 ? message : message.substring(0, end);
        }
    }

    StressReport {
        Objects.requireNonNull(started, "started");
        Objects.requireNonNull(totals, "totals");
    }

    /** {@link #CLEAN} or {@link #MISMATCH}. */
    int exitCode() {
        return mismatch == null ? CLEAN : MISMATCH;
    }

    /** Seeds that ran clean: every seed run, less the failing one. */
    long cleanSeeds() {
        return mismatch == null ? totals.seeds() : Math.max(0, totals.seeds() - 1);
    }

    /** The JSON summary. */
    String json() {
        ObjectNode root = JSON.createObjectNode();
        root.put("result", mismatch == null ? "clean" : "mismatch");
        root.put("exitCode", exitCode());
        root.put("started", started.truncatedTo(ChronoUnit.SECONDS).toString());
        root.put("firstSeed", firstSeed);
        root.put("lastSeed", lastSeed);
        root.put("operationsPerSeed", operationsPerSeed);
        root.put("relations", relations);
        root.put("seeds", totals.seeds());
        root.put("instantPathSeeds", totals.instantSeeds());
        root.put("stagedPathSeeds", totals.seeds() - totals.instantSeeds());
        root.put("unobservedSeeds", totals.unobservedSeeds());
        root.put("operations", totals.operations());
        root.put("commitsCompared", totals.commits());
        root.put("batchCalls", totals.batchCalls());
        root.put("illegalCallsRejected", totals.rejected());
        root.put("failedPublications", totals.failedPublications());
        root.put("frames", totals.frames());
        root.put("sparseEdgesCompared", totals.sparseEdges());
        root.put("cascadeDespawns", totals.cascades());
        root.put("snapshotRoundTrips", totals.snapshots());
        root.put("fieldWritesLanded", totals.fieldWrites());
        root.put("operationsPerSecond", Math.round(totals.operationsPerSecond()));
        root.put("elapsedSeconds", Math.round(elapsedNanos / 1e6) / 1e3);
        if (mismatch == null) {
            root.putNull("mismatch");
        } else {
            ObjectNode m = root.putObject("mismatch");
            m.put("seed", mismatch.seed());
            m.put("operation", mismatch.operation());
            m.put("headline", mismatch.headline());
            m.put("message", mismatch.message());
            m.put("originalOperations", mismatch.originalOperations());
            m.put("shrunkOperations", mismatch.shrunkOperations());
            m.put("shrinkRuns", mismatch.shrinkRuns());
            m.put("shrinkComplete", mismatch.shrinkComplete());
            m.put("testClass", mismatch.testClass());
            m.put("testFile", mismatch.testFile());
            m.put("junitSource", mismatch.junitSource());
        }
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException("a tree of strings and numbers always serializes", e);
        }
    }

    /** The JUnit XML report. */
    String junitXml() {
        StringWriter text = new StringWriter();
        try {
            writeXml(text);
        } catch (XMLStreamException e) {
            throw new IllegalStateException("writing XML into a string failed", e);
        }
        return text + "\n";
    }

    private void writeXml(Writer target) throws XMLStreamException {
        XMLStreamWriter xml = XMLOutputFactory.newFactory().createXMLStreamWriter(target);
        String seconds = seconds(elapsedNanos);
        xml.writeStartDocument("UTF-8", "1.0");
        xml.writeCharacters("\n");
        xml.writeStartElement("testsuite");
        xml.writeAttribute("name", SUITE);
        xml.writeAttribute("tests", Integer.toString((cleanSeeds() > 0 ? 1 : 0) + (mismatch == null ? 0 : 1)));
        xml.writeAttribute("failures", mismatch == null ? "0" : "1");
        xml.writeAttribute("errors", "0");
        xml.writeAttribute("skipped", "0");
        xml.writeAttribute("time", seconds);
        xml.writeAttribute("timestamp", DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(
                started.truncatedTo(ChronoUnit.SECONDS).atOffset(ZoneOffset.UTC)));
        xml.writeCharacters("\n  ");
        xml.writeStartElement("properties");
        property(xml, "firstSeed", Long.toString(firstSeed));
        property(xml, "lastSeed", Long.toString(lastSeed));
        property(xml, "operationsPerSeed", Integer.toString(operationsPerSeed));
        property(xml, "relations", Boolean.toString(relations));
        xml.writeCharacters("\n  ");
        xml.writeEndElement();
        if (cleanSeeds() > 0) {
            long lastClean = mismatch == null ? lastSeed : lastSeed - 1;
            xml.writeCharacters("\n  ");
            xml.writeEmptyElement("testcase");
            xml.writeAttribute("classname", SUITE);
            xml.writeAttribute("name", cleanSeeds() == 1 ? "seed " + firstSeed
                    : "seeds " + firstSeed + " to " + lastClean);
            xml.writeAttribute("time", seconds);
        }
        if (mismatch != null) {
            xml.writeCharacters("\n  ");
            xml.writeStartElement("testcase");
            xml.writeAttribute("classname", SUITE);
            xml.writeAttribute("name", "seed " + mismatch.seed());
            xml.writeAttribute("time", "0");
            xml.writeCharacters("\n    ");
            xml.writeStartElement("failure");
            xml.writeAttribute("type", "dev.jtecs.stress.ModelMismatch");
            xml.writeAttribute("message", clean(mismatch.headline()));
            xml.writeCharacters(clean(mismatch.message() + "\n\nShrunk from " + mismatch.originalOperations()
                    + " to " + mismatch.shrunkOperations() + " operations" + (mismatch.shrinkComplete() ? ""
                    : " (shrinking budget spent)") + "; save as " + mismatch.testFile() + ":\n\n"
                    + mismatch.junitSource()));
            xml.writeEndElement();
            xml.writeCharacters("\n  ");
            xml.writeEndElement();
        }
        xml.writeCharacters("\n  ");
        xml.writeStartElement("system-out");
        xml.writeCharacters(clean(totals.summary() + String.format(Locale.ROOT, "; %s s", seconds)));
        xml.writeEndElement();
        xml.writeCharacters("\n");
        xml.writeEndElement();
        xml.writeEndDocument();
        xml.close();
    }

    private static void property(XMLStreamWriter xml, String name, String value) throws XMLStreamException {
        xml.writeCharacters("\n    ");
        xml.writeEmptyElement("property");
        xml.writeAttribute("name", name);
        xml.writeAttribute("value", value);
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e9);
    }

    /** Drops the characters XML 1.0 cannot hold (control characters other than tab, newline, return). */
    static String clean(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.codePoints().filter(c -> c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c <= 0xD7FF)
                || (c >= 0xE000 && c <= 0xFFFD) || c >= 0x10000).forEach(out::appendCodePoint);
        return out.toString();
    }

    /** Writes {@code text} to {@code file}, creating its folder. */
    static void write(Path file, String text) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    /**
     * Why {@code file} cannot take a report, or {@code null}: checked before the run, so that a typo costs no
     * hour of seeds. Creates the folder (as the write would) and probes it with a temporary file.
     */
    static String unwritable(String option, Path file) {
        if (Files.isDirectory(file)) {
            return option + " " + file + " is a directory; give a file name";
        }
        Path parent = file.toAbsolutePath().getParent();
        try {
            Files.createDirectories(parent);
            Path probe = Files.createTempFile(parent, ".jtecs-write-check", ".tmp");
            Files.delete(probe);
            return null;
        } catch (IOException | SecurityException e) {
            return option + " " + file + ": cannot write there (" + e + ")";
        }
    }
}
