package dev.jtecs.kernels.parallel;

import dev.jtecs.component.FieldHandle;
import dev.jtecs.kernels.KernelColumns;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryVisitor;
import dev.jtecs.storage.Archetype;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * How one parallel pass cuts a query's rows: the archetypes gathered on the calling thread (with their row counts
 * and column segments), the chunks they are cut into, and the units of work that batch the chunks.
 *
 * <pre>
 *   (two threads, minChunkRows 16,384: chunkRows 16,384)
 *   archetypes  A (40,000 rows)                         B (90)   C (3,000)   D (25,000)
 *   chunks      [0, 16384) [16384, 32768) [32768, 40000) [0, 90)  [0, 3000)   [0, 16384) [16384, 25000)
 *   units       u0         u1             u2 ─────────────────────────────┘   u3         u4
 * </pre>
 *
 * <p>Invariants: a chunk's first row is a multiple of {@link #ROW_ALIGNMENT} (64 rows: 64-byte aligned for every
 * element size, and a whole number of vectors for every species), so a vector kernel sees aligned data and never
 * reaches into the next chunk; every chunk but an archetype's last holds exactly {@link #chunkRows()} rows, and
 * its slices end there; an archetype's last chunk is sliced to the end of the column, so it carries the tail and
 * the padding exactly as a single call over the whole archetype would. Chunks are in archetype order, then row
 * order, and units are runs of consecutive chunks: {@code chunkRows} rows at most, unless one chunk alone is
 * that large. An archetype with no more than {@code chunkRows} rows is one chunk.
 *
 * <p>{@code chunkRows} is {@code minChunkRows}, or more when that would make more than
 * {@link #UNITS_PER_THREAD} units per thread: the total row count divided by that many units, rounded up to a
 * power of two, so a layout that grows or shrinks a little keeps its cuts. Each chunk remembers the last
 * {@link #SLICE_CACHE} slices it cut, keyed by source segment, offset and length, so a fixed layout allocates
 * nothing from the second pass on, even with several kernels over different columns taking turns.
 */
final class ChunkPlan {
    /** A chunk's first row is a multiple of this. */
    static final int ROW_ALIGNMENT = 64;
    /** Units aimed for per thread, so a thread that is slowed down leaves work for the others. */
    static final int UNITS_PER_THREAD = 4;
    /** Gatherings tried before a pass gives up on a query whose iterations keep publishing work. */
    static final int MAX_GATHERS = 4;
    /** Slices each chunk remembers: enough for the columns of several kernels run in turn. */
    static final int SLICE_CACHE = 16;

    private int columns;
    private int[] elementBytes = new int[4];
    private KernelColumns kernelColumns;
    private Archetype[] archetypes = new Archetype[8];
    private int[] counts = new int[8];
    private long[] versions = new long[8];
    private MemorySegment[] sources = new MemorySegment[8 * 4]; // archetype * columns + column
    private int archetypeCount;
    private long totalRows;
    private Chunk[] chunks = new Chunk[8];
    private int chunkCount;
    private int[] unitStart = new int[9]; // unit u is chunks [unitStart[u], unitStart[u + 1])
    private int unitCount;
    private int chunkRows;
    private final QueryVisitor gatherer = this::add;

    /**
     * Gathers the non-empty archetypes of {@code query} for a pass over {@code kernelColumns}, in iteration order.
     * The workers run after the iteration has ended, so the plan checks that its end published nothing that
     * touched the gathered archetypes, and gathers again if it did (a publication drains everything staged, so
     * the second gathering holds).
     */
    void gather(Query query, KernelColumns kernelColumns) {
        for (int attempt = 1; ; attempt++) {
            begin(kernelColumns);
            query.forEach(gatherer);
            if (unchanged()) {
                return;
            }
            if (attempt == MAX_GATHERS) {
                release();
                throw new IllegalStateException("the archetypes of " + query + " changed at the end of " + attempt
                        + " iterations in a row: something publishes work at every iteration's end");
            }
        }
    }

    /** Starts a pass over {@code kernelColumns}: forgets the previous pass's archetypes. */
    void begin(KernelColumns kernelColumns) {
        this.kernelColumns = kernelColumns;
        columns = kernelColumns.size();
        if (elementBytes.length < columns) {
            elementBytes = new int[columns];
        }
        for (int c = 0; c < columns; c++) {
            FieldHandle field = kernelColumns.column(c);
            elementBytes[c] = field.component().layout().fieldKinds().get(field.field()).byteSize();
        }
        archetypeCount = 0;
        totalRows = 0;
        chunkCount = 0;
        unitCount = 0;
    }

    /**
     * Gathers one archetype with {@code count > 0} rows, inside the query's iteration (calling thread only: reads
     * its column segments and its storage version).
     *
     * @throws IllegalArgumentException when the archetype lacks a column
     */
    void add(Archetype archetype, int count) {
        if (archetypeCount == archetypes.length) {
            archetypes = Arrays.copyOf(archetypes, archetypeCount * 2);
            counts = Arrays.copyOf(counts, archetypeCount * 2);
            versions = Arrays.copyOf(versions, archetypeCount * 2);
        }
        if (sources.length < (archetypeCount + 1) * columns) {
            sources = Arrays.copyOf(sources, Math.max((archetypeCount + 1) * columns, sources.length * 2));
        }
        for (int c = 0; c < columns; c++) {
            sources[archetypeCount * columns + c] = kernelColumns.segment(archetype, c);
        }
        archetypes[archetypeCount] = archetype;
        counts[archetypeCount] = count;
        versions[archetypeCount] = archetype.storageVersion();
        archetypeCount++;
        totalRows += count;
    }

    /**
     * Whether every gathered archetype still has the buffers and the row count it was gathered with: false when
     * the end of the iteration published work staged before it (after a failed commit), which may have replaced
     * buffers or moved rows; the pass must then gather again.
     */
    boolean unchanged() {
        for (int a = 0; a < archetypeCount; a++) {
            if (archetypes[a].storageVersion() != versions[a] || archetypes[a].count() != counts[a]) {
                return false;
            }
        }
        return true;
    }

    /** Cuts the gathered archetypes into chunks and units for {@code parallelism} threads. */
    void cut(int parallelism, int minChunkRows) {
        chunkRows = chunkRows(totalRows, parallelism, minChunkRows);
        chunkCount = 0;
        for (int a = 0; a < archetypeCount; a++) {
            for (int from = 0; from < counts[a]; from += chunkRows) {
                boolean last = counts[a] - from <= chunkRows;
                chunk(chunkCount++).cut(this, a, from, last ? counts[a] - from : chunkRows, last);
            }
        }
        unitCount = 0;
        long unitRows = 0;
        for (int c = 0; c < chunkCount; c++) {
            int rows = chunks[c].count;
            if (c == 0 || unitRows + rows > chunkRows) {
                if (unitStart.length < unitCount + 2) {
                    unitStart = Arrays.copyOf(unitStart, (unitCount + 2) * 2);
                }
                unitStart[unitCount++] = c;
                unitRows = 0;
            }
            unitRows += rows;
        }
        unitStart[unitCount] = chunkCount;
    }

    /**
     * The rows of every chunk but an archetype's last: {@code minChunkRows}, or the total over
     * {@code parallelism * UNITS_PER_THREAD} units rounded up to a power of two when that is larger.
     */
    static int chunkRows(long totalRows, int parallelism, int minChunkRows) {
        long units = (long) parallelism * UNITS_PER_THREAD;
        long perUnit = (totalRows + units - 1) / units;
        long rounded = perUnit <= 1 ? 1 : Long.highestOneBit(perUnit - 1) << 1;
        return (int) Math.min(Math.max(rounded, minChunkRows), 1 << 30);
    }

    /** Forgets the archetypes and their unsliced segments (the chunks keep their slices as a cache). */
    void release() {
        Arrays.fill(archetypes, 0, archetypeCount, null);
        Arrays.fill(sources, 0, archetypeCount * columns, null);
    }

    int archetypeCount() {
        return archetypeCount;
    }

    Archetype archetype(int index) {
        return archetypes[index];
    }

    /** The row count archetype {@code index} was gathered with. */
    int count(int index) {
        return counts[index];
    }

    int chunkCount() {
        return chunkCount;
    }

    Chunk chunk(int index) {
        if (index == chunks.length) {
            chunks = Arrays.copyOf(chunks, index * 2);
        }
        Chunk chunk = chunks[index];
        if (chunk == null) {
            chunk = chunks[index] = new Chunk();
        }
        return chunk;
    }

    int unitCount() {
        return unitCount;
    }

    /** The first chunk of unit {@code unit}; its chunks end at {@code unitStart(unit + 1)}. */
    int unitStart(int unit) {
        return unitStart[unit];
    }

    int chunkRows() {
        return chunkRows;
    }

    /**
     * One row range of one gathered archetype: the kernel's columns sliced to it, and what the worker that ran it
     * reports back (written by that worker only; read by the calling thread after the join).
     */
    static final class Chunk {
        int archetype;
        int firstRow;
        int count;
        boolean last;
        /** The slices the kernel receives, one per column. */
        MemorySegment[] segments = new MemorySegment[4];
        final ChunkCommands commands = new ChunkCommands();
        /** Set before the kernel starts on the chunk: it may have written the chunk's rows. */
        boolean ran;
        /** Whether a written column changed; also set when the kernel threw, since it may have written rows first. */
        boolean changed;
        Throwable failure;
        // slices cut before, keyed by (source segment, byte offset, byte length), replaced round robin: kernels over
        // different columns of the same archetypes all find theirs
        private final MemorySegment[] cacheSources = new MemorySegment[SLICE_CACHE];
        private final MemorySegment[] cacheSlices = new MemorySegment[SLICE_CACHE];
        private final long[] cacheOffsets = new long[SLICE_CACHE];
        private final long[] cacheLengths = new long[SLICE_CACHE];
        private int cacheNext;

        void cut(ChunkPlan plan, int archetype, int firstRow, int count, boolean last) {
            this.archetype = archetype;
            this.firstRow = firstRow;
            this.count = count;
            this.last = last;
            this.ran = false;
            this.changed = false;
            this.failure = null;
            commands.reset(count);
            int columns = plan.columns;
            if (segments.length < columns) {
                segments = new MemorySegment[columns];
            }
            for (int c = 0; c < columns; c++) {
                MemorySegment source = plan.sources[archetype * columns + c];
                long offset = (long) firstRow * plan.elementBytes[c];
                long length = last ? source.byteSize() - offset : (long) count * plan.elementBytes[c];
                segments[c] = slice(source, offset, length);
            }
        }

        /** {@code source.asSlice(offset, length)}, cut again only when the cache does not hold it. */
        private MemorySegment slice(MemorySegment source, long offset, long length) {
            for (int i = 0; i < SLICE_CACHE; i++) {
                if (cacheSources[i] == source && cacheOffsets[i] == offset && cacheLengths[i] == length) {
                    return cacheSlices[i];
                }
            }
            int i = cacheNext;
            cacheNext = (cacheNext + 1) % SLICE_CACHE;
            cacheSources[i] = source;
            cacheOffsets[i] = offset;
            cacheLengths[i] = length;
            return cacheSlices[i] = source.asSlice(offset, length);
        }
    }
}
