package dev.jtecs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.systems.BuiltinSystems;
import dev.jtecs.builtin.ChildOf;
import dev.jtecs.builtin.systems.HierarchyOrder;
import dev.jtecs.builtin.Name;
import dev.jtecs.builtin.Paused;
import dev.jtecs.builtin.PreviousTransform2D;
import dev.jtecs.builtin.RelativeTransform2D;
import dev.jtecs.builtin.TTL;
import dev.jtecs.builtin.Transform2D;
import dev.jtecs.builtin.Transform3D;
import dev.jtecs.entity.Entity;
import dev.jtecs.event.OnDespawn;
import dev.jtecs.kernels.KernelSystems;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.schedule.FixedTiming;
import dev.jtecs.schedule.Phases;
import dev.jtecs.schedule.SystemConfig;
import dev.jtecs.schedule.SystemInfo;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.mutation.BatchIds;
import dev.jtecs.world.World;
import dev.jtecs.world.WorldConfig;
import java.util.ArrayList;
import java.util.List;
import org.joml.Matrix4f;
import org.joml.Quaternionf;
import org.joml.Vector3f;
import org.junit.jupiter.api.Test;

/** The examples of {@code docs/builtins.md}. */
class BuiltinsGuideTest {
    @Test
    void transformsStartAsTheIdentity() {
        try (World world = World.create()) {
            // begin-example
            long sprite = world.spawn(Transform2D.COMPONENT);
            assertEquals(Transform2D.IDENTITY, world.get(sprite, Transform2D.COMPONENT)); // scale 1, not 0
            long placed = world.spawn(Transform2D.COMPONENT.of(Transform2D.at(3, 4)));
            assertEquals(new Transform2D(3, 4, 0, 0, 0, 1, 1), world.get(placed, Transform2D.COMPONENT));

            // A batch names the definition and starts from zero bits: write the scale in the initializer.
            BatchIds ids = world.batchSpawn(100, List.of(Transform2D.COMPONENT), (archetype, fromRow, toRow) -> {
                FloatColumn scaleX = archetype.getMut(Transform2D.SCALE_X);
                FloatColumn scaleY = archetype.getMut(Transform2D.SCALE_Y);
                for (int row = fromRow; row < toRow; row++) {
                    scaleX.set(row, 1);
                    scaleY.set(row, 1);
                }
            });
            assertEquals(Transform2D.IDENTITY, world.get(ids.get(99), Transform2D.COMPONENT));
            // end-example
        }
    }

    @Test
    void childrenFollowTheirParents() {
        try (World world = World.create()) {
            // begin-example
            Transform2D shipPose = new Transform2D(100, 50, 0, 2, (float) (Math.PI / 2), 2, 2);
            long ship = world.spawn(Transform2D.COMPONENT.of(shipPose));
            RelativeTransform2D mount = RelativeTransform2D.offset(10, 0); // 10 units ahead of the ship
            long turret = world.spawn(ChildOf.COMPONENT.to(ship), RelativeTransform2D.COMPONENT.of(mount));
            RelativeTransform2D muzzle = new RelativeTransform2D(3, 0, 0.5f, 0, 0.5f, 0.5f, 0, 0);
            long barrel = world.spawn(ChildOf.COMPONENT.to(turret), RelativeTransform2D.COMPONENT.of(muzzle));

            world.update(1 / 60.0); // composed in POST_UPDATE, parents first
            Transform2D turretPose = world.get(turret, Transform2D.COMPONENT);
            assertEquals(shipPose.compose(mount), turretPose);         // the definition, bit for bit
            assertEquals(100, turretPose.x(), 1e-4f);                  // ahead means +y after a quarter turn...
            assertEquals(70, turretPose.y(), 1e-4f);                   // ...and twice as far, at scale 2
            assertEquals(2, turretPose.layer());                       // children draw on the parent's layer
            assertEquals(turretPose.compose(muzzle), world.get(barrel, Transform2D.COMPONENT));
            assertEquals(1, world.get(barrel, Transform2D.COMPONENT).scaleX()); // 2 * 1 * 0.5
            // end-example
        }
    }

