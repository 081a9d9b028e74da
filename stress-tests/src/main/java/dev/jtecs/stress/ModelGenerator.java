package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.KEY;
import static dev.jtecs.stress.ModelComponents.KEYED;
import static dev.jtecs.stress.ModelComponents.LOAN;
import static dev.jtecs.stress.ModelComponents.MARKED;
import static dev.jtecs.stress.ModelComponents.SPRING;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Component;
import dev.jtecs.component.Input;
import dev.jtecs.entity.Entity;
import dev.jtecs.stress.ModelComponents.Loan;
import dev.jtecs.stress.ModelComponents.Spring;
import dev.jtecs.stress.ModelInput.EdgeTo;
import dev.jtecs.stress.ModelOp.KeyPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Turns a seed into a {@link ModelScript}: every random choice of a model run is made here, before anything
 * executes, knowing only how many handles the operations so far may bind. Whether a call is legal is decided
 * at execution ({@link ModelRun}), so the mix is what this class draws: about a fifth spawns, a third single
 * writes and removals, a tenth despawns, a fifth bulk calls, a tenth commits, and a few reads, frames and spawn
 * observers.
 */
final class ModelGenerator {
    /**
     * Relationship edges in three runs in four; {@code -Djtecs.modelRelations=false} leaves them out (to tell
     * whether a mismatch needs them).
     */
    static final boolean RELATIONS = Boolean.parseBoolean(System.getProperty("jtecs.modelRelations", "true"));
    /** {@code -Djtecs.modelKeyedBatchSet=false} leaves out {@code batchSet} of a component requiring the key. */
    private static final boolean KEYED_BATCH_SET =
            Boolean.parseBoolean(System.getProperty("jtecs.modelKeyedBatchSet", "true"));
    /** How often the instant path compares everything although it has nothing to commit. */
    static final int INSTANT_CHECK_EVERY = 25;

    private final SplittableRandom random;
    private final SplittableRandom partitions; // partition operations: a stream of their own (see partitionOp)
    private final SplittableRandom writes; // in-place field writes: a stream of their own (see fieldWrite)
    private final SplittableRandom bursts; // runs of reparentings: a stream of their own (see reparentBurst)
    private final boolean relational;
    private boolean sparseOnly; // see sparseOnly(long)
    private final List<ModelOp> ops = new ArrayList<>();
    private int handles;

    private ModelGenerator(SplittableRandom random, boolean relational, SplittableRandom partitions,
            SplittableRandom writes, SplittableRandom bursts) {
        this.random = random;
        this.partitions = partitions;
        this.writes = writes;
        this.bursts = bursts;
        this.relational = relational;
    }

    static ModelScript generate(long seed, int operations, boolean relations) {
        if (operations < 0) {
            throw new IllegalArgumentException("operations=" + operations + " is negative");
        }
        SplittableRandom random = new SplittableRandom(seed);
        boolean instant = random.nextBoolean();
        boolean relational = random.nextInt(4) != 0 && relations;
        ModelGenerator generator = new ModelGenerator(random, relational,
                new SplittableRandom(seed ^ 0x9A27_1710_5EEDL), new SplittableRandom(seed ^ 0x0F1E_1D5E_7A11L),
                new SplittableRandom(seed ^ 0x7E5A_2E47_B0A7L));
        generator.sparseOnly = sparseOnly(seed);
        for (int i = 0; i < operations; i++) {
            generator.next();
            if (instant && i % INSTANT_CHECK_EVERY == INSTANT_CHECK_EVERY - 1) {
                generator.ops.add(new ModelOp.Commit(false, generator.root()));
            }
        }
        // drawn apart from the operations, so that a seed's operations stay what they were before this choice
        boolean observed = new SplittableRandom(seed ^ 0x0B5E_47ED_0F5EL).nextInt(4) != 0;
        return new ModelScript(seed, instant, relational, observed, generator.ops);
    }

    private void next() {
        nextMain();
        reparentBurst();
        if (partitions.nextInt(8) == 0) {
            ops.add(partitionOp());
        }
        if (writes.nextInt(6) == 0) {
            ModelOp.FieldWrite write = fieldWrite();
            ops.add(write);
            if (write.mode() == ModelFieldWrites.ROW && writes.nextBoolean()) { // the same row again at once
                ops.add(new ModelOp.FieldWrite(write.id(), write.component(),
                        writes.nextInt(write.component().layout().nativeColumnCount()), writes.nextInt(-40, 41),
                        ModelFieldWrites.AGAIN));
            }
        }
    }

