package dev.jtecs.bench.cli;

import dev.jtecs.bench.frame.FrameKernels;
import dev.jtecs.bench.frame.FrameWorkload;
import dev.jtecs.bench.frame.KernelChoice;
import dev.jtecs.bench.particles.ParticleSimulation;
import dev.jtecs.bench.transforms.TransformsSimulation;
import dev.jtecs.bench.view.WorkloadScene;
import dev.jtecs.kernels.KernelProvider;
import dev.jtecs.nativebindings.GlContext;
import dev.jtecs.nativebindings.OffscreenFrame;
import dev.jtecs.nativebindings.PointRenderer;
import dev.jtecs.nativebindings.Viewer;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;

/**
 * {@code jtecs view particles|transforms}: the frame job drawn as points in a GLFW window, its dirty columns
 * uploaded into OpenGL buffers each frame ({@link WorkloadScene}); or, with {@code --screenshot FILE}, drawn
 * offscreen for {@code --frames} frames into a PNG, which needs no display.
 *
 * <p>Exit codes: 0 after a run; 2 for a bad option; 1 when no display is there for a window (one line on
 * standard error saying what to do) or OpenGL cannot be had.
 */
@Command(name = "view", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Draw a frame job as points: particles coloured by the life they have left, or the "
                + "transforms forest coloured by layer; each frame uploads only the dirty columns into OpenGL buffers.",
            "In a window: Space pauses and resumes, N (or Right) runs one frame, Q (or Escape) quits; the title bar "
                + "shows the entities, the frame time and the bytes uploaded.",
            "With --screenshot FILE --frames N: N frames drawn offscreen (no display needed), the last written "
                + "as a PNG."})
