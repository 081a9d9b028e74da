package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.HEALTH;
import static dev.jtecs.stress.ModelComponents.POSITION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentValue;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.Input;
import dev.jtecs.entity.Entity;
import dev.jtecs.query.Query;
import dev.jtecs.storage.Archetype;
import dev.jtecs.stress.ModelComponents.Position;
import dev.jtecs.mutation.BatchCallback;
import dev.jtecs.world.World;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness catches engine bugs and shrinks them: each test puts a deliberately broken piece between the run
 * and a real world (a {@link WorldCalls} façade that misbehaves the way an engine bug would), sweeps seeds until
 * the harness reports a mismatch, shrinks it to at most five operations that still fail with the same kind of
 * mismatch, and compiles the emitted JUnit source to check that it rebuilds exactly the shrunk script. The real
 * engine passes every shrunk script: the failure is the injected bug's.
 */
class ModelShrinkerTest {
    private static final int OPERATIONS = 400;
    private static final int MAX_SEEDS = 200;
    private static final Duration BUDGET = Duration.ofSeconds(60);
    private static final FloatField PX = POSITION.floatField("x");
    private static final FloatField PY = POSITION.floatField("y");

    @TempDir
    Path dir;

    /** Forgets to forward the despawn of an entity in an odd slot, as a despawn lost on some path would. */
    static final class DroppedDespawn implements WorldCalls {
        @Override
        public void despawn(World world, long id) {
            if (Entity.slot(id) % 2 == 0) {
                world.despawn(id);
            }
        }
    }

    /**
     * A swap-remove that moves the last row into the hole but forgets the {@code Position} column: the moved
     * entity keeps the despawned entity's position (outside scopes, where a despawn publishes at once).
     */
    static final class StaleColumnOnSwapRemove implements WorldCalls {
        @Override
        public void despawn(World world, long id) {
            if (world.scopeDepth() > 0 || !world.isAlive(id) || !world.has(id, POSITION)) {
                world.despawn(id);
                return;
            }
            Archetype archetype = world.archetypeOf(id);
            int hole = world.rowOf(id);
            Position stale = world.get(id, POSITION);
            world.despawn(id);
            if (hole < archetype.count()) { // a row moved in
                archetype.get(PX).set(hole, stale.x()); // read handles: no dirty mark either
                archetype.get(PY).set(hole, stale.y());
            }
        }
    }

    /** A write-through of {@code Health} that stores the value but never marks the column dirty. */
    static final class UnmarkedWriteThrough implements WorldCalls {
        @Override
        public void set(World world, long id, Input input) {
            if (world.scopeDepth() == 0 && input instanceof ComponentValue<?> value && value.component() == HEALTH
                    && world.isAlive(id) && world.has(id, HEALTH)) {
                world.archetypeOf(id).get(HEALTH).set(world.rowOf(id), (Double) value.value());
                return;
            }
            world.set(id, input);
        }
    }

    /** A batch writer handed each row range one row short: the last row of every range is never written. */
    static final class ShortBatchRange implements WorldCalls {
        @Override
        public void batchSet(World world, Query query, Component<?> component, BatchCallback writer) {
            world.batchSet(query, component, (archetype, fromRow, toRow) -> writer.rows(archetype, fromRow, toRow - 1));
        }
    }

    @Test
    void droppedDespawnIsCaughtAndShrunk() throws Exception {
        caughtAndShrunk(DroppedDespawn::new);
    }

    @Test
    void swapRemoveThatForgetsAColumnIsCaughtAndShrunk() throws Exception {
        caughtAndShrunk(StaleColumnOnSwapRemove::new);
    }

    @Test
    void writeThroughWithoutDirtyMarkIsCaughtAndShrunk() throws Exception {
        ModelShrinker.Result result = caughtAndShrunk(UnmarkedWriteThrough::new);
        assertTrue(result.mismatch().detail().contains("dirty"), result.mismatch().detail());
    }

    @Test
    void batchWriterRangeOffByOneIsCaughtAndShrunk() throws Exception {
        caughtAndShrunk(ShortBatchRange::new);
    }

    @Test
    void shrinkingNeedsTheFailingScript() {
        ModelMismatch seedOnly = new ModelMismatch(1L, 0, "x", List.of());
        assertThrows(IllegalArgumentException.class, () -> ModelShrinker.shrink(seedOnly, BUDGET));
    }

    @Test
    void anExhaustedBudgetStillReturnsAFailingScript() {
        ModelMismatch failure = firstFailure(DroppedDespawn::new);
        ModelShrinker.Result result = ModelShrinker.shrink(failure.script(), failure, DroppedDespawn::new,
                Duration.ZERO);
        assertTrue(!result.complete() || result.shrunk().ops().size() <= 2, "complete=" + result.complete());
        ModelMismatch again = assertThrows(ModelMismatch.class,
                () -> new ModelRun(result.shrunk(), new DroppedDespawn()).run());
        assertEquals(failure.kind(), again.kind());
    }

    /** Sweeps seeds through the broken piece until the harness notices, then shrinks and checks the result. */
    private ModelShrinker.Result caughtAndShrunk(Supplier<WorldCalls> broken) throws Exception {
        ModelMismatch failure = firstFailure(broken);
        ModelShrinker.Result result = ModelShrinker.shrink(failure.script(), failure, broken, BUDGET);
        ModelScript shrunk = result.shrunk();
        System.out.printf("%s: seed %d caught at operation %d (%s); shrunk to %d operations in %d runs, %d ms%n",
                broken.get().getClass().getSimpleName(), failure.seed(), failure.step(), failure.kind(),
                shrunk.ops().size(), result.executions(), result.took().toMillis());
        assertTrue(shrunk.ops().size() <= 5, "shrunk to " + shrunk.ops().size() + " operations:\n" + result.junit());
        ModelMismatch again = assertThrows(ModelMismatch.class, () -> new ModelRun(shrunk, broken.get()).run());
        assertEquals(failure.kind(), again.kind(), "the shrunk script fails with the same kind of mismatch");
        new ModelRun(shrunk).run(); // the real engine passes it: the failure is the injected bug's
        String source = result.junit();
        for (ModelOp op : shrunk.ops()) {
            assertTrue(source.contains(op.toJava()), op.toJava() + " missing from\n" + source);
        }
        assertTrue(source.contains("seed " + failure.seed()), source);
        assertEquals(shrunk, EmittedTests.compileAndLoad(source, dir), "the emitted test rebuilds the script");
        return result;
    }

    private static ModelMismatch firstFailure(Supplier<WorldCalls> broken) {
        SplittableRandom seeds = new SplittableRandom(20261129L);
        for (int i = 0; i < MAX_SEEDS; i++) {
            ModelScript script = ModelScript.generate(seeds.nextLong(), OPERATIONS);
            try {
                new ModelRun(script, broken.get()).run();
            } catch (ModelMismatch mismatch) {
                assertNotNull(mismatch.script());
                return mismatch;
            }
        }
        throw new AssertionError(broken.get().getClass().getSimpleName() + " went unnoticed over " + MAX_SEEDS
                + " seeds");
    }
}
