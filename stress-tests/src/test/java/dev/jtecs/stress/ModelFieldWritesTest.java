package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.MARKED;
import static dev.jtecs.stress.ModelComponents.POSITION;
import static dev.jtecs.stress.ModelComponents.STATS;
import static dev.jtecs.stress.ModelOp.commit;
import static dev.jtecs.stress.ModelOp.fieldWrite;
import static dev.jtecs.stress.ModelOp.h;
import static dev.jtecs.stress.ModelOp.read;
import static dev.jtecs.stress.ModelOp.spawn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.PrimitiveKind;
import dev.jtecs.stress.ModelComponents.Position;
import dev.jtecs.stress.ModelComponents.Stats;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelFieldWritesTest {
    private static final int OPERATIONS = 400;

    @Test
    void aScriptedRunLandsWritesInEachWayAndRefusesAnExpiredRow() {
        ModelScript script = new ModelScript(11, false, false, List.of(
                spawn(0, false, POSITION.of(new Position(1, 2))),
                spawn(1, false, MARKED),
                fieldWrite(h(0), POSITION, 0, 3, ModelFieldWrites.AGAIN), // the writer holds no row yet
                fieldWrite(h(0), POSITION, 0, 3, ModelFieldWrites.WRITE), // staged spawn: no row yet
                commit(false, h(0)),
                fieldWrite(h(0), POSITION, 0, 3, ModelFieldWrites.WRITE), // x = 3.5
                fieldWrite(h(0), POSITION, 1, -4, ModelFieldWrites.ROW), // y = -3.5, the writer's row
                fieldWrite(h(1), POSITION, 1, 0, ModelFieldWrites.ROW), // lacks Position
                fieldWrite(h(1), POSITION, 1, 9, ModelFieldWrites.AGAIN), // the refused at left no row
                fieldWrite(h(0), POSITION, 1, 6, ModelFieldWrites.ROW),
                fieldWrite(h(0), POSITION, 0, 7, ModelFieldWrites.AGAIN), // x = 7.5 on that row
                read(h(0)),
                spawn(2, false, POSITION.of(new Position(0, 0))),
                commit(false, h(0)), // a row placed in Position's archetype: the writer's row expires
                fieldWrite(h(0), POSITION, 0, 8, ModelFieldWrites.AGAIN),
                fieldWrite(h(2), STATS, 3, 1, ModelFieldWrites.ROW))); // lacks Stats
        ModelRun run = new ModelRun(script);
        run.run();
        ModelFieldWrites writes = run.fieldWrites();
        assertEquals(1, writes.landed(ModelFieldWrites.WRITE));
        assertEquals(2, writes.landed(ModelFieldWrites.ROW));
        assertEquals(1, writes.landed(ModelFieldWrites.AGAIN));
        assertEquals(2, writes.refused("noRow"));
        assertEquals(1, writes.refused("unplaced"));
        assertEquals(2, writes.refused("lacking"));
        assertEquals(1, writes.refused("expired"));
        assertEquals(new Position(7.5f, 6.5f), run.model().row(run.resolve(h(0))).get(POSITION));
    }

    @Test
    void generatedRunsMeetEveryCase() {
        long[] landed = new long[ModelFieldWrites.MODES];
        long notLive = 0;
        long unplaced = 0;
        long lacking = 0;
        long expired = 0;
        for (long seed = 1; seed <= 40; seed++) {
            ModelRun run = new ModelRun(seed, OPERATIONS);
            run.run(); // throws ModelMismatch (naming the seed and the script) where world and reference disagree
            ModelFieldWrites writes = run.fieldWrites();
            for (int mode = 0; mode < ModelFieldWrites.MODES; mode++) {
                landed[mode] += writes.landed(mode);
            }
            notLive += writes.refused("notLive");
            unplaced += writes.refused("unplaced");
            lacking += writes.refused("lacking");
            expired += writes.refused("expired");
        }
        for (int mode = 0; mode < ModelFieldWrites.MODES; mode++) {
            assertTrue(landed[mode] > 20, "writes landed in mode " + mode + ": " + landed[mode]);
        }
        assertTrue(notLive > 0 && unplaced > 0 && lacking > 0 && expired > 0,
                "refusals: not live " + notLive + ", unplaced " + unplaced + ", lacking " + lacking + ", expired "
                        + expired);
    }

    @Test
    void valuesCoverEveryKindAndRecordsTakeThem() {
        assertEquals((byte) -3, ModelFieldWrites.value(PrimitiveKind.BYTE, -3));
        assertEquals(true, ModelFieldWrites.value(PrimitiveKind.BOOLEAN, -3));
        assertEquals('x', ModelFieldWrites.value(PrimitiveKind.CHAR, -3));
        assertEquals(-2.5f, ModelFieldWrites.value(PrimitiveKind.FLOAT, -3));
        assertEquals(-3_000_000_021L, ModelFieldWrites.value(PrimitiveKind.LONG, -3));
        Stats stats = new Stats((byte) 1, false, (short) 2, 'c', 3, 4L, 5f, 6.0);
        assertEquals(new Stats((byte) 1, false, (short) 2, 'q', 3, 4L, 5f, 6.0),
                ReferenceRows.withField(stats, "c", 'q'));
    }
}
