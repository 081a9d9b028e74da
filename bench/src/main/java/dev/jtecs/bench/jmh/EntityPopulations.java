package dev.jtecs.bench.jmh;

import static dev.jtecs.bench.particles.Particles.POSITION;
import static dev.jtecs.bench.particles.Particles.VELOCITY;
import static dev.jtecs.bench.particles.Particles.VX;
import static dev.jtecs.bench.particles.Particles.VY;
import static dev.jtecs.bench.particles.Particles.X;
import static dev.jtecs.bench.particles.Particles.Y;

import com.artemis.ComponentMapper;
import com.badlogic.ashley.core.Engine;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.jtecs.bench.peers.PeerComponents.ArtemisPosition;
import dev.jtecs.bench.peers.PeerComponents.ArtemisVelocity;
import dev.jtecs.bench.peers.PeerComponents.AshleyPosition;
import dev.jtecs.bench.peers.PeerComponents.AshleyVelocity;
import dev.jtecs.bench.peers.PeerComponents.DominionPosition;
import dev.jtecs.bench.peers.PeerComponents.DominionVelocity;
import dev.jtecs.component.Input;
import dev.jtecs.mutation.BatchCallback;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.world.World;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Fixture building for the per-entity workloads ({@code set_existing}, {@code set_new}, {@code remove},
 * {@code despawn_single}): N entities with Position, and Velocity when asked, in each engine, returned as the
 * handles that engine's per-entity calls take (jtecs ids, Dominion and Ashley entity objects, Artemis-odb ints),
 * in creation order.
 *
 * <p>Entity {@code i} holds the same values in every engine: Position ({@link PeerWorlds#x0 x0(i)},
 * {@link PeerWorlds#y0 y0(i)}) and Velocity ({@link PeerWorlds#vx0 vx0(i)}, {@link PeerWorlds#vy0 vy0(i)}).
 * jtecs is filled by one {@code batchSpawn} whose initializer copies the columns in bulk (a million staged
 * spawns would cost each fork seconds); the peers create one entity at a time, their only way. Every call
 * publishes before it returns (jtecs at scope depth 0, Artemis-odb through {@code process}).
 */
final class EntityPopulations {
    private EntityPopulations() {}

    /** Spawns entities {@code 0..n-1} with Position (and Velocity) into {@code world}; returns their ids. */
    static long[] jtecs(World world, int n, boolean velocity) {
        float[][] values = Populations.groupStart(n, 1, 0);
        List<Input> inputs = velocity ? List.of(POSITION, VELOCITY) : List.of(POSITION);
        int[] placed = {0}; // entities placed by earlier calls: the initializer sees the batch in order
        return world.batchSpawn(n, inputs, (archetype, fromRow, toRow) -> {
            int from = placed[0];
            copy(values[0], from, archetype.getMut(X), fromRow, toRow);
            copy(values[1], from, archetype.getMut(Y), fromRow, toRow);
            if (velocity) {
                copy(values[2], from, archetype.getMut(VX), fromRow, toRow);
                copy(values[3], from, archetype.getMut(VY), fromRow, toRow);
            }
            placed[0] += toRow - fromRow;
        }).toArray();
    }

    /** Copies {@code values[from ..]} into rows {@code [fromRow, toRow)} of a float column, in bulk. */
    private static void copy(float[] values, int from, FloatColumn column, int fromRow, int toRow) {
        MemorySegment.copy(values, from, column.segment(), ValueLayout.JAVA_FLOAT, (long) fromRow * Float.BYTES,
                toRow - fromRow);
    }

    /**
     * A {@code batchSet} writer giving every row it is handed the Velocity of the entity whose Position sits in
     * that row: entity {@code i} has x = {@code x0(i) = i}, so its Velocity is ({@code vx0(i)}, {@code vy0(i)})
     * whatever order the rows are in. Fixture code (untimed), one row at a time.
     */
    static final BatchCallback VELOCITY_FROM_POSITION = (archetype, fromRow, toRow) -> {
        FloatColumn x = archetype.get(X);
        FloatColumn vx = archetype.getMut(VX);
        FloatColumn vy = archetype.getMut(VY);
        for (int row = fromRow; row < toRow; row++) {
            int i = (int) x.get(row);
            vx.set(row, PeerWorlds.vx0(i));
            vy.set(row, PeerWorlds.vy0(i));
        }
    };

    /** Creates entities {@code 0..n-1} in {@code dominion}, one {@code createEntity} each. */
    static Entity[] dominion(Dominion dominion, int n, boolean velocity) {
        Entity[] entities = new Entity[n];
        for (int i = 0; i < n; i++) {
            DominionPosition p = new DominionPosition(PeerWorlds.x0(i), PeerWorlds.y0(i));
            entities[i] = velocity
                    ? dominion.createEntity(p, new DominionVelocity(PeerWorlds.vx0(i), PeerWorlds.vy0(i)))
                    : dominion.createEntity(p);
        }
        return entities;
    }

    /** Creates entities {@code 0..n-1} in {@code artemis} through mappers, then {@code process}. */
    static int[] artemis(com.artemis.World artemis, int n, boolean velocity) {
        ComponentMapper<ArtemisPosition> positions = artemis.getMapper(ArtemisPosition.class);
        ComponentMapper<ArtemisVelocity> velocities = artemis.getMapper(ArtemisVelocity.class);
        int[] entities = new int[n];
        for (int i = 0; i < n; i++) {
            entities[i] = artemis.create();
            ArtemisPosition p = positions.create(entities[i]);
            p.x = PeerWorlds.x0(i);
            p.y = PeerWorlds.y0(i);
            if (velocity) {
                ArtemisVelocity v = velocities.create(entities[i]);
                v.x = PeerWorlds.vx0(i);
                v.y = PeerWorlds.vy0(i);
            }
        }
        artemis.process();
        return entities;
    }

    /** Creates entities {@code 0..n-1} in {@code ashley}: {@code createEntity}, {@code add}s, {@code addEntity}. */
    static com.badlogic.ashley.core.Entity[] ashley(Engine ashley, int n, boolean velocity) {
        com.badlogic.ashley.core.Entity[] entities = new com.badlogic.ashley.core.Entity[n];
        for (int i = 0; i < n; i++) {
            com.badlogic.ashley.core.Entity entity = ashley.createEntity();
            AshleyPosition p = new AshleyPosition();
            p.x = PeerWorlds.x0(i);
            p.y = PeerWorlds.y0(i);
            entity.add(p);
            if (velocity) {
                entity.add(ashleyVelocity(i));
            }
            ashley.addEntity(entity);
            entities[i] = entity;
        }
        return entities;
    }

    /** Entity {@code i}'s Ashley Velocity, a new instance. */
    static AshleyVelocity ashleyVelocity(int i) {
        AshleyVelocity v = new AshleyVelocity();
        v.x = PeerWorlds.vx0(i);
        v.y = PeerWorlds.vy0(i);
        return v;
    }

    /** Every entity Dominion holds, collected before any is deleted. */
    static List<Entity> all(Dominion dominion) {
        List<Entity> all = new ArrayList<>();
        for (Entity entity : dominion.<Entity>findAllEntities()) {
            all.add(entity);
        }
        return all;
    }
}
