package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.StorageKind;
import dev.jtecs.kernels.ColumnKernel;
import dev.jtecs.kernels.KernelRunner;
import dev.jtecs.kernels.MotionKernels;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.schedule.Phases;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples of {@code docs/getting-started.md}, and the example of the top-level README. */
class GettingStartedGuideTest {
    record Position(float x, float y) {}

    record Velocity(float dx, float dy) {}

    static final NativeComponent<Position> POSITION =
            Components.register(Position.class, o -> o.name("docs.start.Position"));
    static final NativeComponent<Velocity> VELOCITY =
            Components.register(Velocity.class, o -> o.name("docs.start.Velocity"));
    static final FloatField X = POSITION.floatField("x");
    static final FloatField Y = POSITION.floatField("y");
    static final FloatField DX = VELOCITY.floatField("dx");
    static final FloatField DY = VELOCITY.floatField("dy");

    @Test
    void declaringComponents() {
        // begin-example
        record Position(float x, float y) {}   // only primitive fields: stored off-heap, one column per field
        record Velocity(float dx, float dy) {}

        NativeComponent<Position> position = Components.register(Position.class, o -> o.name("game.Position"));
        NativeComponent<Velocity> velocity = Components.register(Velocity.class, o -> o.name("game.Velocity"));
        FloatField x = position.floatField("x");    // a handle on one column: what queries and kernels name

        assertEquals(StorageKind.NATIVE, position.storage());
        assertEquals(List.of("dx", "dy"), velocity.layout().fieldNames());
        assertEquals(position, x.component());
        assertEquals(0, x.field());                  // the record's first field
        // end-example
    }

    @Test
    void aWorldAndItsFirstEntities() {
        // begin-example
        try (World world = World.create()) {                 // owns the entities and all their native memory
            long ship = world.spawn(POSITION.of(new Position(0, 0)), VELOCITY.of(new Velocity(3, 4)));
            long rock = world.spawn(POSITION.of(new Position(10, 0)));   // no velocity: it will not move

            assertTrue(world.isAlive(ship));                 // no scope is open: published before spawn returned
            assertEquals(new Position(0, 0), world.get(ship, POSITION));
            assertNull(world.get(rock, VELOCITY));           // a component the entity lacks reads as null

            world.set(rock, VELOCITY.of(new Velocity(-1, 0)));   // adding a component moves the entity at once
            assertEquals(2, world.entityCount());
            world.despawn(rock);
            assertFalse(world.isAlive(rock));
        }                                                    // close() frees the columns
        // end-example
    }

