package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jtecs.builtin.ChildOf;
import dev.jtecs.builtin.RelativeTransform2D;
import dev.jtecs.builtin.TTL;
import dev.jtecs.builtin.Transform2D;
import dev.jtecs.component.Component;
import dev.jtecs.component.Components;
import dev.jtecs.component.Input;
import dev.jtecs.component.TagComponent;
import dev.jtecs.storage.Archetype;
import dev.jtecs.world.World;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Test helper: a seeded random scene of {@code ChildOf} forests with relative transforms and lifetimes, driven
 * with the same operations in several worlds at once (one random draw per operation, applied to every world),
 * and a bit-for-bit comparison of their states. Worlds built by the same operations hand out the same ids and
 * archetype ids, which {@link #assertSame} relies on and checks.
 *
 * <p>The scene has roots (a {@link Transform2D}, sometimes a lifetime, sometimes a relative transform and no
 * parent), children at random depths (a parent and a {@link RelativeTransform2D}, sometimes a tag that splits
 * their parent's children over two archetypes), parents without a transform, and, through reparenting, the odd
 * {@code ChildOf} cycle. Values are finite (with {@code -0.0} and large angles), never NaN: which NaN an
 * operation returns is the platform's choice, and the raw-bit change reports would follow it.
 */
final class TwinScene {
    static final TagComponent MARK = Components.tag("kernels.test.scene.Mark");
    static final TagComponent BARE = Components.tag("kernels.test.scene.Bare");

    private final World[] worlds;
    private final SplittableRandom random;
    private final boolean lifetimes;
    private final List<Long> ids = new ArrayList<>();

    TwinScene(long seed, boolean lifetimes, World... worlds) {
        this.worlds = worlds;
        this.random = new SplittableRandom(seed);
        this.lifetimes = lifetimes;
    }

    /** {@code roots} trees of random shape, up to {@code maxDepth} levels below each root. */
    void populate(int roots, int maxDepth) {
        for (int t = 0; t < roots; t++) {
            long root = spawnRoot();
            grow(root, maxDepth);
        }
        Input loose = RelativeTransform2D.COMPONENT.of(offset());
        spawnAll(w -> w.spawn(loose));                                    // an offset and no parent
        long bare = spawnAll(w -> w.spawn(BARE));                         // a parent without a transform
        grow(bare, 2);
    }

    private void grow(long parent, int depth) {
        if (depth <= 0) {
            return;
        }
        int children = random.nextInt(0, 5);
        for (int i = 0; i < children; i++) {
            long child = spawnChild(parent);
            grow(child, depth - 1 - (random.nextInt(3) == 0 ? 1 : 0));
        }
    }

    long spawnRoot() {
        List<Input> inputs = new ArrayList<>();
        inputs.add(Transform2D.COMPONENT.of(pose()));
        if (lifetimes && random.nextInt(4) == 0) {
            inputs.add(TTL.COMPONENT.of(new TTL(random.nextDouble(0, 1.5))));
        }
        Input[] array = inputs.toArray(Input[]::new);
        return spawnAll(w -> w.spawn(array));
    }

    long spawnChild(long parent) {
        List<Input> inputs = new ArrayList<>();
        inputs.add(ChildOf.COMPONENT.to(parent));
        inputs.add(RelativeTransform2D.COMPONENT.of(offset()));
        if (random.nextInt(5) == 0) {
            inputs.add(MARK);
        }
        if (lifetimes && random.nextInt(6) == 0) {
            inputs.add(TTL.COMPONENT.of(new TTL(random.nextDouble(0, 2))));
        }
        Input[] array = inputs.toArray(Input[]::new);
        return spawnAll(w -> w.spawn(array));
    }

    /**
     * One frame's worth of random edits, the same in every world: roots and offsets rewritten (values only) and,
     * now and then, structural ones: spawns, despawns (cascading), reparenting (cycles included), tags that
     * move a parent to another archetype, and compaction.
     */
    void mutate() {
        for (int i = random.nextInt(1, 8); i > 0; i--) {
            long id = pick();
            if (id == 0) {
                return;
            }
            Input edit = random.nextBoolean() ? Transform2D.COMPONENT.of(pose())
                    : RelativeTransform2D.COMPONENT.of(offset());
            if (has(id, ChildOf.COMPONENT) == (edit.component() == RelativeTransform2D.COMPONENT)) {
                setAll(id, edit); // roots get poses, children offsets (a child's pose is overwritten anyway)
            }
        }
        int roll = random.nextInt(20);
        long id = pick();
        if (id == 0) {
            return;
        }
        switch (roll) {
            case 0, 1 -> spawnChild(id);
            case 2 -> grow(spawnRoot(), 3);
            case 3 -> forAll(w -> w.despawn(id));
            case 4 -> {
                long parent = pick();
                if (parent != 0 && parent != id && has(id, RelativeTransform2D.COMPONENT)) {
                    setAll(id, ChildOf.COMPONENT.to(parent)); // may close a cycle
                }
            }
            case 5 -> forAll(w -> {
                if (w.has(id, MARK)) {
                    w.remove(id, MARK);
                } else {
                    w.set(id, MARK);
                }
            });
            case 6 -> forAll(World::compact);
            default -> { }
        }
    }

    /** A random live entity, or 0 when none was found quickly. */
    long pick() {
        for (int attempt = 0; attempt < 50 && !ids.isEmpty(); attempt++) {
            long id = ids.get(random.nextInt(ids.size()));
            if (worlds[0].isAlive(id)) {
                return id;
            }
        }
        return 0;
    }

    /** Every entity ever spawned, in spawn order (dead ones included). */
    List<Long> ids() {
        return ids;
    }

    private Transform2D pose() {
        float scale = random.nextInt(10) == 0 ? -0.0f : (float) random.nextDouble(0.25, 2);
        return new Transform2D(value(1000), value(1000), value(1), random.nextInt(-3, 4),
                random.nextInt(10) == 0 ? value(1e4f) : value(7), scale, (float) random.nextDouble(0.25, 2));
    }

    private RelativeTransform2D offset() {
        return new RelativeTransform2D(value(50), value(50), value(0.5f), value(3), (float) random.nextDouble(0.5, 1.5),
                random.nextInt(10) == 0 ? -0.0f : (float) random.nextDouble(0.5, 1.5), value(1), value(1));
    }

    private float value(float range) {
        return random.nextInt(25) == 0 ? -0.0f : (float) random.nextDouble(-range, range);
    }

    private boolean has(long id, Component<?> component) {
        return worlds[0].has(id, component);
    }

    private long spawnAll(Function<World, Long> spawn) {
        long id = 0;
        for (int i = 0; i < worlds.length; i++) {
            long spawned = spawn.apply(worlds[i]);
            if (i == 0) {
                id = spawned;
            } else {
                assertEquals(id, spawned, "the same operations hand out the same ids");
            }
        }
        ids.add(id);
        return id;
    }

    private void setAll(long id, Input input) {
        forAll(w -> w.set(id, input));
    }

    private void forAll(java.util.function.Consumer<World> action) {
        for (World w : worlds) {
            action.accept(w);
        }
    }

    /**
     * Asserts that every world holds what the first one holds, bit for bit: the same entities alive, each in
     * the same archetype and row with the same transform, offset and lifetime bits, and every archetype with the
     * same row count and the same write counts of {@code Transform2D} and {@code TTL} (value writes and dirty
     * marks only: they reveal a mark one implementation made and the other did not).
     */
    void assertSame(String where) {
        World expected = worlds[0];
        for (int w = 1; w < worlds.length; w++) {
            World actual = worlds[w];
            assertEquals(expected.entityCount(), actual.entityCount(), where + ": entity count");
            for (long id : ids) {
                String at = where + " entity " + id;
                assertEquals(expected.isAlive(id), actual.isAlive(id), at + " alive");
                if (!expected.isAlive(id)) {
                    continue;
                }
                assertEquals(expected.archetypeOf(id).id(), actual.archetypeOf(id).id(), at + " archetype");
                assertEquals(expected.rowOf(id), actual.rowOf(id), at + " row");
                assertEquals(bits(expected.get(id, Transform2D.COMPONENT)), bits(actual.get(id, Transform2D.COMPONENT)),
                        at + " Transform2D");
                assertEquals(bits(expected.get(id, RelativeTransform2D.COMPONENT)),
                        bits(actual.get(id, RelativeTransform2D.COMPONENT)), at + " RelativeTransform2D");
                assertEquals(bits(expected.get(id, TTL.COMPONENT)), bits(actual.get(id, TTL.COMPONENT)), at + " TTL");
            }
            assertSameLists(archetypes(expected), archetypes(actual), where + ": archetype id:rows:writes");
        }
    }

    /** Equal lists, or a failure that names the first entry that differs (not two whole lists). */
    static void assertSameLists(List<String> expected, List<String> actual, String where) {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            assertEquals(expected.get(i), actual.get(i), where + ", entry " + i);
        }
        assertEquals(expected.size(), actual.size(), where + ": sizes");
    }

    /** Per archetype: id, rows, and the write counts of Transform2D and TTL where it has them. */
    static List<String> archetypes(World world) {
        List<String> out = new ArrayList<>();
        world.forEachArchetype(a -> out.add(a.id() + ":" + a.count() + ":" + writes(a, Transform2D.COMPONENT) + ":"
                + writes(a, TTL.COMPONENT)));
        return out;
    }

    private static String writes(Archetype archetype, Component<?> component) {
        return archetype.has(component) ? Long.toString(archetype.writeCount(component)) : "-";
    }

    /** Raw bits of a transform, field by field ({@code null} stays {@code null}). */
    static String bits(Transform2D t) {
        return t == null ? null : List.of(raw(t.x()), raw(t.y()), raw(t.z()), t.layer(), raw(t.rotation()),
                raw(t.scaleX()), raw(t.scaleY())).toString();
    }

    static String bits(RelativeTransform2D o) {
        return o == null ? null : List.of(raw(o.x()), raw(o.y()), raw(o.z()), raw(o.rotation()), raw(o.scaleX()),
                raw(o.scaleY()), raw(o.originX()), raw(o.originY())).toString();
    }

    static String bits(TTL ttl) {
        return ttl == null ? null : Double.doubleToRawLongBits(ttl.startingTime()) + "/"
                + Double.doubleToRawLongBits(ttl.remaining());
    }

    private static int raw(float value) {
        return Float.floatToRawIntBits(value);
    }
}
