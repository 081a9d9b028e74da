package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.ACTIVE;
import static dev.jtecs.stress.ModelComponents.CHILD_OF;
import static dev.jtecs.stress.ModelComponents.ELITE;
import static dev.jtecs.stress.ModelComponents.FOLLOWS;
import static dev.jtecs.stress.ModelComponents.HEALTH;
import static dev.jtecs.stress.ModelComponents.KEY;
import static dev.jtecs.stress.ModelComponents.KEYED;
import static dev.jtecs.stress.ModelComponents.LABEL;
import static dev.jtecs.stress.ModelComponents.LEVEL;
import static dev.jtecs.stress.ModelComponents.LOAN;
import static dev.jtecs.stress.ModelComponents.MARKED;
import static dev.jtecs.stress.ModelComponents.NAME;
import static dev.jtecs.stress.ModelComponents.POSITION;
import static dev.jtecs.stress.ModelComponents.SCORE;
import static dev.jtecs.stress.ModelComponents.SPRING;
import static dev.jtecs.stress.ModelComponents.STATS;
import static dev.jtecs.stress.ModelComponents.VELOCITY;
import static dev.jtecs.stress.ModelComponents.WATCHES;
import static dev.jtecs.stress.ModelOp.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.Name;
import dev.jtecs.component.Components;
import dev.jtecs.stress.ModelComponents.Label;
import dev.jtecs.stress.ModelComponents.Loan;
import dev.jtecs.stress.ModelComponents.Position;
import dev.jtecs.stress.ModelComponents.Spring;
import dev.jtecs.stress.ModelComponents.Stats;
import dev.jtecs.stress.ModelComponents.Velocity;
import dev.jtecs.stress.ModelOp.KeyPlan;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelSourceTest {
    @TempDir
    Path dir;

    /** One operation of every kind, with awkward values (extremes, escapes, negative zero). */
    static ModelScript everyKind() {
        return new ModelScript(-42L, false, true, List.of(
                observeSpawns(4, SCORE.of(Long.MIN_VALUE)),
                observeSpawns(7, null),
                spawn(0, true, POSITION.of(new Position(-0.0f, 1.0E-7f)), LABEL.of(new Label("a\"b\\c\u00e9\n",
                        List.of("t1", ""))), MARKED),
                spawn(1, false, STATS.of(new Stats((byte) -128, true, Short.MIN_VALUE, '\uffff', Integer.MIN_VALUE,
                        Long.MAX_VALUE, Float.MAX_VALUE, Double.MIN_VALUE)), edge(FOLLOWS, h(0)),
                        edge(SPRING, h(0), new Spring(0L, 1.5f, 3))),
                spawnAt(2, beyond(2, 1), false, VELOCITY.of(new Velocity(3.25f, -2.5f)), ELITE),
                spawnAt(3, revive(0, 1), true, NAME.of("x"), HEALTH.of(12.5)),
                set(h(1), LEVEL.of(-5)), set(h(1), edge(LOAN, h(2), new Loan(0L, 4))), set(id(-1L), ACTIVE.of(false)),
                remove(h(1), MARKED), remove(h(1), WATCHES), removeEdge(h(1), edge(FOLLOWS, h(0))),
                despawn(id(0L)), read(id(1L)), commit(true, h(0)),
                batchSpawn(4, 3, List.of(POSITION, HEALTH), 1, POSITION, HEALTH.of(3.0), edge(CHILD_OF, h(0))),
                batchSpawn(7, -1, null, -1, MARKED),
                batchSpawnAt(7, List.of(beyond(1, 0), slotOf(0, 2), id(Long.MIN_VALUE)), null, -1, MARKED),
                batchSet(1, NAME.of("y")), batchSet(2, edge(WATCHES, h(4))), batchRewrite(3, STATS),
                batchRemove(4, LABEL), batchRemoveEdge(5, edge(FOLLOWS, h(0))), batchDespawn(6), update(),
                restore(10, List.of(beyond(3, 0), h(1)), List.of(), keys(KeyPlan.TWIN, KEYED, 1, 9), 0, true,
                        LEVEL.of(2)),
                restore(12, List.of(beyond(1, 0)), null, keys(KeyPlan.CONSTANT, null, 0, -1), -1, false),
                failingSpawn(13, 0, 2, List.of(), List.of(LEVEL), MARKED),
                failingSpawn(15, 2, 0, List.of(beyond(1, 0)), List.of()),
                failingWriter(7, HEALTH, 1), keyRejection(1, 0, List.of(beyond(1, 0)), 2, KEY, MARKED),
                clearEntities()));
    }

    @Test
    void anEmittedTestCompilesAndRebuildsTheScriptItWasWrittenFrom() throws Exception {
        ModelScript script = everyKind();
        String source = ModelSource.junit(script, "a note with */ and \\u0041 in it");
        assertEquals(script, EmittedTests.compileAndLoad(source, dir));
        assertTrue(source.contains("class ModelSeedM42Test {"), source);
    }

    @Test
    void theScriptOfEveryKindRunsCleanOnTheEngine() {
        ModelRun run = new ModelRun(everyKind());
        run.run();
        assertEquals(everyKind().ops().size(), run.executed());
        assertTrue(run.rejected() >= 4, "rejected=" + run.rejected());
        assertTrue(run.failedPublications() >= 2, "failed=" + run.failedPublications());
    }

    @Test
    void literalsReadBackAsTheSameValues() {
        assertEquals("1.0E-7f", ModelSource.value(1.0E-7f));
        assertEquals("-0.0f", ModelSource.value(-0.0f));
        assertEquals("4.9E-324", ModelSource.value(Double.MIN_VALUE));
        assertEquals("-9223372036854775808L", ModelSource.value(Long.MIN_VALUE));
        assertEquals("(char) 65535", ModelSource.value('\uffff'));
        assertEquals("\"a\\\"b\\\\c\\u00e9\\n\\001\"", ModelSource.string("a\"b\\c\u00e9\n\u0001"));
        assertEquals("new Label(\"w\", List.of(\"g1\"))", ModelSource.value(new Label("w", List.of("g1"))));
        assertEquals("HEALTH.of(2.5)", ModelSource.input(HEALTH.of(2.5)));
        assertEquals("List.of(POSITION, MARKED)", ModelSource.components(List.of(POSITION, MARKED)));
        assertEquals("null", ModelSource.components(null));
    }

    @Test
    void classNamesAreValidForNegativeSeeds() {
        assertEquals("ModelSeed7Test", ModelSource.className(7));
        assertEquals("ModelSeedM7Test", ModelSource.className(-7));
        assertEquals("ModelSeedM9223372036854775808Test", ModelSource.className(Long.MIN_VALUE));
    }

    @Test
    void componentsOutsideThePaletteHaveNoConstant() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ModelSource.constant(Name.COMPONENT));
        assertTrue(e.getMessage().contains(Name.COMPONENT.name()), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ModelSource.value(new Object()));
        assertTrue(Components.findByName("stress.Position") == POSITION);
    }
}
