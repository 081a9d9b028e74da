package dev.jtecs.bench.jmh;

import com.artemis.Aspect;
import com.artemis.ComponentMapper;
import com.artemis.utils.IntBag;
import com.badlogic.ashley.core.Engine;
import com.badlogic.ashley.core.Entity;
import com.badlogic.ashley.core.Family;
import dev.dominion.ecs.api.Dominion;
import dev.jtecs.bench.particles.Particles;
import dev.jtecs.bench.peers.PeerComponents.ArtemisPosition;
import dev.jtecs.bench.peers.PeerComponents.AshleyPosition;
import dev.jtecs.bench.peers.PeerComponents.DominionPosition;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Test support: every Position an engine holds, as a sorted array of (x, y) bit pairs, so two engines that store
 * entities in different orders compare equal exactly when they hold the same positions, bit for bit.
 */
final class Positions {
    private Positions() {}

    private static long pair(float x, float y) {
        return ((long) Float.floatToRawIntBits(x) << 32) | (Float.floatToRawIntBits(y) & 0xFFFF_FFFFL);
    }

    private static long[] sorted(long[] pairs, int count) {
        long[] out = Arrays.copyOf(pairs, count);
        Arrays.sort(out);
        return out;
    }

    static long[] of(World world) {
        long[][] pairs = {new long[world.entityCount()]};
        int[] count = {0};
        world.forEachArchetype((Consumer<Archetype>) archetype -> {
            if (!archetype.has(Particles.POSITION)) {
                return;
            }
            for (int row = 0; row < archetype.count(); row++) {
                pairs[0][count[0]++] = pair(archetype.get(Particles.X).get(row), archetype.get(Particles.Y).get(row));
            }
        });
        return sorted(pairs[0], count[0]);
    }

    static long[] of(float[] x, float[] y) {
        long[] pairs = new long[x.length];
        for (int i = 0; i < x.length; i++) {
            pairs[i] = pair(x[i], y[i]);
        }
        return sorted(pairs, pairs.length);
    }

    static long[] of(MemorySegment x, MemorySegment y, int count) {
        long[] pairs = new long[count];
        for (int i = 0; i < count; i++) {
            pairs[i] = pair(x.getAtIndex(ValueLayout.JAVA_FLOAT, i), y.getAtIndex(ValueLayout.JAVA_FLOAT, i));
        }
        return sorted(pairs, count);
    }

    static long[] of(FragmentedColumns fragments) {
        int total = 0;
        for (int count : fragments.counts) {
            total += count;
        }
        long[] pairs = new long[total];
        int at = 0;
        for (int g = 0; g < fragments.counts.length; g++) {
            for (int i = 0; i < fragments.counts[g]; i++) {
                pairs[at++] = pair(fragments.segments[g][0].getAtIndex(ValueLayout.JAVA_FLOAT, i),
                        fragments.segments[g][1].getAtIndex(ValueLayout.JAVA_FLOAT, i));
            }
        }
        return sorted(pairs, total);
    }

    static long[] of(Dominion dominion) {
        long[][] pairs = {new long[16]};
        int[] count = {0};
        dominion.findEntitiesWith(DominionPosition.class).forEach(r -> {
            if (count[0] == pairs[0].length) {
                pairs[0] = Arrays.copyOf(pairs[0], count[0] * 2);
            }
            pairs[0][count[0]++] = pair(r.comp().x, r.comp().y);
        });
        return sorted(pairs[0], count[0]);
    }

    static long[] of(com.artemis.World artemis) {
        ComponentMapper<ArtemisPosition> positions = artemis.getMapper(ArtemisPosition.class);
        IntBag bag = artemis.getAspectSubscriptionManager().get(Aspect.all(ArtemisPosition.class)).getEntities();
        long[] pairs = new long[bag.size()];
        for (int i = 0; i < bag.size(); i++) {
            ArtemisPosition p = positions.get(bag.get(i));
            pairs[i] = pair(p.x, p.y);
        }
        return sorted(pairs, pairs.length);
    }

    static long[] of(Engine ashley) {
        var entities = ashley.getEntitiesFor(Family.all(AshleyPosition.class).get());
        long[] pairs = new long[entities.size()];
        for (int i = 0; i < entities.size(); i++) {
            Entity e = entities.get(i);
            AshleyPosition p = e.getComponent(AshleyPosition.class);
            pairs[i] = pair(p.x, p.y);
        }
        return sorted(pairs, pairs.length);
    }
}