    /**
     * Now and then in a relational run, the sparse hierarchy's edge to one target set on four to twelve handles in
     * ascending order, back to back: in a scope, the flush meets them as a run of writes it may land together
     * (the run of a reparenting), and half the time the same handles are moved on to a second target at once, so
     * that the run leaves a shared parent. The target is now and then a raw id of no live entity. Drawn from a
     * stream of its own, so the other operations of a seed are the ones it drew before.
     */
    private void reparentBurst() {
        if (!relational || handles < 4 || bursts.nextInt(40) != 0) {
            return;
        }
        int count = bursts.nextInt(4, 13);
        int[] picked = bursts.ints(count, 0, handles).sorted().distinct().toArray();
        int moves = bursts.nextBoolean() ? 2 : 1;
        for (int move = 0; move < moves; move++) {
            ModelRef target = bursts.nextInt(12) == 0
                    ? new ModelRef.Raw(Entity.pack(bursts.nextInt(1, 5000) + 200_000, 0))
                    : new ModelRef.Handle(bursts.nextInt(handles));
            for (int handle : picked) {
                ops.add(new ModelOp.Reparent(new ModelRef.Handle(handle), new EdgeTo(ModelComponents.HELD_BY, target,
                        null)));
            }
        }
    }

    /**
     * An in-place write of one field of a native component ({@link ModelFieldWrites}), drawn from a stream of its
     * own so the other operations of a seed are the ones it drew before field writes existed: the three ways in
     * equal parts (a row found is written again at once half the time), mostly live handles, now and then a raw id.
     */
    private ModelOp.FieldWrite fieldWrite() {
        Component<?> component = NATIVE_COMPONENTS.get(writes.nextInt(NATIVE_COMPONENTS.size()));
        ModelRef id = handles == 0 || writes.nextInt(20) == 0
                ? new ModelRef.Raw(Entity.pack(writes.nextInt(1, 5000) + 200_000, 0))
                : new ModelRef.Handle(writes.nextInt(handles));
        return new ModelOp.FieldWrite(id, component, writes.nextInt(component.layout().nativeColumnCount()),
                writes.nextInt(-40, 41), writes.nextInt(ModelFieldWrites.MODES));
    }

    /** The components whose fields {@link #fieldWrite} writes. */
    private static final List<Component<?>> NATIVE_COMPONENTS =
            List.of(ModelComponents.POSITION, ModelComponents.STATS, ModelComponents.VELOCITY);

    /**
     * A {@code setTag}/{@code unsetTag}, drawn from a stream of its own so the other operations of a seed are the
     * ones it drew before partitions existed: mostly live handles, now and then a raw id, and one in twenty an
     * {@code unsetTag} on the multi-variant dimension (refused).
     */
    private ModelOp partitionOp() {
        ModelRef id = handles == 0 || partitions.nextInt(20) == 0
                ? new ModelRef.Raw(Entity.pack(partitions.nextInt(1, 5000) + 200_000, 0))
                : new ModelRef.Handle(partitions.nextInt(handles));
        int roll = partitions.nextInt(20);
        if (roll < 10) {
            return new ModelOp.PartitionTag(id, ModelComponents.PARTITION_TAGS.get(partitions.nextInt(3)), true);
        } else if (roll < 14) {
            return new ModelOp.PartitionTag(id, ModelComponents.FLAGGED, true);
        } else if (roll < 19) {
            return new ModelOp.PartitionTag(id, ModelComponents.FLAGGED, false);
        }
        return new ModelOp.PartitionTag(id, ModelComponents.PARTITION_TAGS.get(partitions.nextInt(3)), false);
    }