    @Test
    void rootsMovedThisFrameCarryTheirChildren() {
        try (World world = World.create()) {
            long ship = world.spawn(Transform2D.COMPONENT.of(Transform2D.at(0, 0)));
            long turret = world.spawn(ChildOf.COMPONENT.to(ship),
                    RelativeTransform2D.COMPONENT.of(RelativeTransform2D.offset(10, 0)));
            // begin-example
            world.addSystem(SystemConfig.named("game.Fly").phase(Phases.UPDATE).run((dt, w) -> {
                Transform2D pose = w.get(ship, Transform2D.COMPONENT);
                w.set(ship, Transform2D.COMPONENT.of(Transform2D.at(pose.x() + 1, pose.y())));
            }));
            List<Float> drawnAt = new ArrayList<>();
            world.addSystem(SystemConfig.named("game.Draw").phase(Phases.RENDER)
                    .run((dt, w) -> drawnAt.add(w.get(turret, Transform2D.COMPONENT).x())));

            world.update(1 / 60.0);
            world.update(1 / 60.0);
            assertEquals(List.of(11f, 12f), drawnAt); // never a frame behind its ship
            // end-example
        }
    }

    @Test
    void aHierarchyOrderListsParentsFirst() {
        try (World world = World.create()) {
            // begin-example
            long ship = world.spawn(Transform2D.COMPONENT);
            long[] turrets = world.batchSpawn(2, List.of(ChildOf.COMPONENT.to(ship))).toArray();
            long barrel = world.spawn(ChildOf.COMPONENT.to(turrets[0]));
            Query children = world.newQuery(QueryDescriptor.builder().include(ChildOf.ANY).build());
            HierarchyOrder order = new HierarchyOrder(world, children);

            assertEquals(2, order.gather());                                 // two runs of rows
            assertEquals(world.archetypeOf(turrets[0]), order.archetype(0)); // ChildOf is sparse: one archetype
            assertEquals(world.rowOf(turrets[0]), order.fromRow(0));
            assertEquals(2, order.rowCount(0));                              // both turrets: one parent, side by side
            assertEquals(world.archetypeOf(ship), order.parentArchetype(0)); // the ship is no step
            assertFalse(order.parentIsMember(0));
            assertEquals(world.rowOf(barrel), order.fromRow(1));             // after its parent's step
            assertEquals(world.rowOf(turrets[0]), order.parentRow(1));
            assertTrue(order.parentIsMember(1));
            assertFalse(order.isStale());
            world.set(barrel, ChildOf.COMPONENT.to(turrets[1]));             // no row moves, but the steps would change
            assertTrue(order.isStale());
            // end-example
        }
    }

    @Test
    void lifetimesCountFixedSteps() {
        try (World world = World.create(WorldConfig.defaults().timestep(0.25))) {
            // begin-example
            long spark = world.spawn(TTL.COMPONENT.of(new TTL(0.5))); // two steps of 0.25
            List<String> events = new ArrayList<>();
            world.observe(Entity.WORLD, OnDespawn.class, event -> events.add("despawned"));

            world.update(0.1);  // no fixed step yet: nothing spent
            assertEquals(0.0, world.get(spark, TTL.COMPONENT).percentComplete());
            world.update(0.15); // one step
            assertEquals(0.25, world.get(spark, TTL.COMPONENT).remaining());
            assertEquals(0.5, world.get(spark, TTL.COMPONENT).percentComplete());
            world.update(0.25); // the second step spends it: despawned at the end of that step
            assertFalse(world.isAlive(spark));
            assertEquals(List.of("despawned"), events);

            long frozen = world.spawn(TTL.COMPONENT.of(new TTL(0.25)), Paused.COMPONENT);
            world.update(1);
            assertTrue(world.isAlive(frozen)); // paused lifetimes stand still
            // end-example
        }
    }

    @Test
    void inexactStepsStillEndOnTime() {
        try (World world = World.create(WorldConfig.defaults().timestep(1 / 60.0))) {
            // begin-example
            long flash = world.spawn(TTL.COMPONENT.of(new TTL(0.05))); // three steps of 1/60 s
            world.update(1 / 60.0);
            world.update(1 / 60.0);
            assertTrue(world.isAlive(flash));
            world.update(1 / 60.0); // 0.05 - 3/60 is a rounding residue, not a fourth step
            assertFalse(world.isAlive(flash));
            // end-example
        }
    }

