package dev.jtecs.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Each upload mode sends what it says, counted in the {@code bytes} counter; a bad mode is refused. */
class UploadBenchmarkTest {
    private static final int N = 4_000;
    private static final long ROW_BYTES = 4 + 4 + 8 + 8; // x, y, TTL.remaining, TTL.startingTime

    private static long[] bytesOfThreeFrames(String upload) {
        UploadBenchmark bench = new UploadBenchmark();
        bench.entities = N;
        bench.upload = upload;
        bench.setUp();
        try {
            UploadBenchmark.Uploaded uploaded = new UploadBenchmark.Uploaded();
            long[] frames = new long[3];
            for (int i = 0; i < frames.length; i++) {
                frames[i] = bench.particlesFrame(uploaded);
            }
            assertEquals(frames[0] + frames[1] + frames[2], uploaded.bytes);
            uploaded.reset();
            assertEquals(0, uploaded.bytes);
            assertEquals(N, bench.scene.entityCount());
            return frames;
        } finally {
            bench.tearDown();
        }
    }

    @Test
    void dirtyAndFullSendEveryDrawnColumnOfTheParticleFrameAndNoneNothing() {
        long whole = N * ROW_BYTES;
        assertEquals(whole * 3, sum(bytesOfThreeFrames("full")));
        assertEquals(whole * 3, sum(bytesOfThreeFrames("dirty")), "every drawn column is written every frame");
        assertEquals(0, sum(bytesOfThreeFrames("none")));
    }

    @Test
    void theUploadAloneSendsWhatTheFrameSends() {
        for (String upload : new String[] {"dirty", "full", "none"}) {
            UploadBenchmark bench = new UploadBenchmark();
            bench.entities = N;
            bench.upload = upload;
            bench.setUp();
            try {
                UploadBenchmark.Uploaded uploaded = new UploadBenchmark.Uploaded();
                long expected = upload.equals("none") ? 0 : N * ROW_BYTES;
                assertEquals(expected, bench.uploadOnly(uploaded), upload);
                assertEquals(expected, bench.uploadOnly(uploaded), upload + ", again");
                assertEquals(2 * expected, uploaded.bytes);
                bench.particles.world().forEachArchetype(a -> assertEquals(false, a.anyComponentDirty(), upload));
            } finally {
                bench.tearDown();
            }
        }
    }

    @Test
    void anUnknownModeIsRefused() {
        UploadBenchmark bench = new UploadBenchmark();
        bench.entities = N;
        bench.upload = "some";
        assertThrows(IllegalArgumentException.class, bench::setUp);
    }

    private static long sum(long[] values) {
        long sum = 0;
        for (long v : values) {
            sum += v;
        }
        return sum;
    }
}
