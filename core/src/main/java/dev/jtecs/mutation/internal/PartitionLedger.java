package dev.jtecs.mutation.internal;

import dev.jtecs.component.Component;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.internal.EntityIndex;
import dev.jtecs.entity.internal.Growth;
import dev.jtecs.mutation.PartitionConflictException;
import dev.jtecs.mutation.PartitionConflicts;
import dev.jtecs.mutation.PartitionDimension;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A world's partition dimensions and, for the submission being staged, which operation each entity holds on
 * each dimension. {@code setTag}/{@code unsetTag} are decided here and then staged as the plain tag additions and
 * removals of {@link Staging}, so the drain coalesces every change of one entity into one move and a staged
 * despawn drops them, exactly as it does for any other staged change.
 *
 * <pre>
 *   setTag/unsetTag ─► despawn staged? ─ yes ─► dropped (remove wins)
 *                      │ no
 *                      ▼
 *                      ledger[slot, dimension] this submission?
 *                        none:      already so?  ─ yes ─► nothing;  no ─► record, stage
 *                        same op:   nothing (a repeat)
 *                        other op:  RAISE ─► PartitionConflictException, nothing changes
 *                                   HIGHEST_WINS ─► log; higher value ─► record, stage; lower ─► dropped
 * </pre>
 *
 * <p>A submission is the work staged between two seals of the transaction ({@link Transaction#seals()}): the
 * whole of an outermost scope, then each wave that callbacks stage during the drain. The ledger forgets every
 * entry when it first sees a new one.
 *
 * @implNote Indexed by slot, as the entity index is: per slot the submission its entries belong to and the head of
 *     a short list (one entry per dimension touched) in a pool that a new submission reuses from the start. A
 *     submission never clears anything, and allocates only when it reaches a slot or an entry count no submission
 *     reached before.
 */
public final class PartitionLedger {
    private static final System.Logger LOG = System.getLogger("dev.jtecs.mutation.Partitions");
    static final int MAX_DIMENSIONS = 1 << 16;

    private final EntityIndex index;
    private final ArchetypeRegistry archetypes;
    private final Transaction transaction;
    private final Staging staging;
    private final PartitionConflicts policy;
    private final List<PartitionDimension> dimensions = new ArrayList<>();
    private int[] dimensionByComponent = new int[64]; // component id -> dimension index + 1, 0 when none

    // per slot: the submission (seals + 1) its entries belong to, and the first of them; entries of older
    // submissions are simply ignored, so starting a submission clears nothing
    private long[] slotEpochs = new long[1024];
    private int[] slotHeads = new int[1024];
    // the entries of this submission: dimension, value held, next entry of the same slot
    private int[] entryDimensions = new int[256];
    private int[] entryValues = new int[256];
    private int[] entryNext = new int[256];
    private int entries;
    private long epoch;
    private long conflicts;

    PartitionLedger(EntityIndex index, ArchetypeRegistry archetypes, Transaction transaction, Staging staging,
            PartitionConflicts policy) {
        this.index = index;
        this.archetypes = archetypes;
        this.transaction = transaction;
        this.staging = staging;
        this.policy = Objects.requireNonNull(policy, "policy");
    }

    // ---------------------------------------------------------------- declarations

    /**
     * Declares a dimension; declaring the same object again does nothing.
     *
     * @throws IllegalArgumentException when another dimension has its name or one of its tags
     */
    public void declare(PartitionDimension dimension) {
        Objects.requireNonNull(dimension, "dimension");
        if (dimensions.contains(dimension)) {
            return;
        }
        for (PartitionDimension other : dimensions) {
            if (other.name().equals(dimension.name())) {
                throw new IllegalArgumentException("a partition dimension named " + dimension.name()
                        + " is already declared: " + other);
            }
        }
        for (TagComponent tag : dimension.tags()) {
            PartitionDimension other = dimensionOf(tag);
            if (other != null) {
                throw new IllegalArgumentException("tag " + tag.name() + " of " + dimension + " already belongs to "
                        + other + "; a tag is in at most one dimension");
            }
        }
        if (dimensions.size() == MAX_DIMENSIONS) {
            throw new IllegalStateException("at most " + MAX_DIMENSIONS + " partition dimensions per world");
        }
        dimensions.add(dimension);
        for (TagComponent tag : dimension.tags()) {
            if (tag.id() >= dimensionByComponent.length) {
                dimensionByComponent = Arrays.copyOf(dimensionByComponent,
                        Math.max(tag.id() + 1, dimensionByComponent.length * 2));
            }
            dimensionByComponent[tag.id()] = dimensions.size();
        }
    }

    /** The dimension a component belongs to, or {@code null}. */
    public PartitionDimension dimensionOf(Component<?> component) {
        int id = component.id();
        int d = id >= 0 && id < dimensionByComponent.length ? dimensionByComponent[id] : 0; // selectors have none
        return d == 0 ? null : dimensions.get(d - 1);
    }

    public List<PartitionDimension> dimensions() {
        return List.copyOf(dimensions);
    }

    /**
     * Refuses a plain structural call on a partition tag: only {@code setTag}/{@code unsetTag} keep a dimension's
     * rules (and spawns, which give an entity its first variants).
     */
    void refusePlain(Component<?> component, String operation) {
        PartitionDimension dimension = dimensionOf(component);
        if (dimension != null) {
            throw new IllegalArgumentException(operation + ": " + component.name() + " is a tag of partition "
                    + "dimension " + dimension.name() + "; change it with setTag"
                    + (dimension.isPresence() ? "/unsetTag" : " (switching the variant)"));
        }
    }

    /**
     * The dimension of a tag given to {@code setTag}/{@code unsetTag}, after the checks that need no entity.
     *
     * @throws IllegalArgumentException when the tag is in no dimension, or for {@code unsetTag} on a multi-variant
     *     one
     */
    PartitionDimension require(TagComponent tag, boolean set) {
        Objects.requireNonNull(tag, "tag");
        PartitionDimension dimension = dimensionOf(tag);
        // the operation is described only in a message: described on every call, it cost a string per setTag
        if (dimension == null) {
            throw new IllegalArgumentException(PartitionConflictException.describe(tag, set) + ": tag " + tag.name()
                    + " belongs to no partition dimension of this world; declare one with declarePartition first");
        }
        if (!set && !dimension.isPresence()) {
            throw new IllegalArgumentException(PartitionConflictException.describe(tag, set) + ": dimension "
                    + dimension.name() + " has " + dimension.arity() + " variants and no absent state; switch it "
                    + "with setTag(other variant)");
        }
        return dimension;
    }

    /** How many same-dimension conflicts the world resolved (not counting the raised ones). */
    public long conflictsResolved() {
        return conflicts;
    }

    // ---------------------------------------------------------------- operations

    /**
     * Decides an operation (before any scope opens): returns the value to stage, or -1 when nothing is to be
     * staged.
     *
     * @throws PartitionConflictException in {@code RAISE} mode, for a different operation on a dimension the
     *     entity already has one on in this submission (nothing changes)
     */
    int decide(long id, int slot, PartitionDimension dimension, TagComponent tag, boolean set) {
        if (staging.isDespawnStaged(id, slot)) {
            return -1; // remove wins: the entity will not exist when the submission ends
        }
        int value = set ? dimension.valueOf(tag) : 0;
        int d = dimensionByComponent[tag.id()] - 1;
        int held = held(slot, d);
        if (held < 0) {
            return alreadySo(id, slot, tag, set) ? -1 : value;
        }
        if (held == value) {
            return -1; // the same operation again
        }
        String first = describe(dimension, held);
        String second = PartitionConflictException.describe(tag, set);
        if (policy == PartitionConflicts.RAISE) {
            throw new PartitionConflictException(id, dimension, first, second);
        }
        conflicts++;
        String kept = value > held ? second : first;
        LOG.log(System.Logger.Level.ERROR, () -> "partition conflict on " + dev.jtecs.entity.Entity.toString(id)
                + " in dimension " + dimension.name() + ": " + first + " and " + second + " in one submission; "
                + "kept " + kept + " (the highest tag value)");
        return value > held ? value : -1;
    }

    /**
     * Stages a decided operation (inside the call's scope) and records it: the ledger's room first, the note
     * last, so that an operation whose staging fails is not noted as held (a retry in the same submission would
     * otherwise be taken for the same operation again and dropped).
     */
    void apply(long id, int slot, PartitionDimension dimension, int value) {
        int d = dimensionByComponent[dimension.tags().get(0).id()] - 1;
        reserve(slot);
        stage(id, slot, dimension, value);
        put(slot, d, value);
    }

    private void stage(long id, int slot, PartitionDimension dimension, int value) {
        List<TagComponent> tags = dimension.tags();
        if (dimension.isPresence()) {
            if (value == 1) {
                staging.set(id, slot, tags.get(0));
            } else {
                staging.remove(id, slot, tags.get(0));
            }
            return;
        }
        for (int i = 0; i < tags.size(); i++) {
            if (i + 1 != value) {
                staging.remove(id, slot, tags.get(i));
            }
        }
        staging.set(id, slot, tags.get(value - 1));
    }

    /** With no operation of this submission on the dimension, whether the published entity already is so. */
    private boolean alreadySo(long id, int slot, TagComponent tag, boolean set) {
        if (!index.isAlive(id)) {
            return false; // not published yet: its spawn shape decides, so the operation is staged
        }
        boolean has = archetypes.ofStore(index.storeOf(slot)).has(tag.id());
        return has == set;
    }

    private static String describe(PartitionDimension dimension, int value) {
        return value == 0 ? PartitionConflictException.describe(dimension.tags().get(0), false)
                : PartitionConflictException.describe(dimension.tags().get(value - 1), true);
    }

    // ---------------------------------------------------------------- the table

    /** The value held on dimension {@code d} of a slot in this submission, or -1 when none. */
    private int held(int slot, int d) {
        long now = transaction.seals() + 1; // + 1: a slot never touched holds 0
        if (slot >= slotEpochs.length || slotEpochs[slot] != now) {
            return -1;
        }
        for (int e = slotHeads[slot]; e >= 0; e = entryNext[e]) {
            if (entryDimensions[e] == d) {
                return entryValues[e];
            }
        }
        return -1;
    }

    /**
     * Makes room to note {@code slot} in this submission: the one step of the ledger that allocates. Every growth
     * is made into locals and assigned after the last one, so a failed allocation leaves the ledger as it was.
     */
    private void reserve(int slot) {
        int used = transaction.seals() + 1 == epoch ? entries : 0; // a new submission starts the pool over
        if (slot >= slotEpochs.length) {
            int capacity = Math.max(slot + 1, slotEpochs.length * 2);
            long[] grownEpochs = Growth.copyOf(slotEpochs, capacity);
            int[] grownHeads = Growth.copyOf(slotHeads, capacity);
            slotEpochs = grownEpochs;
            slotHeads = grownHeads;
        }
        if (used == entryValues.length) {
            int capacity = used * 2;
            int[] grownDimensions = Growth.copyOf(entryDimensions, capacity);
            int[] grownValues = Growth.copyOf(entryValues, capacity);
            int[] grownNext = Growth.copyOf(entryNext, capacity);
            entryDimensions = grownDimensions;
            entryValues = grownValues;
            entryNext = grownNext;
        }
    }

    /** Notes that {@code slot} holds {@code value} on dimension {@code d} in this submission, in the room reserved. */
    private void put(int slot, int d, int value) {
        long now = transaction.seals() + 1;
        if (now != epoch) { // a new submission: the pool of entries starts over
            epoch = now;
            entries = 0;
        }
        if (slotEpochs[slot] != now) {
            slotEpochs[slot] = now;
            slotHeads[slot] = -1;
        }
        for (int e = slotHeads[slot]; e >= 0; e = entryNext[e]) {
            if (entryDimensions[e] == d) {
                entryValues[e] = value;
                return;
            }
        }
        entryDimensions[entries] = d;
        entryValues[entries] = value;
        entryNext[entries] = slotHeads[slot];
        slotHeads[slot] = entries++;
    }
}
