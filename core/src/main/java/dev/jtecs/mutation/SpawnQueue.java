package dev.jtecs.mutation;

import dev.jtecs.component.BooleanField;
import dev.jtecs.component.ByteField;
import dev.jtecs.component.CharField;
import dev.jtecs.component.DoubleField;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.Input;
import dev.jtecs.component.IntField;
import dev.jtecs.component.LongField;
import dev.jtecs.component.ShortField;
import java.util.List;

/**
 * A spawn queue: one entity shape (components, constant values, requirements, the active state's tag), spawned
 * one entity at a time with the values written straight into the entity's staged row, no record and no input
 * object per entity. Worlds make them ({@code World.spawnQueue}); a queue serves its world only, on its owner
 * thread.
 *
 * <pre>
 * SpawnQueue particles = world.spawnQueue(List.of(POSITION, VELOCITY));   // once
 * world.defer();
 * for (int i = 0; i &lt; n; i++) {
 *     long id = particles.spawn();                                   // the id at once, OnSpawn delivered
 *     particles.set(X, x[i]).set(Y, y[i]).set(VX, vx[i]).set(VY, vy[i]); // the row of the last spawn
 * }
 * world.commit(); // the queued rows are placed as one range: one bulk copy per column
 * </pre>
 *
 * <p>Each {@link #spawn()} is a spawn path like {@code World.spawn}: it reserves and returns an id at once,
 * delivers {@code OnSpawn} during the call, adds the active state's tag, is its own scope (so outside any scope
 * it publishes before it returns), and its entity stays staged until its scope closes. The entities of a
 * transaction queued back to back are placed together with the spawn batches of their segment, before the
 * per-entity spawns, as the reference places its bundle queues. A spawned row starts with the queue's constant
 * values and every other component at its default, as {@code World.spawn} starts it (a native component's
 * default, its factory run per entity; a scalar's declared default; a managed component's default, one object
 * made for each entity, where a batch would leave it empty), and the {@code set} calls overwrite fields of
 * the entity the last {@code spawn()} returned: while it is staged they write its staged row, once it is
 * published they write its row in its archetype (marking the column dirty). Like a batch initializer, those
 * writes are the entity's initial values: other staged calls on its id ({@code World.set}, {@code remove},
 * {@code despawn}, from an {@code OnSpawn} observer too) apply after them.
 *
 * <p>Calls made with a field of a component the shape lacks, or on another thread, throw before anything
 * changes.
 *
 * @implNote A warm spawn allocates nothing (the staged rows and the queue's id buffer grow geometrically and are
 *     reused once their batch is placed), unless a component's default is made per entity: a native component of
 *     the shape with a default factory, or a managed one named by its definition.
 */
public interface SpawnQueue {
    /**
     * Spawns one entity of the queue's shape and returns its id.
     *
     * @throws IllegalStateException when the world is full (nothing is reserved)
     * @throws IllegalArgumentException when an edge of the shape targets an entity that is no longer alive
     */
    long spawn();

    /**
     * Makes room for {@code count} more spawns through this queue, so that they grow none of the heap arrays a
     * spawn writes: the world's entity index, the queue's staged rows and its id buffer (what a first spawn
     * into a new world otherwise pays as those arrays double). The room serves the shape the queue last planned
     * (at its creation or its last spawn): when the active state has changed since, the next spawn plans the new
     * shape, which grows as it goes. The archetype's columns grow when the rows are placed, once for the whole
     * batch, as without it. Like reserving an {@code ArrayList}'s capacity, it runs no user code and changes
     * nothing a reader can see. Returns this queue.
     *
     * @throws IllegalArgumentException when {@code count} is negative or more entities than the world can
     *     still hold ({@code maxEntities}, recycled slots counted); nothing changes
     * @throws IllegalStateException when the world is closed
     */
    SpawnQueue reserve(int count);

    /** The inputs the queue was made with, in order (the shape before requirements and the state tag). */
    List<Input> inputs();

    /** The id the last {@link #spawn()} returned, 0 before the first. */
    long last();

    SpawnQueue set(FloatField field, float value);

    SpawnQueue set(IntField field, int value);

    SpawnQueue set(LongField field, long value);

    SpawnQueue set(DoubleField field, double value);

    SpawnQueue set(ShortField field, short value);

    SpawnQueue set(ByteField field, byte value);

    SpawnQueue set(CharField field, char value);

    SpawnQueue set(BooleanField field, boolean value);
}
