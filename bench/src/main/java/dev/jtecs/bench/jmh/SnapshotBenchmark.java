package dev.jtecs.bench.jmh;

import dev.jtecs.bench.frame.KernelChoice;
import dev.jtecs.bench.particles.ParticleSimulation;
import dev.jtecs.snapshot.Snapshot;
import dev.jtecs.snapshot.SnapshotBuffer;
import dev.jtecs.snapshot.SnapshotOptions;
import dev.jtecs.world.World;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code snapshot_save} and {@code snapshot_load}: the particles world (N particles with {@code Position},
 * {@code Velocity} and {@code TTL}, after 30 frames) saved and loaded in the binary form, into a reused
 * {@link SnapshotBuffer} and through a file, beside a plain {@code MemorySegment.copy} of the same bytes (the
 * bandwidth floor), and in the table form. One operation is one save or one load of the whole world.
 *
 * <p>Figures: the binary forms and the copy add the bytes each operation moves (the snapshot's size) to the
 * {@link Moved} counter, which JMH reports beside the time, so the suite's results give their GB/s (bytes over
 * time per operation); the table form counts no bytes (its tree is not a byte stream), and its rows give entities
 * per second (N over time per operation).
 *
 * <p>Fairness: the copy moves exactly the snapshot's bytes between two native segments allocated once, so it is
 * what a save or load could cost if it did nothing but move memory; a binary save also checksums every block and
 * a load checks every block's checksum before it copies. A second floor, {@code plainCheckedCopy}, is that copy
 * preceded by the CRC32C of the same bytes (one call of the JDK's intrinsic over the whole segment): the least a
 * load that checks its bytes (the binary format's blocks carry CRC32C) costs on one thread, before any work of its
 * own. The goal is measured against the plain copy; the checked copy shows how much of that goal the
 * check alone takes.
 */
public class SnapshotBenchmark {
    private SnapshotBenchmark() {
    }

    /**
     * The bytes the operations of one iteration moved. An operations-type counter: JMH reports it as time per
     * byte beside the time per operation, and their quotient is the bytes per operation ({@code SuiteRunner}).
     */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class Moved {
        public long bytes;

        @Setup(Level.Iteration)
        public void reset() {
            bytes = 0;
        }
    }

    /** What both workloads share: the saved world and a destination of the same shape. */
    @State(Scope.Thread)
    public abstract static class Worlds {
        @Param({"1048576"})
        public int entities;

        ParticleSimulation source;
        SnapshotBuffer buffer;
        Snapshot binary;
        Map<String, Object> table;
        Path file;
        Arena arena;
        MemorySegment copyTarget;

        void build() {
            source = new ParticleSimulation(entities, 42, KernelChoice.SCALAR);
            for (int frame = 0; frame < 30; frame++) {
                source.frame();
            }
            buffer = new SnapshotBuffer();
            try {
                file = Files.createTempFile("jtecs-snapshot-bench", ".snapshot");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            binary = source.world().saveSnapshot(SnapshotOptions.binary().buffer(buffer).path(file));
            table = source.world().saveSnapshot().table();
            arena = Arena.ofConfined();
            copyTarget = arena.allocate(binary.buffer().byteSize(), 64);
        }

        void close() {
            arena.close();
            buffer.close();
            source.close();
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The binary snapshot's size: GB/s = bytes / time per operation. */
        public long bytes() {
            return binary.buffer().byteSize();
        }

        /**
         * The checked copy's floor: the CRC32C of the snapshot's bytes (the JDK's intrinsic, over the whole
         * segment in one call), then the plain copy of them; returns the checksum.
         */
        long checkedCopy(Moved moved) {
            MemorySegment bytes = binary.buffer();
            CRC32C crc = new CRC32C();
            crc.update(bytes.asByteBuffer());
            MemorySegment.copy(bytes, 0, copyTarget, 0, bytes.byteSize());
            moved.bytes += bytes.byteSize();
            return crc.getValue();
        }
    }

    /** {@code snapshot_save}: binary into a reused buffer, binary to a file, the plain copy, and the table form. */
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 5, time = 1)
    @Measurement(iterations = 5, time = 1)
    @Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
        "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
    @State(Scope.Thread)
    public static class Save extends Worlds {
        SnapshotBuffer saveBuffer;

        @Setup(Level.Trial)
        public void setUp() {
            build();
            saveBuffer = new SnapshotBuffer();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            saveBuffer.close();
            close();
        }

        @Benchmark
        public Snapshot jtecsBinaryBuffer(Moved moved) {
            Snapshot saved = source.world().saveSnapshot(SnapshotOptions.binary().buffer(saveBuffer));
            moved.bytes += saved.buffer().byteSize();
            return saved;
        }

        @Benchmark
        public Snapshot jtecsBinaryFile(Moved moved) {
            Snapshot saved = source.world().saveSnapshot(SnapshotOptions.binary().buffer(saveBuffer).path(file));
            moved.bytes += saved.buffer().byteSize();
            return saved;
        }

        @Benchmark
        public MemorySegment plainSegmentCopy(Moved moved) {
            MemorySegment.copy(binary.buffer(), 0, copyTarget, 0, binary.buffer().byteSize());
            moved.bytes += binary.buffer().byteSize();
            return copyTarget;
        }

        @Benchmark
        public long plainCheckedCopy(Moved moved) {
            return checkedCopy(moved);
        }

        @Benchmark
        public Snapshot jtecsTable() {
            return source.world().saveSnapshot(SnapshotOptions.table());
        }
    }

    /**
     * {@code snapshot_load}: binary from the buffer, binary from the mapped file, the plain copy, the table form.
     * A load is one call of tens of milliseconds whose loops C2 compiles late, so it warms up for 16 s: after the
     * 3 s the other workloads take, its iterations still ran at 2 to 6 times their settled time.
     */
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 8, time = 2)
    @Measurement(iterations = 5, time = 1)
    @Fork(value = 2, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector",
        "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
    @State(Scope.Thread)
    public static class Load extends Worlds {
        World destination;

        @Setup(Level.Trial)
        public void setUp() {
            build();
            destination = World.create(source.world().config());
            destination.loadSnapshot(binary); // sized and warm before the first measured load
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            destination.close();
            close();
        }

        @Benchmark
        public int jtecsBinaryBuffer(Moved moved) {
            int frames = destination.loadSnapshot(binary).archetypeCount();
            moved.bytes += binary.buffer().byteSize();
            return frames;
        }

        @Benchmark
        public int jtecsBinaryFile(Moved moved) {
            int frames = destination.loadSnapshot(file).archetypeCount();
            moved.bytes += bytes(); // the file holds the snapshot's bytes
            return frames;
        }

        @Benchmark
        public MemorySegment plainSegmentCopy(Moved moved) {
            MemorySegment.copy(binary.buffer(), 0, copyTarget, 0, binary.buffer().byteSize());
            moved.bytes += binary.buffer().byteSize();
            return copyTarget;
        }

        @Benchmark
        public long plainCheckedCopy(Moved moved) {
            return checkedCopy(moved);
        }

        @Benchmark
        public int jtecsTable() {
            return destination.loadSnapshot(table).archetypeCount();
        }
    }
}