    @Test
    void aQueryWalksTheMatchingColumns() {
        try (World world = World.create()) {
            long ship = world.spawn(POSITION.of(new Position(0, 0)), VELOCITY.of(new Velocity(3, 4)));
            long rock = world.spawn(POSITION.of(new Position(10, 0)));
            // begin-example
            Query moving = world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());

            float dt = 0.5f;
            moving.forEach((archetype, count) -> {           // once per archetype that has both components
                FloatColumn x = archetype.getMut(X);         // getMut: this column will be written (marked dirty)
                FloatColumn y = archetype.getMut(Y);
                FloatColumn dx = archetype.get(DX);          // get: read only
                FloatColumn dy = archetype.get(DY);
                for (int row = 0; row < count; row++) {
                    x.set(row, x.get(row) + dx.get(row) * dt);
                    y.set(row, y.get(row) + dy.get(row) * dt);
                }
            });

            assertEquals(new Position(1.5f, 2f), world.get(ship, POSITION));
            assertEquals(new Position(10, 0), world.get(rock, POSITION));   // not matched, not touched
            assertEquals(1, moving.count());
            // end-example
        }
    }

    @Test
    void systemsRunEveryFrame() {
        try (World world = World.create()) {
            long ship = world.spawn(POSITION.of(new Position(0, 0)), VELOCITY.of(new Velocity(6, 0)));
            Query moving = world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
            // begin-example
            List<String> log = new ArrayList<>();
            world.addSystem(SystemConfig.named("game.Move").phase(Phases.FIXED_UPDATE).run((dt, w) ->
                    moving.forEach((archetype, count) -> {
                        FloatColumn x = archetype.getMut(X);
                        FloatColumn dx = archetype.get(DX);
                        for (int row = 0; row < count; row++) {
                            x.set(row, x.get(row) + dx.get(row) * (float) dt);
                        }
                    })));
            world.addSystem(SystemConfig.named("game.Hud").phase(Phases.RENDER).run((dt, w) ->
                    log.add(String.format(java.util.Locale.ROOT, "x=%.1f", w.get(ship, POSITION).x()))));

            for (int frame = 0; frame < 3; frame++) {
                world.update(1 / 60.0);                      // one frame: every phase, in order
            }
            world.update(1 / 30.0);                          // a slow frame: two fixed steps of 1/60 s, one render

            assertEquals(List.of("x=0.1", "x=0.2", "x=0.3", "x=0.5"), log);   // dx = 6: 0.1 per fixed step
            // end-example
        }
    }

    @Test
    void aKernelThroughTheRunner() {
        try (World world = World.create()) {
            long ship = world.spawn(POSITION.of(new Position(0, 0)), VELOCITY.of(new Velocity(3, 4)));
            Query moving = world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
            // begin-example
            KernelRunner runner = new KernelRunner();        // one per thread; it remembers each kernel's columns
            ColumnKernel gravity = MotionKernels.gravity(DY, -10f);          // dy += -10 * dt
            ColumnKernel integrate = MotionKernels.integrate2d(X, Y, DX, DY); // x += dx * dt, y += dy * dt

            world.addSystem(SystemConfig.named("game.Gravity").phase(Phases.FIXED_UPDATE)
                    .run((dt, w) -> runner.run(moving, gravity, (float) dt)));
            world.addSystem(SystemConfig.named("game.Integrate").phase(Phases.FIXED_UPDATE).after("game.Gravity")
                    .run((dt, w) -> runner.run(moving, integrate, (float) dt)));

            for (int frame = 0; frame < 30; frame++) {      // half a second: thirty fixed steps of 1/60 s
                world.update(1 / 60.0);
            }
            Velocity v = world.get(ship, VELOCITY);
            assertEquals(4f - 10f * 0.5f, v.dy(), 1e-4f);     // gravity for half a second
            assertEquals(1.5f, world.get(ship, POSITION).x(), 1e-4f);
            // end-example
        }
    }

    @Test
    void deferAndCommit() {
        try (World world = World.create()) {
            // begin-example
            long first = world.spawn(POSITION);              // no scope open: this call publishes on its own
            assertTrue(world.isAlive(first));

            world.defer();                                   // open a scope: structural changes now wait
            long[] burst = new long[1000];
            for (int i = 0; i < burst.length; i++) {
                burst[i] = world.spawn(POSITION.of(new Position(i, 0)), VELOCITY);  // ids come back at once...
            }
            world.set(burst[0], VELOCITY.of(new Velocity(1, 1)));   // ...and work in further calls
            assertFalse(world.isAlive(burst[0]));            // but nothing is visible yet
            assertEquals(1, world.entityCount());

            world.commit();                                  // the outermost scope closes: all published together
            assertEquals(1001, world.entityCount());
            assertEquals(new Velocity(1, 1), world.get(burst[0], VELOCITY));
            // end-example
        }
    }

    @Test
    void structuralChangesInsideASystem() {
        try (World world = World.create()) {
            Query moving = world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
            // begin-example
            List<String> log = new ArrayList<>();
            world.addSystem(SystemConfig.named("game.Spawn").run((dt, w) -> {
                long spark = w.spawn(POSITION, VELOCITY);    // inside a system: staged, like inside defer()
                log.add("alive in its own system: " + w.isAlive(spark));
            }));
            world.addSystem(SystemConfig.named("game.Count").phase(Phases.POST_UPDATE)
                    .run((dt, w) -> log.add("counted in the next phase: " + moving.count())));

            world.update(1 / 60.0);
            assertEquals(List.of("alive in its own system: false", "counted in the next phase: 1"), log);

            world.defer();
            world.spawn(POSITION);                           // a scope opened and never committed...
            assertEquals(1, world.scopeDepth());
            world.update(1 / 60.0);                          // ...is closed by the next frame, which publishes it
            assertEquals(0, world.scopeDepth());
            assertEquals(3, world.entityCount());
            // end-example
        }
    }

    @Test
    void theWholeLoop() {
        // begin-example
        try (World world = World.create()) {
            Query sparks = world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
            KernelRunner runner = new KernelRunner();
            ColumnKernel gravity = MotionKernels.gravity(DY, -10f);
            ColumnKernel integrate = MotionKernels.integrate2d(X, Y, DX, DY);

            // Physics: two SIMD kernels, once per fixed step of 1/60 s.
            world.addSystem(SystemConfig.named("game.Gravity").phase(Phases.FIXED_UPDATE)
                    .run((dt, w) -> runner.run(sparks, gravity, (float) dt)));
            world.addSystem(SystemConfig.named("game.Integrate").phase(Phases.FIXED_UPDATE).after("game.Gravity")
                    .run((dt, w) -> runner.run(sparks, integrate, (float) dt)));
            // Rules: a spark that falls below the ground is despawned. The despawns made during the iteration
            // wait for its end, so no row moves under the loop.
            world.addSystem(SystemConfig.named("game.Ground").phase(Phases.POST_UPDATE)
                    .run((dt, w) -> sparks.forEach((archetype, count) -> {
                        FloatColumn y = archetype.get(Y);
                        for (int row = 0; row < count; row++) {
                            if (y.get(row) < 0) {
                                w.despawn(archetype.entity(row));
                            }
                        }
                    })));

            world.defer();                                   // one burst of 10,000 sparks, published together
            for (int i = 0; i < 10_000; i++) {
                world.spawn(POSITION.of(new Position(i, 10)), VELOCITY.of(new Velocity(0, i % 5)));
            }
            world.commit();
            long watched = world.spawn(POSITION.of(new Position(-1, 10)), VELOCITY);   // dy = 0

            for (int frame = 0; frame < 60; frame++) {       // one second of game time
                world.update(1 / 60.0);
            }
            assertEquals(10_001, sparks.count());            // a second of -10 m/s² is not enough to land yet
            assertEquals(10f - 5f, world.get(watched, POSITION).y(), 0.1f);

            for (int frame = 0; frame < 120; frame++) {      // two more: every spark has landed
                world.update(1 / 60.0);
            }
            assertEquals(0, sparks.count());
            assertFalse(world.isAlive(watched));
        }
        // end-example
    }

    /** The example at the top of the repository's README: the same loop, with its declarations. */
    @Test
    void readmeExample() {
        // begin-example
        record Position(float x, float y) {}                 // records of primitives: off-heap columns
        record Velocity(float dx, float dy) {}
        NativeComponent<Position> position = Components.register(Position.class, o -> o.name("demo.Position"));
        NativeComponent<Velocity> velocity = Components.register(Velocity.class, o -> o.name("demo.Velocity"));
        FloatField x = position.floatField("x");
        FloatField y = position.floatField("y");
        FloatField dx = velocity.floatField("dx");
        FloatField dy = velocity.floatField("dy");

        try (World world = World.create()) {
            Query moving = world.newQuery(QueryDescriptor.builder().include(position, velocity).build());
            KernelRunner runner = new KernelRunner();
            ColumnKernel gravity = MotionKernels.gravity(dy, -10f);            // SIMD kernels (Vector API)
            ColumnKernel integrate = MotionKernels.integrate2d(x, y, dx, dy);
            world.addSystem(SystemConfig.named("demo.Gravity").phase(Phases.FIXED_UPDATE)
                    .run((dt, w) -> runner.run(moving, gravity, (float) dt)));
            world.addSystem(SystemConfig.named("demo.Integrate").phase(Phases.FIXED_UPDATE).after("demo.Gravity")
                    .run((dt, w) -> runner.run(moving, integrate, (float) dt)));
            world.addSystem(SystemConfig.named("demo.Ground").phase(Phases.POST_UPDATE)
                    .run((dt, w) -> moving.forEach((archetype, count) -> {   // a plain loop over columns
                        FloatColumn height = archetype.get(y);
                        for (int row = 0; row < count; row++) {
                            if (height.get(row) < 0) {
                                w.despawn(archetype.entity(row));            // staged until the loop ends
                            }
                        }
                    })));

            long first = world.spawn(position.of(new Position(0, 10)), velocity);   // no scope: alive at once
            world.defer();                                   // a scope: structural changes wait ...
            for (int i = 0; i < 10_000; i++) {
                world.spawn(position.of(new Position(i, 10)), velocity.of(new Velocity(0, i % 5)));
            }
            world.commit();                                  // ... and are published together

            for (int frame = 0; frame < 60; frame++) {
                world.update(1 / 60.0);                      // a frame: the fixed steps due, then the other phases
            }
            assertEquals(10_001, moving.count());
            assertEquals(5f, world.get(first, position).y(), 0.1f);   // fell about 5 m in its first second
        }
        // end-example
    }
}
