package dev.jtecs.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jtecs.stress.ModelSweep;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class StressReportTest {
    private static final Instant STARTED = Instant.parse("2026-11-29T10:15:30.25Z");
    private static final ModelSweep.Totals TOTALS =
            new ModelSweep.Totals(42, 16_800, 3_000, 2_500, 4_000, 120, 9_000, 90, 300, 7, 650, 20, 10, 2_500_000_000L);

    private static StressReport clean() {
        return new StressReport(STARTED, 1, 42, 400, true, TOTALS, 2_500_000_000L, null);
    }

    private static StressReport failed() {
        return new StressReport(STARTED, 1, 42, 400, false, TOTALS, 2_500_000_000L,
                new StressReport.Failure(42, 17, "model mismatch (replay with seed=42)\nliveness <of> h(3) & more",
                        400, 6, 250, true, "ModelSeed42Test",
                        "stress-tests/src/test/java/dev/jtecs/stress/ModelSeed42Test.java",
                        "class ModelSeed42Test {\n    // a < b && c\n}\n"));
    }

    private static Element suite(String xml) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))).getDocumentElement();
    }

    @Test
    void aCleanRunIsOnePassingTestCase() throws Exception {
        Element suite = suite(clean().junitXml());
        assertEquals("testsuite", suite.getTagName());
        assertEquals("jtecs.stress", suite.getAttribute("name"));
        assertEquals("1", suite.getAttribute("tests"));
        assertEquals("0", suite.getAttribute("failures"));
        assertEquals("0", suite.getAttribute("errors"));
        assertEquals("2.500", suite.getAttribute("time"));
        assertEquals("2026-11-29T10:15:30", suite.getAttribute("timestamp"));
        NodeList cases = suite.getElementsByTagName("testcase");
        assertEquals(1, cases.getLength());
        Element only = (Element) cases.item(0);
        assertEquals("seeds 1 to 42", only.getAttribute("name"));
        assertEquals("jtecs.stress", only.getAttribute("classname"));
        assertEquals(0, only.getElementsByTagName("failure").getLength());
        assertTrue(suite.getElementsByTagName("system-out").item(0).getTextContent().startsWith("42 seeds"));
        assertEquals(4, suite.getElementsByTagName("property").getLength());
        assertEquals(0, clean().exitCode());
    }

    @Test
    void aMismatchIsAFailedTestCaseHoldingTheShrunkSource() throws Exception {
        String xml = failed().junitXml();
        Element suite = suite(xml); // parses: '<' and '&' in the message and the source are escaped
        assertEquals("2", suite.getAttribute("tests"));
        assertEquals("1", suite.getAttribute("failures"));
        NodeList cases = suite.getElementsByTagName("testcase");
        assertEquals("seeds 1 to 41", ((Element) cases.item(0)).getAttribute("name"));
        Element failedCase = (Element) cases.item(1);
        assertEquals("seed 42", failedCase.getAttribute("name"));
        Element failure = (Element) failedCase.getElementsByTagName("failure").item(0);
        assertEquals("model mismatch (replay with seed=42)", failure.getAttribute("message"));
        assertEquals("dev.jtecs.stress.ModelMismatch", failure.getAttribute("type"));
        String text = failure.getTextContent();
        assertTrue(text.contains("liveness <of> h(3) & more"), text);
        assertTrue(text.contains("Shrunk from 400 to 6 operations; save as "
                + "stress-tests/src/test/java/dev/jtecs/stress/ModelSeed42Test.java:"), text);
        assertTrue(text.contains("    // a < b && c"), text);
        assertEquals(1, failed().exitCode());
    }

    @Test
    void aMismatchAtTheFirstSeedHasNoPassingCase() throws Exception {
        ModelSweep.Totals one = new ModelSweep.Totals(1, 17, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1_000_000);
        StressReport report = new StressReport(STARTED, 5, 5, 400, true, one, 1_000_000, failed().mismatch());
        Element suite = suite(report.junitXml());
        assertEquals("1", suite.getAttribute("tests"));
        assertEquals(1, suite.getElementsByTagName("testcase").getLength());
        assertEquals(0, report.cleanSeeds());
        StressReport single = new StressReport(STARTED, 5, 5, 400, true, one, 1_000_000, null);
        assertEquals("seed 5", ((Element) suite(single.junitXml()).getElementsByTagName("testcase").item(0))
                .getAttribute("name"));
    }

    @Test
    void theJsonSummaryHoldsTheOptionsTheTotalsAndTheMismatch() throws Exception {
        JsonNode clean = new ObjectMapper().readTree(clean().json());
        assertEquals("clean", clean.get("result").asText());
        assertEquals(0, clean.get("exitCode").asInt());
        assertEquals("2026-11-29T10:15:30Z", clean.get("started").asText());
        assertEquals(42, clean.get("seeds").asLong());
        assertEquals(20, clean.get("instantPathSeeds").asLong());
        assertEquals(10, clean.get("unobservedSeeds").asLong());
        assertEquals(22, clean.get("stagedPathSeeds").asLong());
        assertEquals(16_800, clean.get("operations").asLong());
        assertEquals(650, clean.get("fieldWritesLanded").asLong());
        assertEquals(6_720, clean.get("operationsPerSecond").asLong());
        assertEquals(2.5, clean.get("elapsedSeconds").asDouble());
        assertTrue(clean.get("relations").asBoolean());
        assertTrue(clean.get("mismatch").isNull());

        JsonNode failed = new ObjectMapper().readTree(failed().json());
        assertEquals("mismatch", failed.get("result").asText());
        assertEquals(1, failed.get("exitCode").asInt());
        JsonNode m = failed.get("mismatch");
        assertEquals(42, m.get("seed").asLong());
        assertEquals(17, m.get("operation").asInt());
        assertEquals("model mismatch (replay with seed=42)", m.get("headline").asText());
        assertEquals(6, m.get("shrunkOperations").asInt());
        assertTrue(m.get("shrinkComplete").asBoolean());
        assertEquals("ModelSeed42Test", m.get("testClass").asText());
        assertEquals("class ModelSeed42Test {\n    // a < b && c\n}\n", m.get("junitSource").asText());
    }

    @Test
    void controlCharactersXmlCannotHoldAreDropped() throws Exception {
        assertEquals("a\tb\nc", StressReport.clean("a\u0000\tb\u0007\nc\u001b"));
        ModelSweep.Totals one = new ModelSweep.Totals(2, 17, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1_000_000);
        StressReport report = new StressReport(STARTED, 1, 2, 10, true, one, 1_000_000,
                new StressReport.Failure(2, 0, "bad \u0001 byte", 1, 1, 1, false, "T", "T.java", "x"));
        Element failure = (Element) suite(report.junitXml()).getElementsByTagName("failure").item(0);
        assertEquals("bad  byte", failure.getAttribute("message"));
        assertTrue(failure.getTextContent().contains("(shrinking budget spent)"));
    }

    @Test
    void writesCreateTheFolderAndUnwritablePlacesAreNamedBeforeTheRun(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("a/b/stress.json");
        assertNull(StressReport.unwritable("--json", file));
        assertTrue(Files.isDirectory(file.getParent()));
        assertTrue(Files.list(file.getParent()).findAny().isEmpty(), "the probe leaves nothing behind");
        StressReport.write(file, "{}\n");
        assertEquals("{}\n", Files.readString(file));
        assertTrue(StressReport.unwritable("--junit-xml", tmp).contains("is a directory"));
        Path blocked = Files.writeString(tmp.resolve("plain-file"), "x");
        String message = StressReport.unwritable("--json", blocked.resolve("under/it.json"));
        assertTrue(message.startsWith("--json " + blocked.resolve("under/it.json") + ": cannot write there"),
                message);
        assertFalse(Files.isDirectory(blocked.resolve("under")));
    }
}
