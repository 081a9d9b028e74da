package dev.jtecs.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ViewCommandTest {
    private static final Pattern LIT = Pattern.compile("([0-9,]+) lit pixels");

    /** Runs {@code jtecs view} in-process with {@code environment} as the one the display check reads. */
    private static CliRun view(Map<String, String> environment, String... args) {
        PrintStream original = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        try {
            CommandLine cli = new CommandLine(new JtecsCommand());
            cli.setErr(new PrintWriter(err, true));
            ((ViewCommand) cli.getSubcommands().get("view").getCommand()).environment = environment;
            List<String> all = new ArrayList<>(List.of("view"));
            all.addAll(List.of(args));
            int exit = cli.execute(all.toArray(String[]::new));
            return new CliRun(exit, buffer.toString(StandardCharsets.UTF_8), err.toString());
        } finally {
            System.setOut(original);
        }
    }

    private static int lit(CliRun run) {
        Matcher m = LIT.matcher(run.out());
        assertTrue(m.find(), run.toString());
        return Integer.parseInt(m.group(1).replace(",", ""));
    }

    @Test
    void aScreenshotNeedsNoDisplayAndShowsTheParticles(@TempDir Path tmp) throws Exception {
        Path png = tmp.resolve("particles.png");
        CliRun run = view(Map.of(), "particles", "--entities", "20000", "--frames", "20", "--seed", "7",
                "--size", "320x240", "--screenshot", png.toString());
        assertEquals(0, run.exit(), run.toString());
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(320, image.getWidth());
        assertEquals(240, image.getHeight());
        int lit = lit(run);
        // 20,000 two-pixel points on a 320x240 picture overlap heavily: most of the square they live in is lit
        assertTrue(lit > 20_000 && lit < 320 * 240 * 3 / 4, run.toString());
        assertTrue(run.out().contains("20,000 entities"), run.out());
    }

    @Test
    void theSameSeedGivesTheSamePictureAndMoreFramesAnother(@TempDir Path tmp) throws Exception {
        String[] common = {"transforms", "--entities", "4000", "--size", "256x256", "--seed", "3"};
        byte[][] pngs = new byte[3][];
        String[] frames = {"10", "10", "40"};
        for (int i = 0; i < 3; i++) {
            Path png = tmp.resolve(i + ".png");
            List<String> args = new ArrayList<>(List.of(common));
            args.addAll(List.of("--frames", frames[i], "--screenshot", png.toString()));
            CliRun run = view(Map.of(), args.toArray(String[]::new));
            assertEquals(0, run.exit(), run.toString());
            pngs[i] = Files.readAllBytes(png);
        }
        assertTrue(java.util.Arrays.equals(pngs[0], pngs[1]), "same seed, same frames: same file");
        assertTrue(!java.util.Arrays.equals(pngs[0], pngs[2]), "the trees moved in 30 more frames");
    }

    @Test
    void withoutADisplayOrAScreenshotOneLineSaysWhatToDo() {
        CliRun run = view(Map.of("DISPLAY", ""), "particles", "--entities", "100");
        assertEquals(1, run.exit(), run.toString());
        assertEquals("", run.out());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().startsWith("jtecs view: no display (DISPLAY and WAYLAND_DISPLAY are unset)"), run.err());
        assertTrue(run.err().contains("--screenshot FILE --frames N"), run.err());
    }

    @Test
    void badOptionsExitWithTwoAndNameTheOption(@TempDir Path tmp) {
        String png = tmp.resolve("x.png").toString();
        String[][] cases = {
            {"boids"}, {"particles", "--entities", "0"}, {"particles", "--screenshot", png},
            {"particles", "--screenshot", png, "--frames", "0"}, {"particles", "--frames", "-1"},
            {"particles", "--size", "100"}, {"particles", "--size", "8x8"}, {"particles", "--threads", "0"},
            {"particles", "--kernels", "gpu"}, {"particles", "--screenshot", tmp.toString(), "--frames", "1"}};
        String[] named = {"unknown workload 'boids'", "--entities", "--screenshot needs --frames", "--screenshot needs",
            "--frames", "--size", "--size", "--threads", "--kernels", "must name a file"};
        for (int i = 0; i < cases.length; i++) {
            CliRun run = view(Map.of(), cases[i]);
            assertEquals(2, run.exit(), run.toString());
            assertTrue(run.err().contains(named[i]), named[i] + " in " + run.err());
        }
    }

    @Test
    void aWindowRunsUnderXvfbAndQuitsAfterItsFrames() throws Exception {
        try (XvfbDisplay display = XvfbDisplay.start()) {
            String java = ProcessHandle.current().info().command().orElseThrow();
            ProcessBuilder child = new ProcessBuilder(java, "--add-modules", "jdk.incubator.vector",
                    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
                    "-Djava.awt.headless=true", "-cp", System.getProperty("java.class.path"),
                    JtecsCommand.class.getName(), "view", "particles", "--entities", "5000", "--frames", "30",
                    "--size", "320x240").redirectErrorStream(true);
            child.environment().put("DISPLAY", display.display());
            child.environment().remove("WAYLAND_DISPLAY");
            Process process = child.start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), output);
            assertEquals(0, process.exitValue(), output);
            assertTrue(output.contains("jtecs view particles: 30 frames, 5,000 entities,"), output);
        }
    }
}