    @Test
    void drawingBetweenFixedSteps() {
        try (World world = World.create(WorldConfig.defaults().timestep(0.25))) {
            // begin-example
            long ball = world.spawn(Transform2D.COMPONENT.of(Transform2D.at(0, 0)),
                    PreviousTransform2D.COMPONENT.of(PreviousTransform2D.of(Transform2D.at(0, 0))));
            world.addSystem(SystemConfig.named("game.Roll").phase(Phases.FIXED_UPDATE).run((dt, w) -> {
                Transform2D pose = w.get(ball, Transform2D.COMPONENT);
                w.set(ball, Transform2D.COMPONENT.of(Transform2D.at(pose.x() + 4, 0))); // 16 units a second
            }));

            world.update(0.3125); // one step runs, 0.0625 s wait for the next
            PreviousTransform2D before = world.get(ball, PreviousTransform2D.COMPONENT);
            Transform2D now = world.get(ball, Transform2D.COMPONENT);
            FixedTiming timing = world.getFixedTiming();
            float alpha = (float) timing.alpha(); // a quarter of the way into the next step
            float drawX = before.x() + (now.x() - before.x()) * alpha;
            assertEquals(0, before.x());
            assertEquals(4, now.x());
            assertEquals(1, drawX); // where the ball is, a quarter step after the last one
            // end-example
        }
    }

    @Test
    void transform3DUsesJoml() {
        // begin-example
        Quaternionf turn = new Quaternionf().rotateY((float) Math.toRadians(90));
        Transform3D crate = Transform3D.of(new Vector3f(5, 0, 0), turn, new Vector3f(2, 2, 2));
        Matrix4f model = crate.toMatrix(new Matrix4f()); // T * R * S, JOML's translationRotateScale

        Vector3f corner = model.transformPosition(new Vector3f(1, 0, 0));
        assertTrue(corner.equals(new Vector3f(5, 0, -2), 1e-5f)); // scaled, turned about y, moved
        assertTrue(Transform3D.fromMatrix(model).toMatrix().equals(model, 1e-5f));
        // end-example
    }

    @Test
    void theBuiltinSystemsAreOrdinarySystems() {
        try (World world = World.create()) {
            // begin-example
            assertEquals(List.of(
                    new SystemInfo("jtecs.SnapshotTransforms", Phases.FIXED_PRE_UPDATE, 0, true, false),
                    new SystemInfo("jtecs.TTL", Phases.FIXED_POST_UPDATE, 1, true, false),
                    new SystemInfo("jtecs.RelativeTransform2D", Phases.POST_UPDATE, 2, true, false)),
                    world.listSystems());

            world.setSystemEnabled(BuiltinSystems.RELATIVE_TRANSFORMS, false); // pause composition
            world.removeSystem(BuiltinSystems.TTL);
            world.addSystem(BuiltinSystems.ttl().phase(Phases.FIXED_UPDATE)   // a fresh one, elsewhere
                    .after("game.Physics"));
            BuiltinSystems.remove(world);                                      // or none at all
            assertEquals(List.of(), world.listSystems());
            BuiltinSystems.install(world);                                     // and back
            assertEquals(BuiltinSystems.NAMES, world.listSystems().stream().map(SystemInfo::name).toList());
            // end-example
        }
    }

    @Test
    void kernelBodiesRunUnderTheSameNames() {
        try (World world = World.create()) {
            // begin-example
            List<SystemInfo> before = world.listSystems();
            assertEquals(2, KernelSystems.install(world)); // jtecs.TTL and jtecs.RelativeTransform2D
            assertEquals(before, world.listSystems());    // same names, phases, places

            Transform2D shipPose = new Transform2D(100, 50, 0, 2, 0.7f, 2, 2);
            long ship = world.spawn(Transform2D.COMPONENT.of(shipPose));
            RelativeTransform2D mount = RelativeTransform2D.offset(10, 0);
            long turret = world.spawn(ChildOf.COMPONENT.to(ship), RelativeTransform2D.COMPONENT.of(mount));
            long spark = world.spawn(TTL.COMPONENT.of(new TTL(1 / 60.0)));
            world.update(1 / 60.0); // one fixed step
            assertEquals(shipPose.compose(mount), world.get(turret, Transform2D.COMPONENT)); // the same bits
            assertFalse(world.isAlive(spark)); // spent in its one step, despawned at the phase barrier
            // end-example
        }
    }
}
