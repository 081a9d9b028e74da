package dev.jtecs.nativebindings;

import static dev.jtecs.nativebindings.Dots.DOT;
import static dev.jtecs.nativebindings.Dots.HEAT;
import static dev.jtecs.nativebindings.Dots.ROW_BYTES;
import static dev.jtecs.nativebindings.Dots.SPIN;
import static dev.jtecs.nativebindings.Dots.VALUE;
import static dev.jtecs.nativebindings.Dots.X;
import static dev.jtecs.nativebindings.Dots.Y;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.FieldHandle;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DirtyUploaderTest {
    private static final List<FieldHandle> FIELDS = List.of(X, Y, VALUE);

    private World world;
    private MirrorTarget target;
    private DirtyUploader uploader;

    @BeforeEach
    void open() {
        world = World.create();
        target = new MirrorTarget(FIELDS.size());
        uploader = new DirtyUploader(FIELDS, target);
    }

    @AfterEach
    void close() {
        world.close();
        target.close();
    }

    /** The archetype holding Dot and Heat only (the other nine in ten dots). */
    private Archetype plain() {
        Archetype[] found = new Archetype[1];
        world.forEachArchetype(a -> {
            if (a.has(DOT) && a.has(HEAT) && !a.has(SPIN)) {
                found[0] = a;
            }
        });
        return found[0];
    }

    /** Every uploaded archetype's rows equal its region's, field by field. */
    private void assertMirrors() {
        world.forEachArchetype(archetype -> {
            long base = uploader.baseRowOf(archetype);
            if (!archetype.has(DOT) || !archetype.has(HEAT)) {
                assertEquals(-1, base, "an archetype without the components gets no region");
                return;
            }
            for (int f = 0; f < FIELDS.size(); f++) {
                long size = DirtyUploader.elementBytes(FIELDS.get(f));
                MemorySegment column = archetype.column(FIELDS.get(f)).segment().asSlice(0, archetype.count() * size);
                MemorySegment region = target.buffer(f).asSlice(base * size, archetype.count() * size);
                assertEquals(-1, column.mismatch(region), "field " + FIELDS.get(f).name() + " of " + archetype);
            }
        });
    }

    @Test
    void firstUploadSendsEveryRowThenACleanFrameSendsNothing() {
        Dots.spawn(world, 1000, 1);
        assertEquals(1000L * ROW_BYTES, uploader.upload(world));
        assertEquals(2, uploader.lastArchetypes());
        assertMirrors();
        assertEquals(0, uploader.upload(world));
        assertEquals(0, uploader.lastUploads());
        assertEquals(0, uploader.lastArchetypes());
    }

    @Test
    void oneGetMutSendsThatComponentsColumnsOfThatArchetypeOnly() {
        Dots.spawn(world, 1000, 2);
        uploader.upload(world);
        Archetype plain = plain();
        plain.getMut(VALUE).set(3, 0.25);
        target.uploads.clear();
        assertEquals(plain.count() * 8L, uploader.upload(world)); // Heat has one column: value
        assertEquals(List.of(new MirrorTarget.Upload(2, uploader.baseRowOf(plain) * 8, plain.count() * 8L)),
                target.uploads);
        plain.getMut(X); // dirty bits are per component: Dot's x and y both go
        assertEquals(plain.count() * 8L, uploader.upload(world));
        assertEquals(2, uploader.lastUploads());
        assertMirrors();
    }

    @Test
    void aSpawnBurstSendsOnlyTheAppendedRows() {
        Dots.spawn(world, 900, 3);
        uploader.upload(world);
        Archetype plain = plain();
        int before = plain.count();
        world.batchSpawn(50, List.of(DOT, HEAT));
        target.uploads.clear();
        assertEquals(50L * ROW_BYTES, uploader.upload(world));
        long base = uploader.baseRowOf(plain);
        assertEquals(new MirrorTarget.Upload(0, (base + before) * 4, 50L * 4), target.uploads.get(0));
        assertMirrors();
    }

    @Test
    void aDespawnSendsTheOverwrittenRowOnly() {
        Dots.spawn(world, 900, 4);
        uploader.upload(world);
        Archetype plain = plain();
        world.despawn(plain.entity(5)); // the last row moves into row 5
        assertEquals(ROW_BYTES, uploader.upload(world));
        assertMirrors();
    }

    @Test
    void moreOverwrittenRowsThanTheResidueHoldsSendTheWholeArchetype() {
        Dots.spawn(world, 2000, 5);
        uploader.upload(world);
        Archetype plain = plain();
        long[] doomed = new long[100];
        for (int i = 0; i < doomed.length; i++) {
            doomed[i] = plain.entity(i * 10);
        }
        world.despawn(doomed, 0, doomed.length);
        assertEquals((long) plain.count() * ROW_BYTES, uploader.upload(world));
        assertMirrors();
    }

    @Test
    void aGrowingArchetypeMovesItsRegionAndKeepsTheOthers() {
        Dots.spawn(world, 100, 6);
        uploader.upload(world);
        long capacity = uploader.capacityRows();
        world.batchSpawn(5000, List.of(DOT, HEAT));
        uploader.upload(world);
        assertTrue(uploader.capacityRows() > capacity, "buffers grew");
        assertMirrors();
    }

    @Test
    void randomChangesKeepEveryRegionEqualToItsArchetype() {
        Dots.spawn(world, 3000, 7);
        SplittableRandom random = new SplittableRandom(7);
        List<Long> ids = new ArrayList<>();
        world.forEachArchetype(a -> {
            for (int r = 0; r < a.count(); r++) {
                ids.add(a.entity(r));
            }
        });
        for (int frame = 0; frame < 40; frame++) {
            for (int op = 0; op < 20; op++) {
                int pick = random.nextInt(4);
                if (pick == 0 && !ids.isEmpty()) {
                    world.despawn(ids.remove(random.nextInt(ids.size())));
                } else if (pick == 1) {
                    ids.add(world.spawn(DOT.of(new Dots.Dot(op, frame)), HEAT.of(new Dots.Heat(0.5))));
                } else if (pick == 2 && !ids.isEmpty()) {
                    world.set(ids.get(random.nextInt(ids.size())), HEAT.of(new Dots.Heat(random.nextDouble())));
                } else if (!ids.isEmpty()) {
                    long id = ids.get(random.nextInt(ids.size()));
                    world.set(id, SPIN.of(new Dots.Spin(2f))); // moves it to the spinning archetype
                }
            }
            uploader.upload(world);
            assertMirrors();
        }
    }

    @Test
    void uploadEverythingSendsEveryRowWhetherDirtyOrNot() {
        Dots.spawn(world, 1000, 8);
        uploader.upload(world);
        assertEquals(1000L * ROW_BYTES, uploader.uploadEverything(world));
        assertEquals(0, uploader.upload(world), "uploadEverything consumed the dirty state");
        assertEquals(2000L * ROW_BYTES, uploader.totalBytes());
    }

    @Test
    void archetypesWithoutTheComponentsKeepTheirDirtyState() {
        long lone = world.spawn(SPIN.of(new Dots.Spin(1f)));
        Dots.spawn(world, 10, 9);
        uploader.upload(world);
        assertTrue(world.archetypeOf(lone).isComponentDirty(SPIN), "not ours to clear");
        assertEquals(-1, uploader.baseRowOf(world.archetypeOf(lone)));
    }

    @Test
    void regionsDescribeWhatToDraw() {
        Dots.spawn(world, 1000, 10);
        uploader.upload(world);
        int rows = 0;
        for (int r = 0; r < uploader.regionCount(); r++) {
            rows += uploader.regionRowCount(r);
        }
        assertEquals(1000, rows);
        assertThrows(IndexOutOfBoundsException.class, () -> uploader.regionBase(uploader.regionCount()));
    }

    @Test
    void badFieldListsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new DirtyUploader(List.of(), target));
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> new DirtyUploader(List.of(X, Y, X), target));
        assertTrue(twice.getMessage().contains("listed twice"), twice.getMessage());
        assertThrows(NullPointerException.class, () -> new DirtyUploader(FIELDS, null));
    }

    /**
     * An uploader into a target that only adds up byte counts: the allocation tests measure the uploader, not a
     * test target (the mirror's {@code MemorySegment.ofAddress} views are objects, kept off the heap only when
     * escape analysis happens to remove them).
     */
    private DirtyUploader countingUploader() {
        return new DirtyUploader(FIELDS, new UploadTarget() {
            @Override
            public void upload(int field, long byteOffset, long address, long byteCount) {
                uploadedBytes += byteCount;
            }

            @Override
            public void grow(int field, long capacityBytes, long keptBytes) { }
        });
    }

    private long uploadedBytes;

    @Test
    void aWarmResidueUploadAllocatesNothing() {
        Dots.spawn(world, 5000, 12);
        DirtyUploader uploader = countingUploader();
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long uploading = 0;
        long bytes = 0;
        for (int i = 0; i < 21_000; i++) {
            Archetype plain = plain();
            world.despawn(plain.entity(i % 100)); // a touched row ...
            world.batchSpawn(1, List.of(DOT, HEAT)); // ... and an appended one: the residue describes both
            long before = threads.getCurrentThreadAllocatedBytes();
            long sent = uploader.upload(world);
            long after = threads.getCurrentThreadAllocatedBytes();
            if (i >= 20_000) { // warm
                uploading += after - before;
                bytes += sent;
            }
        }
        assertEquals(0, uploading, "bytes allocated by 1,000 warm residue uploads");
        assertEquals(1000L * 2 * ROW_BYTES, bytes, "each sent two rows: the touched one and the appended one");
    }

    @Test
    void aWarmUploadAllocatesNothing() {
        Dots.spawn(world, 5000, 11);
        DirtyUploader uploader = countingUploader();
        Archetype plain = plain();
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long uploading = 0;
        for (int i = 0; i < 21_000; i++) { // the first 20,000 warm up exactly the loop that is measured
            plain.markComponentDirty(DOT); // what getMut marks, without the view it hands out
            long before = threads.getCurrentThreadAllocatedBytes();
            long sent = uploader.upload(world);
            long after = threads.getCurrentThreadAllocatedBytes();
            if (i > 0) { // the first sends the new archetypes whole
                assertEquals((long) plain.count() * 8, sent, "x and y of the plain archetype");
            }
            if (i >= 20_000) {
                uploading += after - before;
            }
        }
        assertEquals(0, uploading, "bytes allocated by 1,000 warm uploads");
        assertFalse(plain.isComponentDirty(DOT));
    }
}