    private void nextMain() {
        int roll = random.nextInt(1030);
        if (roll < 200 || handles == 0) {
            List<ModelInput> inputs = withEdges(random.nextInt(3) == 0 ? plainInputs() : randomInputs());
            ops.add(new ModelOp.Spawn(handles++, observe(), inputs));
        } else if (roll < 380 && relational && random.nextInt(3) == 0) {
            ops.add(new ModelOp.SetInput(pickId(), randomEdge()));
        } else if (roll < 510 && roll >= 380 && relational && random.nextInt(3) == 0) {
            ops.add(random.nextBoolean() ? new ModelOp.Remove(pickId(), pickRelationship())
                    : new ModelOp.RemoveEdge(pickId(), randomEdge()));
        } else if (roll < 380) {
            ops.add(new ModelOp.SetInput(pickId(), new ModelInput.Given(randomInput(pickComponent()))));
        } else if (roll < 510) {
            ops.add(new ModelOp.Remove(pickId(), pickComponent()));
        } else if (roll < 610) {
            ops.add(new ModelOp.Despawn(pickId()));
        } else if (roll < 670) {
            List<ModelInput> inputs = withEdges(randomInputs());
            ops.add(new ModelOp.SpawnAt(handles++, candidateForSpawnAt(), observe(), inputs));
        } else if (roll < 863) {
            bulk(roll - 670);
        } else if (roll < 958) {
            ops.add(new ModelOp.Commit(random.nextInt(5) == 0, root()));
        } else if (roll < 970) {
            ops.add(new ModelOp.SaveLoad(random.nextInt(ModelSnapshots.MODES), root()));
        } else if (roll < 1000) {
            ops.add(new ModelOp.Read(random.nextInt(3) == 0 ? new ModelRef.Raw(random.nextLong()) : pickId()));
        } else if (roll < 1020) {
            ops.add(new ModelOp.Update());
        } else {
            Component<?> component = pickComponent();
            ops.add(new ModelOp.ObserveSpawns(random.nextInt(3, 10),
                    random.nextInt(3) == 0 ? null : randomInput(component)));
        }
    }

    /** One bulk call, chosen by {@code roll} in {@code [0, 193)}. */
    private void bulk(int roll) {
        if (roll < 50) {
            batchSpawn();
        } else if (roll < 80) {
            batchSpawnAt();
        } else if (roll < 160) {
            queryBatch();
        } else if (roll < 163) {
            ops.add(new ModelOp.ClearEntities());
        } else if (roll < 177) {
            restore();
        } else if (roll < 182) {
            failingSpawn();
        } else if (roll < 187) {
            ops.add(new ModelOp.FailingWriter(query(), pickComponent(), random.nextInt(3)));
        } else {
            keyRejection();
        }
    }

    private void batchSpawn() {
        if (random.nextInt(16) == 0) {
            ops.add(new ModelOp.BatchSpawn(handles, -random.nextInt(3), null, -1, ModelInput.of(MARKED)));
            return;
        }
        int count = random.nextInt(8) == 0 ? random.nextInt(40, 100) : random.nextInt(1, 9);
        List<ModelInput> inputs = withEdges(randomInputs());
        List<Component<?>> init = randomRewrites();
        int observe = random.nextInt(10) == 0 ? random.nextInt(count) : -1;
        ops.add(new ModelOp.BatchSpawn(handles, count, init, observe, inputs));
        handles += count;
    }

