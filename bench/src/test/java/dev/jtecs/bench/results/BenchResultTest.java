package dev.jtecs.bench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BenchResultTest {
    @Test
    void anOperationCoversItsEntities() {
        BenchResult r = new BenchResult("transforms", 100_000, "jtecs", 2.5, 0.1, 16, 1);
        assertEquals(250_000.0, r.nsPerOp());
        assertEquals("transforms", r.workloadName());
        assertEquals("iterate_read",
                new BenchResult("iterate_read[components=2]", 16, "jtecs", 1, 0, 0, 1).workloadName());
    }

    @Test
    void unmeasuredErrorAndAllocationAreNaN() {
        BenchResult r = new BenchResult("integrate", 16, "jtecs", 0.2, Double.NaN, Double.NaN, 1);
        assertTrue(Double.isNaN(r.error()));
        assertTrue(Double.isNaN(r.allocBytesPerOp()));
    }

    @Test
    void countedBytesGiveGigabytesPerSecondAndEveryRowEntitiesPerSecond() {
        BenchResult save = new BenchResult("snapshot_save", 1_000_000, "jtecs", 2.0, 0.1, 64, 1)
                .withBytesPerOp(40_000_000);
        assertEquals(2_000_000.0, save.nsPerOp());
        assertEquals(20.0, save.gbPerSecond(), 1e-12, "40 MB in 2 ms");
        assertEquals(5e8, save.entitiesPerSecond(), 1e-3);
        BenchResult table = new BenchResult("snapshot_save", 1_000_000, "jtecs-table", 100, 1, 64, 1);
        assertTrue(Double.isNaN(table.bytesPerOp()) && Double.isNaN(table.gbPerSecond()), "counts no bytes");
        assertEquals(1e7, table.entitiesPerSecond(), 1e-6);
        assertTrue(Double.isNaN(BenchResult.failed("snapshot_save", 16, "jtecs", 1, "why").entitiesPerSecond()));
    }

    @Test
    void aFailedRowHasNoFiguresAndOneLineOfWhy() {
        BenchResult r = BenchResult.failed("spawn_single", 16384, "dominion", 1,
                "java.lang.ArrayIndexOutOfBoundsException: Index 1024 out of bounds for length 1024");
        assertTrue(r.isFailed());
        assertTrue(Double.isNaN(r.nsPerEntity()) && Double.isNaN(r.error()) && Double.isNaN(r.allocBytesPerOp()));
        assertTrue(Double.isNaN(r.nsPerOp()));
        assertFalse(new BenchResult("integrate", 16, "jtecs", 0.2, 0, 0, 1).isFailed());
        assertNull(new BenchResult("integrate", 16, "jtecs", 0.2, 0, 0, 1).failure());
    }

    @Test
    void rowsRunUncheckedUnlessMarked() {
        BenchResult measured = new BenchResult("integrate", 16, "jtecs", 0.2, 0, 0, 1);
        BenchResult failed = BenchResult.failed("integrate", 16, "dominion", 1, "why");
        assertFalse(measured.checkedViews());
        assertFalse(failed.checkedViews());
        BenchResult checked = measured.withCheckedViews(true);
        assertTrue(checked.checkedViews());
        assertEquals(measured, checked.withCheckedViews(false), "only the flag changes");
        assertEquals("why", failed.withCheckedViews(true).failure());
    }

    @Test
    void refusesAFailedRowWithFiguresOrWithoutAReason() {
        assertRefused(() -> BenchResult.failed("integrate", 16, "jtecs", 1, " "), "failure=' '");
        assertRefused(() -> BenchResult.failed("integrate", 16, "jtecs", 1, "two\nlines"), "failure='two");
        assertRefused(() -> new BenchResult("integrate", 16, "jtecs", 1, Double.NaN, Double.NaN, 1, "why",
                false),
                "nsPerEntity=1.0");
        assertRefused(() -> BenchResult.failed("integrate", 0, "jtecs", 1, "why"), "entities=0");
        assertRefused(() -> BenchResult.failed("integrate", 16, "bevy", 1, "why"), "impl='bevy'");
    }

    @Test
    void refusesImpossibleFiguresNamingEveryOperand() {
        assertRefused(() -> new BenchResult(" ", 16, "jtecs", 0.2, 0, 0, 1), "workload=' '");
        assertRefused(() -> new BenchResult("integrate", 0, "jtecs", 0.2, 0, 0, 1), "entities=0");
        assertRefused(() -> new BenchResult("integrate", 16, "jtecs", Double.NaN, 0, 0, 1), "nsPerEntity=NaN");
        assertRefused(() -> new BenchResult("integrate", 16, "jtecs", -1, 0, 0, 1), "nsPerEntity=-1.0");
        assertRefused(() -> new BenchResult("integrate", 16, "jtecs", 1, -0.5, 0, 1), "error=-0.5");
        assertRefused(() -> new BenchResult("integrate", 16, "jtecs", 1, 0, Double.POSITIVE_INFINITY, 1),
                "allocBytesPerOp=Infinity");
        assertRefused(() -> new BenchResult("integrate", 16, "jtecs", 1, 0, 0, 0), "threads=0");
        assertRefused(() -> new BenchResult("integrate", 16, "jtecs", 1, 0, 0, 1).withBytesPerOp(0), "bytesPerOp=0.0");
        assertRefused(() -> new BenchResult("integrate", 16, "jtecs", 1, 0, 0, 1).withBytesPerOp(-8),
                "bytesPerOp=-8.0");
        assertRefused(() -> new BenchResult("integrate", 16, "jtecs", Double.NaN, Double.NaN, Double.NaN, 1, "why",
                8), "bytesPerOp=8.0");
        assertRefused(() -> new BenchResult("integrate", 16, "bevy", 1, 0, 0, 1), "impl='bevy'");
    }

    private static void assertRefused(org.junit.jupiter.api.function.Executable make, String named) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, make);
        assertTrue(e.getMessage().contains(named), e.getMessage());
    }
}