public final class ViewCommand implements Callable<Integer> {
    /** Particles drawn by default: enough to fill the view, few enough for software OpenGL. */
    static final int DEFAULT_PARTICLES = 100_000;
    /** Transform nodes drawn by default (1,000 trees of 40). */
    static final int DEFAULT_NODES = 40_000;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "particles|transforms", description = "the frame job to draw")
    String workload;

    @Option(names = "--entities", paramLabel = "N", order = 0, description = "entities, at least 1 (default: "
            + DEFAULT_PARTICLES + " particles or " + DEFAULT_NODES + " transform nodes)")
    Integer entities;

    @Option(names = "--frames", paramLabel = "F", order = 1, description = "frames to run: with --screenshot, "
            + "at least 1 (required); in a window, 0 runs until the window is closed (default: 0)")
    Integer frames;

    @Option(names = "--screenshot", paramLabel = "FILE", order = 1,
            description = "draw offscreen and write the last frame to FILE as a PNG (no display needed)")
    Path screenshot;

    @Option(names = "--kernels", defaultValue = "vector", paramLabel = "scalar|vector", order = 2,
            converter = FrameJobCommand.KernelChoiceConverter.class,
            description = "the SIMD kernels (vector) or their scalar twins (scalar) (default: ${DEFAULT-VALUE})")
    KernelChoice kernels;

    @Option(names = "--threads", defaultValue = "1", paramLabel = "T", order = 2,
            description = "threads the kernels run on, 1 to " + FrameKernels.MAX_THREADS + " (default: ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--seed", defaultValue = "42", paramLabel = "S", order = 3,
            description = "the world's random seed, a 32-bit integer (default: ${DEFAULT-VALUE})")
    int seed;

    @Option(names = "--size", defaultValue = "1280x720", paramLabel = "WxH", order = 4,
            description = "window or picture size in pixels, each 16 to 8192 (default: ${DEFAULT-VALUE})")
    String size;

    @Option(names = "--full-upload", order = 5, description = "upload every drawn column every frame instead of "
            + "the dirty ones (to compare the bytes in the title bar)")
    boolean fullUpload;

    private int width;
    private int height;

    /** The environment the display check reads (tests replace it). */
    Map<String, String> environment = System.getenv();

    @Override
    public Integer call() throws IOException {
        validate();
        PrintStream out = System.out;
        if (screenshot == null && !GlContext.hasDisplay(environment)) {
            spec.commandLine().getErr().println("jtecs view: no display (DISPLAY and WAYLAND_DISPLAY are unset): run it"
                    + " on a desktop or under xvfb-run -a, or render offscreen with --screenshot FILE --frames N");
            return 1;
        }
        GlContext.Surface surface = screenshot == null ? GlContext.Surface.WINDOW : GlContext.Surface.OFFSCREEN;
        GlContext context;
        try {
            context = GlContext.open(surface, width, height, "jtecs view " + workload);
        } catch (IllegalStateException e) {
            spec.commandLine().getErr().println("jtecs view: " + e.getMessage());
            return 1;
        }
        try (context;
                WorkloadScene scene = new WorkloadScene(create(), width, height, fullUpload);
                PointRenderer renderer = scene.newRenderer()) {
            Viewer viewer = new Viewer(scene, renderer);
            if (screenshot != null) {
                try (OffscreenFrame frame = new OffscreenFrame(width, height)) {
                    OffscreenFrame.Pixels pixels = viewer.runOffscreen(frame, frames);
                    pixels.writePng(screenshot);
                    out.printf(Locale.ROOT, "jtecs view %s: %s (%dx%d) after %,d frames, %,d entities, %,d lit pixels,"
                            + " %,d B uploaded by the last frame; %s%n", workload, screenshot, width, height, frames,
                            scene.entityCount(), pixels.litCount(40), scene.lastUploadBytes(), context.describe());
                }
            } else {
                Viewer.WindowRun run = viewer.runWindow(context, frames == null ? 0 : frames);
                out.printf(Locale.ROOT, "jtecs view %s: %,d frames, %,d entities, %,d B uploaded in all%s%n", workload,
                        run.frames(), scene.entityCount(), scene.uploader().totalBytes(),
                        run.quitByKey() ? " (quit by key)" : "");
            }
        }
        return 0;
    }

    private FrameWorkload create() {
        return switch (workload) {
            case "particles" -> new ParticleSimulation(entities, seed, kernels, threads);
            case "transforms" -> new TransformsSimulation(entities, seed, kernels, threads);
            default -> throw new IllegalStateException(workload); // validate() refused it
        };
    }

    private void validate() {
        int max;
        switch (workload) {
            case "particles" -> {
                max = ParticleSimulation.MAX_ENTITIES;
                entities = entities == null ? DEFAULT_PARTICLES : entities;
            }
            case "transforms" -> {
                max = TransformsSimulation.MAX_ENTITIES;
                entities = entities == null ? DEFAULT_NODES : entities;
            }
            default -> throw usage("unknown workload '" + workload + "': view particles or transforms");
        }
        if (entities < 1 || entities > max) {
            throw usage("--entities must be between 1 and " + String.format(Locale.ROOT, "%,d", max) + ", got "
                    + entities);
        }
        if (screenshot != null && (frames == null || frames < 1 || frames > FrameJobCommand.MAX_FRAMES)) {
            throw usage("--screenshot needs --frames N, at least 1 (got " + frames + ")");
        }
        if (frames != null && (frames < 0 || frames > FrameJobCommand.MAX_FRAMES)) {
            throw usage("--frames must be between 0 and " + FrameJobCommand.MAX_FRAMES + ", got " + frames);
        }
        if (threads < 1 || threads > FrameKernels.MAX_THREADS) {
            throw usage("--threads must be between 1 and " + FrameKernels.MAX_THREADS + ", got " + threads);
        }
        if (!kernels.isAvailable()) {
            throw usage("--kernels vector: this JVM runs the scalar twins (" + KernelProvider.reason()
                    + "); pass --kernels scalar");
        }
        parseSize();
        if (screenshot != null) {
            Path parent = screenshot.toAbsolutePath().getParent();
            if (Files.isDirectory(screenshot) || parent == null || (Files.exists(parent) && !Files.isDirectory(parent))) {
                throw usage("--screenshot " + screenshot + " must name a file");
            }
        }
    }

    private void parseSize() {
        String[] parts = size.split("x", -1);
        try {
            if (parts.length != 2) {
                throw new NumberFormatException();
            }
            width = Integer.parseInt(parts[0]);
            height = Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            throw usage("--size must be WIDTHxHEIGHT in pixels, such as 1280x720, got '" + size + "'");
        }
        if (width < 16 || height < 16 || width > 8192 || height > 8192) {
            throw usage("--size " + size + ": width and height must lie in 16..8192");
        }
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