    private void batchSpawnAt() {
        int n = random.nextInt(6);
        List<ModelRef> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(candidateForSpawnAt());
        }
        if (n > 0 && random.nextInt(6) == 0) {
            int k = random.nextInt(n);
            ids.set(k, random.nextBoolean() || n == 1
                    ? new ModelRef.Raw(new long[] {0L, -1L, Long.MIN_VALUE, 1L << 32}[random.nextInt(4)])
                    : new ModelRef.SlotOf((k + 1) % n, random.nextInt(4))); // a slot twice
        }
        List<ModelInput> inputs = withEdges(randomInputs());
        List<Component<?>> init = randomRewrites();
        int observe = n > 0 && random.nextInt(10) == 0 ? random.nextInt(n) : -1;
        ops.add(new ModelOp.BatchSpawnAt(handles, ids, init, observe, inputs));
        handles += n;
    }

    private void queryBatch() {
        int query = query();
        if (relational && random.nextInt(4) == 0) {
            EdgeTo edge = randomEdge();
            ops.add(switch (random.nextInt(3)) {
                case 0 -> new ModelOp.BatchSet(query, edge);
                case 1 -> new ModelOp.BatchRemove(query, edge.relationship());
                default -> new ModelOp.BatchRemoveEdge(query, edge);
            });
            return;
        }
        int kind = random.nextInt(10);
        if (kind < 4) {
            ops.add(new ModelOp.BatchSet(query, new ModelInput.Given(randomInput(pickComponent()))));
        } else if (kind < 6) {
            ops.add(new ModelOp.BatchRewrite(query, pickComponent()));
        } else if (kind < 8) {
            ops.add(new ModelOp.BatchRemove(query, pickComponent()));
        } else {
            ops.add(new ModelOp.BatchDespawn(query));
        }
    }

    private void restore() {
        int n = random.nextInt(1, 6);
        List<ModelRef> ids = candidates(n);
        List<Input> inputs = List.of(randomInputs());
        List<Component<?>> init = randomRewrites();
        ModelOp.Keys keys = new ModelOp.Keys(KeyPlan.NONE, null, 0, 0);
        if (random.nextInt(4) != 0) {
            int policy = random.nextInt(10);
            if (policy == 9 && n == 1) {
                keys = new ModelOp.Keys(KeyPlan.CONSTANT, null, 0, random.nextBoolean() ? random.nextInt(1 << 16) : -1);
            } else {
                Component<?> input = random.nextBoolean() ? KEY : KEYED;
                KeyPlan plan = switch (policy) {
                    case 6 -> KeyPlan.TWIN;
                    case 7 -> KeyPlan.HELD;
                    case 8 -> KeyPlan.MISSING;
                    case 9 -> KeyPlan.NO_INITIALIZER;
                    default -> KeyPlan.FRESH;
                };
                keys = new ModelOp.Keys(plan, input, random.nextInt(n), random.nextInt(1 << 16));
                init = plan == KeyPlan.NO_INITIALIZER ? null : init == null ? List.of() : init;
            }
        }
        int badCount = random.nextInt(12) == 0 ? (random.nextBoolean() ? -1 : 1) : 0;
        ops.add(new ModelOp.Restore(handles, ids, init, keys, badCount, random.nextInt(10) == 0, inputs));
        handles += n;
    }

    private void failingSpawn() {
        List<Input> inputs = List.of(randomInputs());
        List<Component<?>> init = randomRewrites();
        int mode = random.nextInt(3);
        int count = mode == 0 ? random.nextInt(1, 9) : 0;
        List<ModelRef> ids = mode == 0 ? List.of() : candidates(random.nextInt(1, 6));
        ops.add(new ModelOp.FailingSpawn(handles, mode, count, ids, init == null ? List.of() : init, inputs));
        handles += Math.max(count, ids.size());
    }

    private void keyRejection() {
        Component<?> keyed = random.nextBoolean() ? KEY : KEYED;
        List<Input> inputs = new ArrayList<>(List.of(randomInputs()));
        inputs.add(random.nextInt(inputs.size() + 1), keyed);
        int call = random.nextInt(KEYED_BATCH_SET ? 6 : 4);
        int count = call == 0 ? random.nextInt(1, 5) : 0;
        List<ModelRef> ids = call == 1 ? candidates(random.nextInt(1, 4)) : List.of();
        ops.add(new ModelOp.KeyRejection(call, count, ids, query(), inputs));
    }

    // ---------------------------------------------------------------- random choices

    /** One spawn in ten also gets an {@code OnDespawn} observer at its own address. */
    private boolean observe() {
        return random.nextInt(10) == 0;
    }

    private List<ModelRef> candidates(int n) {
        List<ModelRef> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(candidateForSpawnAt());
        }
        return ids;
    }

    /** A slot used before (with a later generation), a handle's own id, or a slot beyond any used so far. */
    private ModelRef candidateForSpawnAt() {
        int choice = random.nextInt(3);
        if (choice == 0 && handles > 0) {
            return new ModelRef.Revive(random.nextInt(handles), random.nextInt(1, 3));
        }
        if (choice == 1 && handles > 0) {
            return new ModelRef.Handle(random.nextInt(handles));
        }
        return new ModelRef.Beyond(random.nextInt(1, 6), random.nextInt(3));
    }

    /** Mostly handles (live, staged or dead by now); sometimes malformed or never-used ids. */
    private ModelRef pickId() {
        int roll = random.nextInt(20);
        if (roll == 0) {
            return new ModelRef.Raw(random.nextInt(3) - 1L); // 0, -1 or 1
        }
        if (roll == 1 || handles == 0) {
            return new ModelRef.Raw(Entity.pack(random.nextInt(1, 5000) + 200_000, 0));
        }
        return new ModelRef.Handle(random.nextInt(handles));
    }

    private ModelRef root() {
        return handles == 0 ? new ModelRef.Handle(0) : new ModelRef.Handle(random.nextInt(handles));
    }

    private int query() {
        return random.nextInt(ModelQueries.COUNT);
    }

    /** An edge of a random relationship to a handle, sometimes to an id never used. */
    private EdgeTo randomEdge() {
        ModelRef target = random.nextInt(30) == 0 || handles == 0
                ? new ModelRef.Raw(Entity.pack(random.nextInt(1, 5000) + 200_000, 0))
                : new ModelRef.Handle(random.nextInt(handles));
        BaseRelationship<?> relationship = pickRelationship();
        Object payload = null;
        if (relationship == SPRING && random.nextInt(4) != 0) {
            payload = new Spring(0L, random.nextInt(8) / 2f, random.nextInt(4));
        } else if (relationship == LOAN && random.nextInt(4) != 0) {
            payload = new Loan(0L, random.nextInt(1, 6));
        }
        return new EdgeTo(relationship, target, payload);
    }

    private BaseRelationship<?> pickRelationship() {
        List<BaseRelationship<?>> palette = sparseOnly ? ModelComponents.SPARSE : ModelComponents.RELATIONSHIPS;
        return palette.get(random.nextInt(palette.size()));
    }

    /**
     * Whether a seed's edges keep to the sparse relationships (one seed in three, drawn apart from the operations,
     * so other seeds stay as they were): its world holds no pair. Unobserved, such a run also gives its queries no
     * membership callbacks (ModelRun), so that a cascade nobody hears, with nothing else staged, can despawn its
     * subtree at once, a path that pairs or an entity observer on a table rule out.
     */
    static boolean sparseOnly(long seed) {
        return new SplittableRandom(seed ^ 0x5BA2_5E0E_D6E5L).nextInt(3) == 0;
    }

    /**
     * Whether a relational seed, when it runs unobserved, gives its queries no membership callbacks, so that no
     * archetype is observed: every {@linkplain #sparseOnly sparse-only} seed, and one other seed in two (drawn apart
     * from the operations), whose cascades through the sparse hierarchy may then despawn at once beside the pairs
     * of its world.
     */
    static boolean unwatched(long seed) {
        return sparseOnly(seed) || new SplittableRandom(seed ^ 0x3A7C_11E5_0B5EL).nextInt(2) == 0;
    }

    /** In a relational run, one input list in three also gets one to three edges. */
    private List<ModelInput> withEdges(Input[] inputs) {
        List<ModelInput> all = new ArrayList<>(ModelInput.of((Object[]) inputs));
        if (!relational || handles == 0 || random.nextInt(3) != 0) {
            return all;
        }
        for (int n = random.nextInt(1, 4); n > 0; n--) {
            all.add(random.nextInt(all.size() + 1), randomEdge());
        }
        return all;
    }

    private Input[] randomInputs() {
        int n = random.nextInt(0, 5);
        Input[] inputs = new Input[n];
        for (int i = 0; i < n; i++) {
            inputs[i] = randomInput(pickComponent());
        }
        return inputs;
    }

    /**
     * One to three distinct inputs of the plain components (native records' values, a tag without requirements):
     * once their archetype exists, a scope stages such a spawn compactly, with no record, until a later call on it
     * makes it one ({@code CompactSpawns}); a bare component among them asks for its default, a record's path.
     */
    private Input[] plainInputs() {
        List<Component<?>> plain = new ArrayList<>(List.of(ModelComponents.POSITION, ModelComponents.STATS,
                ModelComponents.VELOCITY, ModelComponents.MARKED));
        Input[] inputs = new Input[random.nextInt(1, 4)];
        for (int i = 0; i < inputs.length; i++) {
            inputs[i] = randomInput(plain.remove(random.nextInt(plain.size())));
        }
        return inputs;
    }

    private Input randomInput(Component<?> component) {
        return ModelComponents.randomInput(component, random);
    }

    private Component<?> pickComponent() {
        return ModelComponents.ALL.get(random.nextInt(ModelComponents.ALL.size()));
    }

    /** No initializer one time in three; otherwise the components it rewrites (each palette one in three). */
    private List<Component<?>> randomRewrites() {
        if (random.nextInt(3) == 0) {
            return null;
        }
        List<Component<?>> rewritten = new ArrayList<>();
        for (Component<?> component : ModelComponents.ALL) {
            if (random.nextInt(3) == 0) {
                rewritten.add(component);
            }
        }
        return rewritten;
    }
}
