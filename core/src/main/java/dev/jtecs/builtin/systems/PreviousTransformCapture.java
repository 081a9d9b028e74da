package dev.jtecs.builtin.systems;

import dev.jtecs.component.FloatField;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.query.QueryVisitor;
import dev.jtecs.schedule.SystemBody;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import dev.jtecs.storage.FloatColumn;
import dev.jtecs.builtin.PreviousTransform2D;
import dev.jtecs.builtin.Transform2D;

/**
 * The body of {@link BuiltinSystems#SNAPSHOT_TRANSFORMS}: for every entity with {@link PreviousTransform2D}
 * and {@link Transform2D}, copies {@code x}, {@code y} and {@code rotation} from the transform into the
 * previous pose. Paused entities are included, since they are still drawn; disabled ones are not.
 *
 * @implNote One bulk comparison and, when the bytes differ, one bulk copy per column and archetype
 *     ({@link FloatColumn#sameRows} and {@link FloatColumn#copyRowsTo}, over the column segments): no loop over
 *     rows here, no allocation. {@code PreviousTransform2D} is marked dirty only where a column changed.
 */
final class PreviousTransformCapture implements SystemBody {
    private static final QueryDescriptor MATCH =
            QueryDescriptor.builder().include(PreviousTransform2D.COMPONENT, Transform2D.COMPONENT).build();

    private World world;
    private Query query;
    private final QueryVisitor capture = PreviousTransformCapture::capture;

    @Override
    public void run(double dt, World w) {
        if (world == null) {
            world = w;
            query = w.newQuery(MATCH);
        } else if (world != w) {
            throw new IllegalStateException(BuiltinSystems.SNAPSHOT_TRANSFORMS + " serves the world it first ran "
                    + "in; register BuiltinSystems.snapshotTransforms() afresh for another world");
        }
        query.forEach(capture);
    }

    private static void capture(Archetype archetype, int count) {
        boolean changed = copy(archetype, Transform2D.X, PreviousTransform2D.X, count);
        changed |= copy(archetype, Transform2D.Y, PreviousTransform2D.Y, count);
        changed |= copy(archetype, Transform2D.ROTATION, PreviousTransform2D.ROTATION, count);
        if (changed) {
            archetype.markComponentDirty(PreviousTransform2D.COMPONENT);
        }
    }

    /** Copies rows {@code [0, count)} of one float column into another when they differ; true if they did. */
    private static boolean copy(Archetype archetype, FloatField from, FloatField to, int count) {
        FloatColumn source = archetype.get(from);
        FloatColumn target = archetype.get(to); // written below, marked by the caller
        if (source.sameRows(target, count)) {
            return false;
        }
        source.copyRowsTo(target, count);
        return true;
    }
}
