package dev.jtecs.bench.view;

import dev.jtecs.bench.frame.FrameWorkload;
import dev.jtecs.bench.particles.ParticleSimulation;
import dev.jtecs.bench.particles.Particles;
import dev.jtecs.bench.transforms.TransformsSimulation;
import dev.jtecs.builtin.TTL;
import dev.jtecs.builtin.Transform2D;
import dev.jtecs.nativebindings.DirtyUploader;
import dev.jtecs.nativebindings.GlColumnBuffers;
import dev.jtecs.nativebindings.PointRenderer;
import dev.jtecs.nativebindings.PointStyle;
import dev.jtecs.nativebindings.Viewer;
import dev.jtecs.schedule.Phases;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.world.World;
import java.util.Objects;

/**
 * A frame job ({@code particles} or {@code transforms}) as a {@link Viewer.Scene}: its own extraction step is
 * replaced by a {@link DirtyUploader} into {@link GlColumnBuffers} (the system {@value #UPLOAD}, in the render
 * phase, the last consumer of the frame's dirty state), and {@link #style} says how its entities are drawn.
 *
 * <pre>
 *   particles:  point at (Position.x, Position.y), colour = TTL.remaining / TTL.startingTime (life left)
 *   transforms: point at (Transform2D.x, Transform2D.y) of every node, colour = Transform2D.layer (0..3)
 * </pre>
 *
 * <p>Invariants: after each {@link #frame()}, the GL buffers mirror every drawn column of the workload; the
 * workload's state is what the frame job computes (the upload reads columns, never writes them).
 *
 * @implNote Needs the current GL context for its whole life; {@link #close()} frees the GL buffers, then the
 *     workload.
 */
public final class WorkloadScene implements Viewer.Scene, AutoCloseable {
    /** The system that uploads the dirty columns, in {@code Phases.RENDER}. */
    public static final String UPLOAD = "view.Upload";

    private final FrameWorkload workload;
    private final PointStyle style;
    private final GlColumnBuffers buffers;
    private final DirtyUploader uploader;
    private final boolean everything;

    /**
     * Wraps {@code workload} (a {@link ParticleSimulation} or {@link TransformsSimulation}, which it then owns),
     * drawn in a {@code width} by {@code height} view; {@code everything} uploads every drawn column every frame
     * instead of the dirty ones (the benchmark's baseline).
     *
     * @throws IllegalArgumentException for another kind of workload
     */
    public WorkloadScene(FrameWorkload workload, int width, int height, boolean everything) {
        this.workload = Objects.requireNonNull(workload, "workload");
        this.style = style(workload, (float) width / height);
        this.everything = everything;
        World world = world(workload);
        this.buffers = new GlColumnBuffers(style.fields().size());
        this.uploader = new DirtyUploader(style.fields(), buffers);
        world.removeSystem(extractSystem(workload)); // the upload is this frame's consumer of dirty state
        world.addSystem(SystemConfig.named(UPLOAD).phase(Phases.RENDER).run((dt, w) -> {
            if (this.everything) {
                uploader.uploadEverything(w);
            } else {
                uploader.upload(w);
            }
        }));
    }

    /** How {@code workload}'s entities are drawn in a view {@code aspect} times as wide as high. */
    public static PointStyle style(FrameWorkload workload, float aspect) {
        if (!(aspect > 0) || !Float.isFinite(aspect)) {
            throw new IllegalArgumentException("aspect=" + aspect + " must be positive");
        }
        return switch (workload) {
            case ParticleSimulation p -> new PointStyle(Particles.X, Particles.Y, TTL.REMAINING, TTL.STARTING_TIME,
                    0f, 1f, 0f, 0f, 520f * aspect, 520f, 2f);
            case TransformsSimulation t -> new PointStyle(Transform2D.X, Transform2D.Y, Transform2D.LAYER, null,
                    0f, 3f, 0f, 0f, 1100f * aspect, 1100f, 2f);
            default -> throw new IllegalArgumentException("no view for workload " + workload.name());
        };
    }

    private static World world(FrameWorkload workload) {
        return switch (workload) {
            case ParticleSimulation p -> p.world();
            case TransformsSimulation t -> t.world();
            default -> throw new IllegalArgumentException("no view for workload " + workload.name());
        };
    }

    private static String extractSystem(FrameWorkload workload) {
        return workload instanceof ParticleSimulation ? ParticleSimulation.EXTRACT : TransformsSimulation.EXTRACT;
    }

    /** A renderer of this scene's buffers (close it before the scene). */
    public PointRenderer newRenderer() {
        return new PointRenderer(uploader, buffers, style);
    }

    public FrameWorkload workload() {
        return workload;
    }

    public DirtyUploader uploader() {
        return uploader;
    }

    /** The GL buffers the uploader fills (field {@code f} of {@code uploader().fields()} is buffer {@code f}). */
    public GlColumnBuffers buffers() {
        return buffers;
    }

    public PointStyle style() {
        return style;
    }

    @Override
    public String name() {
        return workload.name();
    }

    @Override
    public void frame() {
        workload.frame();
    }

    @Override
    public int entityCount() {
        return workload.liveCount();
    }

    @Override
    public long lastUploadBytes() {
        return uploader.lastBytes();
    }

    @Override
    public void close() {
        try {
            buffers.close();
        } finally {
            workload.close();
        }
    }
}
