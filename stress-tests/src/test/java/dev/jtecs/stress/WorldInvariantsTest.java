package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.CHILD_OF;
import static dev.jtecs.stress.ModelComponents.HELD_BY;
import static dev.jtecs.stress.ModelComponents.KEY;
import static dev.jtecs.stress.ModelComponents.LEVEL;
import static dev.jtecs.stress.ModelComponents.POSITION;
import static dev.jtecs.stress.ModelComponents.WATCHES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.event.OnDespawn;
import dev.jtecs.query.Query;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class WorldInvariantsTest {
    @Test
    void aWorldAfterChurnHasNoViolations() {
        try (World world = World.create()) {
            Set<Long> members = new TreeSet<>();
            Query tracked = world.newQuery(QueryDescriptor.builder().include(POSITION)
                    .onEntitiesAdded((a, from, to) -> {
                        for (int row = from; row < to; row++) {
                            members.add(a.entity(row));
                        }
                    })
                    .onEntitiesRemoved((a, from, to) -> {
                        for (int row = from; row < to; row++) {
                            members.remove(a.entity(row));
                        }
                    }).build());
            List<Long> seen = new ArrayList<>();
            long root = world.spawn(POSITION);
            seen.add(root);
            for (int i = 0; i < 50; i++) {
                long id = world.spawn(POSITION, LEVEL.of(i), CHILD_OF.to(root), WATCHES.to(root));
                world.observe(id, OnDespawn.class, event -> { });
                seen.add(id);
                if (i % 7 == 0) {
                    world.set(id, HELD_BY.to(seen.get(i / 2)));
                }
            }
            world.set(root, KEY.of("root"));
            world.despawn(seen.get(10)); // and whatever it held by cascade
            world.remove(seen.get(20), POSITION);
            List<String> violations = WorldInvariants.check(world, seen,
                    List.of(new WorldInvariants.Tracked(tracked, members)), List.of("root", "nobody"),
                    List.of(OnDespawn.class));
            assertEquals(List.of(), violations);
        }
    }

    @Test
    void membersACallbackMissedAreReported() {
        try (World world = World.create()) {
            Query query = world.newQuery(QueryDescriptor.builder().include(POSITION).build());
            long a = world.spawn(POSITION);
            long b = world.spawn(POSITION);
            List<String> violations = WorldInvariants.check(world, List.of(a, b),
                    List.of(new WorldInvariants.Tracked(query, Set.of(a, 999L))), List.of(), List.of());
            assertEquals(1, violations.size(), violations.toString());
            assertTrue(violations.get(0).contains("not reported [" + dev.jtecs.entity.Entity.toString(b) + "]")
                    && violations.get(0).contains("reported but absent [999#0]"), violations.get(0));
        }
    }

    @Test
    void aTemporaryQueryMayMissLaterArchetypesButNotHoldStrangers() {
        try (World world = World.create()) {
            world.spawn(POSITION);
            Query frozen = world.newQuery(QueryDescriptor.builder().include(POSITION).temp().build());
            long later = world.spawn(POSITION, LEVEL);
            assertEquals(List.of(), WorldInvariants.check(world, List.of(later),
                    List.of(new WorldInvariants.Tracked(frozen, null)), List.of(), List.of()));
        }
    }
}
