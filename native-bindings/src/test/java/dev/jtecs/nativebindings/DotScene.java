package dev.jtecs.nativebindings;

import dev.jtecs.world.World;

/** A {@link Viewer.Scene} of {@link Dots}: each frame shifts every dot right by {@code step}, then uploads. */
final class DotScene implements Viewer.Scene, AutoCloseable {
    final World world = World.create();
    final GlColumnBuffers buffers;
    final DirtyUploader uploader;
    private final float step;
    private long lastBytes;

    DotScene(int dots, long seed, float step) {
        this.step = step;
        Dots.spawn(world, dots, seed);
        buffers = new GlColumnBuffers(Dots.style().fields().size());
        uploader = new DirtyUploader(Dots.style().fields(), buffers);
    }

    @Override
    public String name() {
        return "dots";
    }

    @Override
    public void frame() {
        if (step != 0) {
            world.forEachArchetype(archetype -> {
                if (archetype.has(Dots.DOT)) {
                    var x = archetype.getMut(Dots.X);
                    for (int row = 0; row < archetype.count(); row++) {
                        x.set(row, x.get(row) + step);
                    }
                }
            });
        }
        lastBytes = uploader.upload(world);
    }

    @Override
    public int entityCount() {
        return world.entityCount();
    }

    @Override
    public long lastUploadBytes() {
        return lastBytes;
    }

    @Override
    public void close() {
        buffers.close();
        world.close();
    }
}
