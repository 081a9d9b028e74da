package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.VELOCITY;
import static dev.jtecs.bench.particles.Particles.VX;
import static dev.jtecs.bench.particles.Particles.VY;
import static dev.jtecs.bench.particles.Particles.X;
import static dev.jtecs.bench.particles.Particles.Y;

import dev.jtecs.component.FloatField;
import dev.jtecs.component.Input;
import dev.jtecs.component.TagComponent;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Fixture building for the iterate workloads: spawns the {@link PeerWorlds} population into a jtecs world with
 * one {@code batchSpawn} per archetype, its columns filled by bulk copies, so a million-entity fixture costs a
 * fraction of a second of each fork instead of a million staged spawns.
 */
final class Populations {
    private Populations() {}

    /**
     * Spawns entities {@code 0..n-1} with Position ({@code x0(i)}, {@code y0(i)}) and Velocity ({@code vx0(i)},
     * {@code vy0(i)}) and the {@code constants}; with {@code tags} non-empty, entity {@code i} also carries
     * {@code tags[i % tags.length]} (one archetype per tag), else all share one archetype. Publishes before it
     * returns (scope depth 0).
     *
     * @return the ids, by entity index
     */
    static long[] spawnMoving(World world, int n, TagComponent[] tags, Input... constants) {
        int groups = Math.max(1, tags.length);
        long[] ids = new long[n];
        for (int g = 0; g < Math.min(groups, n); g++) {
            float[][] values = groupStart(n, groups, g);
            int count = values[0].length;
            List<Input> inputs = new ArrayList<>(List.of(POSITION, VELOCITY));
            inputs.addAll(List.of(constants));
            if (tags.length > 0) {
                inputs.add(tags[g]);
            }
            long[] batch = world.batchSpawn(count, inputs, (archetype, fromRow, toRow) -> {
                copy(values[0], archetype, X, fromRow, toRow);
                copy(values[1], archetype, Y, fromRow, toRow);
                copy(values[2], archetype, VX, fromRow, toRow);
                copy(values[3], archetype, VY, fromRow, toRow);
            }).toArray();
            for (int k = 0; k < count; k++) {
                ids[g + k * groups] = batch[k];
            }
        }
        return ids;
    }

    /**
     * The start values (x, y, vx, vy) of group {@code g} when entities {@code 0..n-1} are dealt into
     * {@code groups} groups: entities {@code g, g + groups, g + 2 * groups, ...}, in that order.
     */
    static float[][] groupStart(int n, int groups, int g) {
        int count = (n - g + groups - 1) / groups;
        float[][] values = new float[4][count];
        for (int k = 0; k < count; k++) {
            int i = g + k * groups;
            values[0][k] = PeerWorlds.x0(i);
            values[1][k] = PeerWorlds.y0(i);
            values[2][k] = PeerWorlds.vx0(i);
            values[3][k] = PeerWorlds.vy0(i);
        }
        return values;
    }

    /** Copies {@code values[0 .. toRow - fromRow)} into rows {@code [fromRow, toRow)} of a float column. */
    static void copy(float[] values, Archetype archetype, FloatField field, int fromRow, int toRow) {
        MemorySegment.copy(values, 0, archetype.getMut(field).segment(), ValueLayout.JAVA_FLOAT,
                (long) fromRow * Float.BYTES, toRow - fromRow);
    }
}
