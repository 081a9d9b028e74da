package dev.jtecs.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ModelGeneratorTest {
    @Test
    void aHundredSeedsDrawEveryKindOfOperation() {
        Set<Class<?>> kinds = new HashSet<>();
        for (long seed = 0; seed < 100; seed++) {
            ModelScript.generate(seed, 400).ops().forEach(op -> kinds.add(op.getClass()));
        }
        assertEquals(Set.of(ModelOp.class.getPermittedSubclasses()), kinds);
    }

    @Test
    void theInstantPathComparesEveryTwentyFiveOperations() {
        for (long seed = 0; seed < 10; seed++) {
            ModelScript script = ModelScript.generate(seed, 100);
            int expected = script.instant() ? 100 + 100 / ModelGenerator.INSTANT_CHECK_EVERY : 100;
            // partition operations, field writes and reparenting bursts come from streams of their own, between the
            // others
            List<ModelOp> main = script.ops().stream().filter(op -> !(op instanceof ModelOp.PartitionTag)
                    && !(op instanceof ModelOp.FieldWrite) && !(op instanceof ModelOp.Reparent)).toList();
            assertEquals(expected, main.size(), "seed " + seed);
            if (script.instant()) {
                assertInstanceOf(ModelOp.Commit.class, main.get(ModelGenerator.INSTANT_CHECK_EVERY));
            }
        }
    }

    @Test
    void partitionOperationsDoNotChangeTheOtherOperationsOfASeed() {
        ModelScript script = ModelScript.generate(3, 300);
        List<ModelOp> partitionOps = script.ops().stream().filter(op -> op instanceof ModelOp.PartitionTag).toList();
        assertTrue(partitionOps.size() > 10, "partition operations: " + partitionOps.size());
        assertTrue(partitionOps.stream().anyMatch(op -> !((ModelOp.PartitionTag) op).set()));
    }

    @Test
    void fieldWritesDoNotChangeTheOtherOperationsOfASeed() {
        ModelScript script = ModelScript.generate(5, 300);
        List<ModelOp> writes = script.ops().stream().filter(op -> op instanceof ModelOp.FieldWrite).toList();
        assertTrue(writes.size() > 20, "field writes: " + writes.size());
        for (int mode = 0; mode < ModelFieldWrites.MODES; mode++) {
            int m = mode;
            assertTrue(writes.stream().anyMatch(op -> ((ModelOp.FieldWrite) op).mode() == m), "mode " + m);
        }
    }

    @Test
    void spawningOperationsBindDisjointHandlesInOrder() {
        List<ModelOp> ops = ModelScript.generate(5, 400).ops();
        int next = 0;
        for (ModelOp op : ops) {
            int width = ModelHandles.width(op);
            if (width > 0 && !(op instanceof ModelOp.BatchSpawn b && b.count() < 1)) {
                assertEquals(next, ModelHandles.first(op), op.toJava());
                next += width;
            }
        }
        assertTrue(next > 50, "handles=" + next);
    }

    /**
     * One seed in three keeps its edges to the sparse relationships (drawn apart from the operations): its script
     * names no dense relationship, while the other relational seeds do.
     */
    @Test
    void aSparseOnlySeedNamesNoDenseRelationship() {
        int sparseOnly = 0;
        int denseNamed = 0;
        for (long seed = 0; seed < 300; seed++) {
            ModelScript script = ModelScript.generate(seed, 200);
            if (!script.relational()) {
                continue;
            }
            String source = script.toJunit("");
            boolean dense = false;
            for (String name : List.of("FOLLOWS", "LEADS", "CHILD_OF", "SPRING")) {
                dense |= source.contains("(" + name + ",") || source.contains(", " + name + ")");
            }
            if (ModelGenerator.sparseOnly(seed)) {
                sparseOnly++;
                assertFalse(dense, "seed " + seed + " keeps to the sparse relationships");
            } else if (dense) {
                denseNamed++;
            }
        }
        assertTrue(sparseOnly > 40 && sparseOnly < 110, "about a third of some 225 relational seeds: " + sparseOnly);
        assertTrue(denseNamed > 100, "the other relational seeds name dense relationships: " + denseNamed);
    }

    /** Every sparse-only seed, and about half the others, would run its queries without membership callbacks. */
    @Test
    void aSparseOnlySeedAndHalfTheOthersGoUnwatched() {
        int others = 0;
        int othersUnwatched = 0;
        for (long seed = 0; seed < 1_000; seed++) {
            if (ModelGenerator.sparseOnly(seed)) {
                assertTrue(ModelGenerator.unwatched(seed), "seed " + seed);
            } else {
                others++;
                othersUnwatched += ModelGenerator.unwatched(seed) ? 1 : 0;
            }
        }
        assertTrue(othersUnwatched > others * 2 / 5 && othersUnwatched < others * 3 / 5,
                othersUnwatched + " of " + others);
    }

    @Test
    void bothPathsAndBothRelationModesAreDrawn() {
        int instant = 0;
        int relational = 0;
        for (long seed = 0; seed < 40; seed++) {
            ModelScript script = ModelScript.generate(seed, 1);
            instant += script.instant() ? 1 : 0;
            relational += script.relational() ? 1 : 0;
        }
        assertTrue(instant > 5 && instant < 35, "instant=" + instant);
        assertTrue(relational > 15 && relational < 40, "relational=" + relational);
    }

    @Test
    void reparentingBurstsSetOneTargetOnHandlesInAscendingOrderBackToBack() {
        int bursts = 0;
        int longest = 0;
        for (long seed = 0; seed < 60; seed++) {
            ModelScript script = ModelScript.generate(seed, 400);
            List<ModelOp> ops = script.ops();
            for (int i = 0; i < ops.size(); ) {
                if (!(ops.get(i) instanceof ModelOp.Reparent first)) {
                    i++;
                    continue;
                }
                assertTrue(script.relational(), "bursts only in relational runs; seed " + seed);
                assertEquals(ModelComponents.HELD_BY, first.edge().relationship());
                int j = i + 1;
                int last = ((ModelRef.Handle) first.id()).handle();
                while (j < ops.size() && ops.get(j) instanceof ModelOp.Reparent next
                        && next.edge().equals(first.edge()) && ((ModelRef.Handle) next.id()).handle() > last) {
                    last = ((ModelRef.Handle) next.id()).handle();
                    j++;
                }
                assertTrue(j - i <= 12, "at most twelve handles a burst; seed " + seed);
                longest = Math.max(longest, j - i);
                bursts++;
                i = j;
            }
        }
        assertTrue(bursts > 10, "bursts: " + bursts);
        assertTrue(longest >= 8, "some bursts long enough for a run: " + longest);
    }
}
