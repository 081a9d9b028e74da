package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.jmh.MoveWholeArchetypeBenchmark.RESIDENT_X;
import static dev.jtecs.bench.jmh.MoveWholeArchetypeBenchmark.TAG;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.badlogic.ashley.core.Entity;
import dev.jtecs.bench.particles.Particles;
import dev.jtecs.bench.peers.PeerComponents.AshleyPosition;
import dev.jtecs.bench.peers.PeerComponents.AshleyTag;
import dev.jtecs.bench.peers.PeerComponents.DominionPosition;
import dev.jtecs.bench.peers.PeerComponents.DominionTag;
import dev.jtecs.storage.Archetype;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every {@code move_whole_archetype} variant tags exactly the N movers (residents stay as they were), and the
 * untimed restore brings every engine back to its start, so repeated operations do the same work.
 */
class MoveWholeArchetypeBenchmarkTest {
    private static final int N = 300;

    /** How many entities carry the tag, and the sum of their position x (movers 1..N, residents -1 each). */
    record Census(int tagged, double xSum) {}

    @ParameterizedTest
    @ValueSource(strings = {"empty", "populated"})
    void everyEngineTagsTheMoversAndRestoresTheStart(String destination) {
        MoveWholeArchetypeBenchmark bench = new MoveWholeArchetypeBenchmark();
        bench.entities = N;
        bench.destination = destination;
        bench.setUp(EngineUnderTest.ALL);
        try {
            int residents = bench.residents();
            Census start = new Census(residents, residents == 0 ? 0.0 : residents * (double) RESIDENT_X); // not -0.0
            Census moved = new Census(N + residents, start.xSum() + N * (N + 1) / 2.0);
            check(bench, start, moved, MoveWholeArchetypeBenchmark::jtecs, MoveWholeArchetypeBenchmarkTest::jtecs);
            check(bench, start, moved, MoveWholeArchetypeBenchmark::dominion,
                    MoveWholeArchetypeBenchmarkTest::dominion);
            check(bench, start, moved, MoveWholeArchetypeBenchmark::artemis,
                    MoveWholeArchetypeBenchmarkTest::artemis);
            check(bench, start, moved, MoveWholeArchetypeBenchmark::ashley, MoveWholeArchetypeBenchmarkTest::ashley);
        } finally {
            bench.tearDown();
        }
    }

    private static void check(MoveWholeArchetypeBenchmark bench, Census start, Census moved,
            Consumer<MoveWholeArchetypeBenchmark> operation, Function<MoveWholeArchetypeBenchmark, Census> census) {
        for (int round = 0; round < 3; round++) {
            assertEquals(start, census.apply(bench), "before operation " + round);
            operation.accept(bench);
            assertEquals(moved, census.apply(bench), "after operation " + round);
            bench.restore();
        }
        assertEquals(start, census.apply(bench), "after the last restore");
    }

    private static Census jtecs(MoveWholeArchetypeBenchmark bench) {
        int[] tagged = {0};
        double[] sum = {0};
        bench.world.forEachArchetype((Archetype archetype) -> {
            if (!archetype.has(TAG)) {
                return;
            }
            for (int row = 0; row < archetype.count(); row++) {
                sum[0] += archetype.get(Particles.X).get(row);
            }
            tagged[0] += archetype.count();
        });
        assertEquals(N + bench.residents(), bench.world.entityCount(), "jtecs: nobody spawned or lost");
        return new Census(tagged[0], sum[0]);
    }

    private static Census dominion(MoveWholeArchetypeBenchmark bench) {
        int[] tagged = {0};
        double[] sum = {0};
        bench.dominion.findEntitiesWith(DominionPosition.class, DominionTag.class).forEach(r -> {
            tagged[0]++;
            sum[0] += r.comp1().x;
        });
        return new Census(tagged[0], sum[0]);
    }

    private static Census artemis(MoveWholeArchetypeBenchmark bench) {
        int tagged = 0;
        double sum = 0;
        com.artemis.utils.IntBag all = bench.artemis.getAspectSubscriptionManager()
                .get(com.artemis.Aspect.all()).getEntities();
        assertEquals(N + bench.residents(), all.size(), "artemis: nobody spawned or lost");
        for (int i = 0; i < all.size(); i++) {
            int e = all.get(i);
            if (bench.artemisTags.has(e)) {
                tagged++;
                sum += bench.artemisPositions.get(e).x;
            }
        }
        return new Census(tagged, sum);
    }

    private static Census ashley(MoveWholeArchetypeBenchmark bench) {
        int tagged = 0;
        double sum = 0;
        assertEquals(N + bench.residents(), bench.ashley.getEntities().size(), "ashley: nobody spawned or lost");
        for (Entity e : bench.ashley.getEntities()) {
            if (e.getComponent(AshleyTag.class) != null) {
                tagged++;
                sum += e.getComponent(AshleyPosition.class).x;
            }
        }
        return new Census(tagged, sum);
    }
}
