package com.example.game;

import dev.jtecs.component.Components;
import dev.jtecs.component.FloatField;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.kernels.ColumnKernel;
import dev.jtecs.kernels.KernelMode;
import dev.jtecs.kernels.KernelProvider;
import dev.jtecs.kernels.KernelRunner;
import dev.jtecs.kernels.MotionKernels;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.world.World;
import java.lang.invoke.MethodHandles;

/**
 * Spawns 1,000 moving entities, moves them for one second of frames with a SIMD kernel in a system, and checks
 * every position through a query. Exits with status 1 on a wrong result.
 */
public final class Main {
    record Position(float x, float y) {}

    record Velocity(float x, float y) {}

    // This module opens nothing to dev.jtecs.core: jtecs reaches the records through the module's own lookup.
    static final NativeComponent<Position> POSITION = Components.register(MethodHandles.lookup(), Position.class);
    static final NativeComponent<Velocity> VELOCITY = Components.register(MethodHandles.lookup(), Velocity.class);

    public static void main(String[] args) {
        FloatField x = POSITION.floatField("x");
        FloatField y = POSITION.floatField("y");
        int entities = 1_000;
        int frames = 60;
        try (World world = World.create()) {
            world.defer(); // one scope: the spawns publish together at commit
            for (int i = 0; i < entities; i++) {
                world.spawn(POSITION.of(new Position(i, 0)), VELOCITY.of(new Velocity(1, 2)));
            }
            world.commit();

            Query movers = world.newQuery(QueryDescriptor.builder().include(POSITION, VELOCITY).build());
            KernelRunner runner = new KernelRunner();
            ColumnKernel move = MotionKernels.integrate2d(x, y, VELOCITY.floatField("x"), VELOCITY.floatField("y"));
            world.addSystem(SystemConfig.named("game.Move").run((dt, w) -> runner.run(movers, move, (float) dt)));
            for (int frame = 0; frame < frames; frame++) {
                world.update(1 / 60.0);
            }

            int[] seen = {0};
            movers.forEach((archetype, count) -> {
                FloatColumn xs = archetype.get(x);
                FloatColumn ys = archetype.get(y);
                for (int row = 0; row < count; row++) {
                    float startX = xs.get(row) - 1f; // moved one second at (1, 2)
                    check(Math.abs(startX - Math.round(startX)) < 1e-3 && Math.abs(ys.get(row) - 2f) < 1e-3,
                            "entity at row " + row + " is at (" + xs.get(row) + ", " + ys.get(row) + ")");
                    seen[0]++;
                }
            });
            check(seen[0] == entities, "the query saw " + seen[0] + " entities, not " + entities);
        }
        check(KernelProvider.mode() == KernelMode.VECTOR, "kernels ran " + KernelProvider.mode() + ": "
                + KernelProvider.reason());
        System.out.println("jtecs consumer (module path): " + entities + " entities moved by the "
                + KernelProvider.mode() + " kernels in " + frames + " frames, all where they should be");
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            System.err.println("jtecs consumer (module path) FAILED: " + what);
            System.exit(1);
        }
    }
}
