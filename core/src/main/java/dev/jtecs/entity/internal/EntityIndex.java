package dev.jtecs.entity.internal;

import dev.jtecs.entity.Entity;
import java.util.Arrays;

/**
 * The world's entity table: for every slot its generation, lifecycle state and (when alive) its archetype and row.
 *
 * <p>Invariants: a slot is in exactly one state; only {@link #FREE} slots sit on the free stack, each once, and
 * each free slot's {@code row} entry is its position there; the store and row are meaningful only for
 * {@link #ALIVE} slots; slots at or above {@code highWater} have never been used and have generation 0, except that
 * the first {@code tail} of them may be reserved lazily (below).
 *
 * <pre>
 *   allocate ──► RESERVED ──publish──► ALIVE ──free──► FREE ──allocate──► RESERVED ...
 *                   │                                    ▲
 *                   └──────────── release (cancelled) ───┘      generation + 1 on every free/release
 * </pre>
 *
 * @implNote Two primitive arrays grown geometrically; nothing is allocated per entity. A slot's generation,
 *     state and store share one {@code long}, so the liveness check of an id and the store of a live entity are
 *     one load. The second array holds one {@code int} per slot whose meaning follows the state: an alive slot's
 *     row, the archetype a reserved slot is stamped for, or a free slot's position on the free stack (which makes
 *     removing an arbitrary free slot, for {@link #reserveAt}, O(1)). A slot never needs two of them at once, so a
 *     despawn that frees a slot and a spawn that takes one back each write the line its row was read from,
 *     rather than a third array's line. The frees of many slots at once ({@link #freeInOrder} and its kin) do not
 *     write the positions at all: only {@link #reserveAt} reads one, and it first writes those the stack's upper
 *     part lacks ({@code positionsFrom}), each at most once per push, so a subtree or an archetype that dies whole
 *     writes one array less per entity.
 */
public final class EntityIndex {
    public static final byte FREE = 0;
    public static final byte RESERVED = 1;
    public static final byte ALIVE = 2;
    public static final byte RETIRED = 3;

    /** The first capacity, in slots: room for 1,024 entities beside slot 0, which none takes. */
    static final int FIRST_SLOTS = 1025;

    private final int maxEntities;
    // per slot, in one long: generation (bits 0-30), state (bits 31-32) and store (bits 33-63), so a liveness
    // check and the store of a live entity are one load
    private long[] meta;
    // per slot, by its state: the row (alive), the stamped archetype or -1 (reserved), the free-stack position (free)
    private int[] row;
    private int[] freeStack;
    private int freeCount;
    // the free stack's positions below this one (and below freeCount) are written in their slots' row entries; those
    // from here up may not be (a bulk free leaves them out): removeFromFreeStack writes them before it reads one
    private int positionsFrom = Integer.MAX_VALUE;
    private int highWater = 1;
    private int aliveCount;
    // slots [highWater, highWater + tail) are reserved and stamped for tailArchetype, but not written yet: fresh slots
    // a spawn queue took one at a time (allocateStamped) while nothing was free. Their words still read as never
    // used, and the arrays need not reach them yet; publishing them as a prefix of the run writes each slot once,
    // and any other change writes the whole run first (settle), so everything below sees ordinary reserved slots
    private int tail;
    private int tailArchetype;

    public EntityIndex(int maxEntities) {
        if (maxEntities < 1 || maxEntities > Entity.MAX_ENTITIES) {
            throw new IllegalArgumentException("maxEntities=" + maxEntities + " outside 1.." + Entity.MAX_ENTITIES);
        }
        this.maxEntities = maxEntities;
        int initial = Math.min(maxEntities + 1, FIRST_SLOTS);
        meta = new long[initial];
        row = new int[initial];
        freeStack = new int[64];
    }

    public int maxEntities() {
        return maxEntities;
    }

    /** The number of slots ever handed out plus one (slot 0). */
    public int highWater() {
        return highWater + tail;
    }

    public int aliveCount() {
        return aliveCount;
    }

    /** Exact liveness for any {@code long}: well formed, in range, published and of the current generation. */
    public boolean isAlive(long id) {
        return aliveStore(id) >= 0;
    }

    /** The state of the slot an id names, or {@link #FREE} when the id is malformed, out of range or stale. */
    public byte stateOf(long id) {
        if (!Entity.isWellFormed(id)) {
            return FREE;
        }
        int slot = Entity.slot(id);
        if (slot >= highWater) { // never used, or reserved lazily at generation 0
            return slot < highWater + tail && Entity.generation(id) == 0 ? RESERVED : FREE;
        }
        if (generationOf(slot) != Entity.generation(id)) {
            return FREE;
        }
        return stateAt(slot);
    }

    /**
     * Returns the slot of an id that is alive or reserved, or throws naming the slot and both generations.
     *
     * @param operation what the caller was doing, for the message
     */
    public int requireLiveOrReserved(long id, String operation) {
        if (aliveStore(id) >= 0) { // the common case in one compare of the slot word
            return Entity.slot(id);
        }
        byte s = stateOf(id);
        if (s == ALIVE || s == RESERVED) {
            return Entity.slot(id);
        }
        throw new IllegalArgumentException(describeDead(id, operation));
    }

    /** Explains why an id does not name a live entity. */
    public String describeDead(long id, String operation) {
        if (!Entity.isWellFormed(id)) {
            return operation + ": id=" + id + " is not an entity id (slot must be 1.." + Entity.MAX_ENTITIES + ")";
        }
        int slot = Entity.slot(id);
        int idGeneration = Entity.generation(id);
        if (slot >= highWater + tail) {
            return operation + ": entity " + Entity.toString(id) + " does not exist (slot=" + slot
                    + " never allocated, id generation=" + idGeneration + ")";
        }
        return operation + ": entity " + Entity.toString(id) + " is dead or stale (slot=" + slot
                + " id generation=" + idGeneration + " current generation=" + generationOf(slot)
                + " state=" + stateName(slotState(slot)) + ")";
    }

    /** How many more ids can be reserved (free slots plus never-used ones). */
    public long available() {
        return freeCount + ((long) maxEntities + 1 - highWater - tail);
    }

    /** Whether recycled slots are waiting (a batch would then not be fresh and consecutive). */
    public boolean hasFreeSlots() {
        return freeCount > 0;
    }

    /** Hands out a new id in the {@link #RESERVED} state. */
    public long allocate() {
        settle();
        int slot;
        if (freeCount > 0) {
            slot = freeStack[--freeCount];
        } else {
            if (highWater > maxEntities) {
                throw new IllegalStateException(full("no slot is left for a new entity"));
            }
            ensureSlots(highWater + 1); // grows (and may fail) before anything changes
            slot = highWater++;
        }
        setState(slot, RESERVED);
        row[slot] = -1;
        return Entity.pack(slot, generationOf(slot));
    }

    /**
     * {@link #allocate} and {@link #stampBatch} in one: a new id, reserved and stamped for a batch bound for
     * {@code archetype}. While no slot is free and the ids before it went to the same archetype this way, it takes
     * the next fresh slot without writing it or growing the arrays: a run of such spawns is written once, when its
     * batch is published ({@link #publishRange}), and the arrays grow once for all of it then.
     *
     * @throws IllegalStateException when the world is full (nothing is reserved)
     */
    public long allocateStamped(int archetype) {
        int slot = highWater + tail;
        if (freeCount == 0 && (tail == 0 || tailArchetype == archetype) && slot <= maxEntities) {
            tailArchetype = archetype;
            tail++;
            return Entity.pack(slot, 0); // a fresh slot: generation 0
        }
        long id = allocate();
        row[Entity.slot(id)] = archetype;
        return id;
    }

    /**
     * The id the next {@link #allocateStamped} (or {@link #allocate}) hands out, without reserving it: the top of
     * the free stack, else the next fresh slot; 0 (no id) when the world is full, and the allocation would throw.
     */
    public long nextId() {
        if (freeCount > 0) {
            int slot = freeStack[freeCount - 1];
            return Entity.pack(slot, generationOf(slot));
        }
        int slot = highWater + tail;
        return slot <= maxEntities ? Entity.pack(slot, 0) : 0;
    }

    /**
     * Writes the lazily reserved slots (see {@link #allocateStamped}) as ordinary reserved slots, growing the arrays
     * first; a failed growth changes nothing. Every change but publishing a prefix of them starts here.
     */
    private void settle() {
        if (tail != 0) {
            int to = highWater + tail;
            ensureSlots(to);
            fillStateAndGeneration(highWater, to, RESERVED, 0);
            Arrays.fill(row, highWater, to, tailArchetype);
            highWater = to;
            tail = 0;
        }
    }

    /**
     * Grows the arrays to hold the lazily reserved slots, so that publishing them allocates nothing: the commit
     * calls this before it places a batch (a failure then leaves the batch and its slots as they were).
     */
    public void roomForReserved() {
        if (tail != 0) {
            ensureSlots(highWater + tail);
        }
    }

    /**
     * The message of a full world: what did not fit, and what the slots hold, counted now (an error path only).
     * Retired slots are counted apart: their generation ran out, so they are never handed out again, and a world
     * can be full with no entity alive.
     */
    private String full(String what) {
        int alive = 0;
        int reserved = tail;
        int retired = 0;
        for (int slot = 1; slot < highWater; slot++) {
            switch (stateAt(slot)) {
                case ALIVE -> alive++;
                case RESERVED -> reserved++;
                case RETIRED -> retired++;
                default -> { }
            }
        }
        return "world is full: " + what + " (maxEntities=" + maxEntities + ": " + alive + " alive, " + reserved
                + " reserved by staged spawns, " + retired + " retired after their generation ran out and never "
                + "reused, " + available() + " free)";
    }

    /**
     * Reserves {@code count} ids for one batch bound for archetype {@code archetype} (the stamp that
     * {@link #batchArchetype} reads until publication). Recycled slots come first, in free-stack order, then
     * fresh slots past the high-water mark. Returns the first id when the packed ids are consecutive
     * ({@code first + i}), in which case {@code out} is untouched; otherwise fills {@code out} (at least
     * {@code count} long; {@code null} only when {@link #allocateConsecutive} would succeed) and returns 0.
     *
     * @throws IllegalStateException when fewer than {@code count} slots are left; nothing is reserved then
     */
    public long allocateBatch(int count, int archetype, long[] out) {
        if (out != null && out.length < count) {
            throw new IllegalArgumentException("out holds " + out.length + " ids, fewer than count=" + count);
        }
        long consecutive = allocateConsecutive(count, archetype);
        if (consecutive != 0) {
            return consecutive;
        }
        if (out == null) {
            throw new IllegalArgumentException("a batch of recycled slots needs an array for its ids");
        }
        return allocateScattered(count, archetype, out);
    }

    /** {@link #allocateScattered(int, int, long[], int)} writing from {@code out[0]}. */
    public long allocateScattered(int count, int archetype, long[] out) {
        return allocateScattered(count, archetype, out, 0);
    }

    /**
     * Reserves {@code count} ids one slot at a time (after {@link #allocateConsecutive} found no run), writing
     * them to {@code out[outOffset, outOffset + count)}; returns the first id when they happen to line up, else 0.
     *
     * @throws IllegalStateException when fewer than {@code count} slots are left; nothing is reserved then
     */
    public long allocateScattered(int count, int archetype, long[] out, int outOffset) {
        settle();
        if (count > available()) {
            throw new IllegalStateException(full("a batch of " + count + " does not fit"));
        }
        // every fresh slot the loop takes is grown for first: a failed growth reserves nothing
        ensureSlots((int) Math.min((long) maxEntities + 1, (long) highWater + Math.max(0, count - freeCount)));
        boolean lined = true;
        long firstId = 0;
        for (int i = 0; i < count; i++) {
            long id = allocate();
            row[Entity.slot(id)] = archetype;
            if (i == 0) {
                firstId = id;
            } else if (id != firstId + i) {
                lined = false;
            }
            out[outOffset + i] = id;
        }
        return lined ? firstId : 0;
    }

    /**
     * Reserves {@code count} consecutive ids at once when that is possible (no recycled slot is waiting, or the
     * top of the free stack is one ascending run of a single generation) and returns the first; otherwise
     * reserves nothing and returns 0.
     *
     * @throws IllegalStateException when fewer than {@code count} slots are left
     */
    public long allocateConsecutive(int count, int archetype) {
        settle();
        long fresh = (long) maxEntities + 1 - highWater;
        if (count > freeCount + fresh) {
            throw new IllegalStateException(full("a batch of " + count + " does not fit"));
        }
        int first;
        if (freeCount == 0) {
            first = highWater;
            ensureSlots(first + count);
            highWater = first + count;
        } else if (count <= freeCount && ascendingRunOnTop(count)) {
            first = freeStack[freeCount - 1];
            freeCount -= count; // their stack positions are overwritten by the stamp below
        } else {
            return 0;
        }
        fillState(first, first + count, RESERVED);
        Arrays.fill(row, first, first + count, archetype);
        return Entity.pack(first, generationOf(first)); // fresh slots have generation 0
    }

    /**
     * Whether the top {@code count} free slots pop as consecutive slots of one generation (as after
     * {@link #clear()}), so a batch can take them at once as consecutive ids.
     */
    private boolean ascendingRunOnTop(int count) {
        int top = freeCount - 1;
        int first = freeStack[top];
        int g = generationOf(first);
        for (int i = 1; i < count; i++) {
            int slot = freeStack[top - i];
            if (slot != first + i || generationOf(slot) != g) {
                return false;
            }
        }
        return true;
    }

    /**
     * What {@link #batchArchetype} answers for a slot a whole-world restoration reserved and has not stamped yet
     * (while its batches are planned): the entity exists once the restoration places it, and nothing may act on
     * it before.
     */
    public static final int RESTORING = -2;

    /**
     * The archetype a batch-reserved slot will be placed in, {@link #RESTORING} for a restored slot not stamped
     * yet, or -1 for a slot reserved by a single spawn (or not reserved at all).
     */
    public int batchArchetype(int slot) {
        if (slot >= highWater) {
            return slot < highWater + tail ? tailArchetype : -1;
        }
        return stateAt(slot) == RESERVED ? row[slot] : -1;
    }

    /** Stamps a slot reserved by {@link #reserveAt} as part of a batch bound for {@code archetype}. */
    public void stampBatch(int slot, int archetype) {
        settle();
        assert stateAt(slot) == RESERVED;
        row[slot] = archetype;
    }

    /** {@link #stampBatch} of every slot of {@code slots[from, to)} (ascending), run by run. */
    public void stampSlots(int[] slots, int from, int to, int archetype) {
        settle();
        for (int i = from; i < to; ) {
            int end = runEnd(slots, i, to);
            assert allReserved(slots[i], slots[i] + end - i);
            Arrays.fill(row, slots[i], slots[i] + end - i, archetype);
            i = end;
        }
    }

    private boolean allReserved(int from, int to) {
        for (int slot = from; slot < to; slot++) {
            if (stateAt(slot) != RESERVED) {
                return false;
            }
        }
        return true;
    }

    /**
     * Checks, without changing anything, that {@link #reserveAt} would accept an id.
     *
     * @throws IllegalArgumentException like {@link #reserveAt}
     */
    public void checkReservable(long id, String operation) {
        if (!Entity.isWellFormed(id)) {
            throw new IllegalArgumentException(operation + ": id=" + id + " is not an entity id (slot must be 1.."
                    + Entity.MAX_ENTITIES + ")");
        }
        int slot = Entity.slot(id);
        if (slot > maxEntities) {
            throw new IllegalArgumentException(operation + ": slot=" + slot + " exceeds maxEntities=" + maxEntities);
        }
        if (slot < highWater + tail && slotState(slot) != FREE) {
            throw new IllegalArgumentException(operation + ": slot=" + slot + " is " + stateName(slotState(slot))
                    + " (current generation=" + generationOf(slot) + ", requested generation="
                    + Entity.generation(id) + "); it requires a slot that is not in use");
        }
        if (slot < highWater && Entity.generation(id) < generationOf(slot)) {
            throw staleGeneration(id, slot, operation);
        }
    }

    /**
     * A free slot's generation is the one its next id gets; every id of the slot with a lower one belonged to an
     * entity that died (or was never published). Reviving such an id would make its old handles valid again.
     */
    private IllegalArgumentException staleGeneration(long id, int slot, String operation) {
        return new IllegalArgumentException(operation + ": id " + Entity.toString(id) + " is stale: slot=" + slot
                + " is free at generation " + generationOf(slot) + ", and generation " + Entity.generation(id)
                + " belonged to an entity that is gone (reviving it would make its old handles valid again); pass "
                + "generation " + generationOf(slot) + " or later");
    }

    /**
     * Publishes {@code count} consecutive reserved slots at consecutive rows of one store. When they are the first
     * of the lazily reserved slots, each is written once, alive (the arrays grow first if
     * {@link #roomForReserved} did not make the room; a failed growth changes nothing).
     */
    public void publishRange(int firstSlot, int count, int store, int firstRow) {
        if (tail != 0) {
            if (firstSlot == highWater && count <= tail) {
                ensureSlots(firstSlot + count);
                highWater += count; // the rest stay lazy, a run that starts at the new mark
                tail -= count;
            } else {
                settle();
            }
        }
        fillAlive(firstSlot, firstSlot + count, store);
        int[] rows = row;
        int delta = firstRow - firstSlot;
        for (int slot = firstSlot; slot < firstSlot + count; slot++) {
            rows[slot] = slot + delta;
        }
        aliveCount += count;
    }

    /**
     * Forgets every entity: alive and reserved slots are freed (their generation grows, so every old id goes
     * stale), and the free stack is rebuilt so that new ids come in ascending slot order.
     */
    public void clear() {
        settle();
        reserveForClear(); // every slot may go back on the free stack: room first, so a failure changes nothing
        freeCount = 0;
        positionsFrom = Integer.MAX_VALUE; // each push below writes its position
        for (int slot = highWater - 1; slot >= 1; slot--) {
            byte s = stateAt(slot);
            if (s == ALIVE || s == RESERVED) {
                if (generationOf(slot) == Entity.MAX_GENERATION) {
                    setState(slot, RETIRED);
                    continue;
                }
                setGeneration(slot, generationOf(slot) + 1);
            } else if (s == RETIRED) {
                continue;
            }
            pushFree(slot);
        }
        aliveCount = 0;
    }

    /** {@link #reserveAt(long, String)} for {@code spawnAt}. */
    public void reserveAt(long id) {
        reserveAt(id, "spawnAt");
    }

    /**
     * Reserves exactly the given id, reviving its slot with the id's generation. The slot must not be alive or
     * reserved, and the id's generation must not be older than the free slot's (an id of an entity that is gone);
     * slots skipped past the high-water mark become free. Errors name {@code operation}.
     *
     * @throws IllegalArgumentException like {@link #checkReservable}; nothing changes then
     */
    public void reserveAt(long id, String operation) {
        settle();
        if (!Entity.isWellFormed(id)) {
            throw new IllegalArgumentException(operation + ": id=" + id + " is not an entity id (slot must be 1.."
                    + Entity.MAX_ENTITIES + ")");
        }
        int slot = Entity.slot(id);
        if (slot > maxEntities) {
            throw new IllegalArgumentException(operation + ": slot=" + slot + " exceeds maxEntities=" + maxEntities);
        }
        if (slot < highWater) {
            byte s = stateAt(slot);
            if (s != FREE) {
                throw new IllegalArgumentException(operation + ": slot=" + slot + " is " + stateName(s)
                        + " (current generation=" + generationOf(slot) + ", requested generation="
                        + Entity.generation(id) + "); it requires a slot that is not in use");
            }
            if (Entity.generation(id) < generationOf(slot)) {
                throw staleGeneration(id, slot, operation);
            }
            removeFromFreeStack(slot);
        } else {
            ensureSlots(slot + 1);
            ensureFree(slot - highWater); // the skipped slots' room first: the loop below allocates nothing
            for (int skipped = highWater; skipped < slot; skipped++) {
                pushFree(skipped);
            }
            highWater = slot + 1;
        }
        setGeneration(slot, Entity.generation(id));
        setState(slot, RESERVED);
        row[slot] = -1;
    }

    /** Publishes a reserved id at an archetype row. */
    public void publish(int slot, int table, int rowIndex) {
        settle();
        assert stateAt(slot) == RESERVED : "slot " + slot + " is " + stateName(stateAt(slot));
        setState(slot, ALIVE);
        setStore(slot, table);
        row[slot] = rowIndex;
        aliveCount++;
    }

    /**
     * Publishes the reserved slots {@code slots[from, to)} at rows {@code firstRow + rows[k]} of one store. The
     * slots ascend strictly (the caller guarantees it; assertions check what is published), so a batch is
     * published in slot order, run by run of consecutive slots with bulk fills, instead of at the slots of its
     * rows one after the other.
     */
    public void publishSlots(int[] slots, int[] rows, int from, int to, int store, int firstRow) {
        settle();
        if (from < 0 || to < from || to > slots.length || to > rows.length) {
            throw new IllegalArgumentException("slots [" + from + ", " + to + ") outside " + slots.length
                    + " slots and " + rows.length + " rows");
        }
        for (int i = from; i < to; ) {
            int end = runEnd(slots, i, to);
            int first = slots[i];
            int last = first + end - i;
            assert allReserved(first, last) : "slots " + first + ".." + (last - 1) + " are not all reserved";
            long bits = ALIVE_BITS | ((long) store << STORE_SHIFT);
            long[] m = meta;
            int[] r = row;
            for (int k = i, slot = first; k < end; k++, slot++) { // one pass: the slot word and the row together
                m[slot] = (m[slot] & GENERATION_MASK) | bits;
                r[slot] = firstRow + rows[k];
            }
            i = end;
        }
        aliveCount += to - from;
    }

    /** Records a new location for an alive slot (after a move or a swap-remove). */
    public void relocate(int slot, int table, int rowIndex) {
        setStore(slot, table);
        row[slot] = rowIndex;
    }

    /**
     * The storage block an alive slot's row lives in. Blocks belong to archetypes and can change hands (a
     * whole-archetype move exchanges blocks), so entities follow their block without being relocated one by one.
     */
    public int storeOf(int slot) {
        return (int) (meta[slot] >>> STORE_SHIFT);
    }

    /**
     * The store of a published entity, or -1 when the id is not alive (malformed, out of range, stale, reserved,
     * free or retired): a liveness check and {@link #storeOf} in one load.
     */
    public int aliveStore(long id) {
        int slot = Entity.slot(id);
        if (id <= 0 || slot < 0 || slot >= highWater) { // slot 0 is never alive; a negative one is malformed
            return -1;
        }
        long m = meta[slot];
        return (m & (STATE_MASK | GENERATION_MASK)) == (ALIVE_BITS | Entity.generation(id))
                ? (int) (m >>> STORE_SHIFT) : -1;
    }

    /**
     * Whether {@code id} is published in {@code store}, as {@code aliveStore(id) == store} answers for a store of 0
     * or more (false for a negative one): one compare of the slot's word, for loops over many ids
     * ({@link #aliveRunEnd}; {@link #freeInReverseOrderIfAliveIn} makes the same compare as it frees).
     */
    public boolean isAliveIn(long id, int store) {
        int slot = Entity.slot(id);
        // a positive id's generation fits the word's 31 bits; slot 0 and those past highWater never hold a live
        // entity, and a negative slot is malformed
        return id > 0 && store >= 0 && Integer.compareUnsigned(slot, highWater) < 0
                && meta[slot] == (ALIVE_BITS | ((long) store << STORE_SHIFT) | (id >>> 32));
    }

    /**
     * The end of the run of published entities in {@code store} that starts at {@code ids[from]}: the first
     * {@code i} in {@code [from, to)} whose id is not alive or lives in another store, or {@code to}. One compare of
     * each slot's word with what it holds when alive in {@code store} ({@link #isAliveIn}: a check of a long run, such
     * as the members of a subtree, in one tight loop). Reads only.
     */
    public int aliveRunEnd(long[] ids, int from, int to, int store) {
        int i = from;
        while (i < to && isAliveIn(ids[i], store)) {
            i++;
        }
        return i;
    }

    public int rowOf(int slot) {
        return row[slot];
    }

    public int generationOf(int slot) {
        return slot >= highWater ? 0 : (int) (meta[slot] & GENERATION_MASK); // never used or lazily reserved: 0
    }

    // ---------------------------------------------------------------- the packed slot word

    private static final long GENERATION_MASK = 0x7FFF_FFFFL;
    private static final int STATE_SHIFT = 31;
    private static final long STATE_MASK = 3L << STATE_SHIFT;
    private static final long ALIVE_BITS = (long) ALIVE << STATE_SHIFT;
    private static final long RESERVED_BITS = (long) RESERVED << STATE_SHIFT;
    private static final int STORE_SHIFT = 33;

    private byte stateAt(int slot) {
        return (byte) ((meta[slot] & STATE_MASK) >>> STATE_SHIFT);
    }

    private void setGeneration(int slot, int generation) {
        meta[slot] = (meta[slot] & ~GENERATION_MASK) | generation;
    }

    private void setState(int slot, byte slotState) {
        meta[slot] = (meta[slot] & ~STATE_MASK) | ((long) slotState << STATE_SHIFT);
    }

    private void setStore(int slot, int store) {
        assert store >= 0 : "store " + store;
        meta[slot] = (meta[slot] & ~(-1L << STORE_SHIFT)) | ((long) store << STORE_SHIFT);
    }

    private void fillState(int from, int to, byte slotState) {
        long bits = (long) slotState << STATE_SHIFT;
        long[] m = meta;
        for (int slot = from; slot < to; slot++) {
            m[slot] = (m[slot] & ~STATE_MASK) | bits;
        }
    }

    /** Slots {@code [from, to)} become alive in {@code store}, keeping their generations. */
    private void fillAlive(int from, int to, int store) {
        long bits = ALIVE_BITS | ((long) store << STORE_SHIFT);
        long[] m = meta;
        for (int slot = from; slot < to; slot++) {
            m[slot] = (m[slot] & GENERATION_MASK) | bits;
        }
    }

    /** Slots {@code [from, to)} get one state and generation; their store is forgotten (it is 0). */
    private void fillStateAndGeneration(int from, int to, byte slotState, int generation) {
        Arrays.fill(meta, from, to, ((long) slotState << STATE_SHIFT) | generation);
    }

    /**
     * Slots {@code [to, to + n)} become reserved with the generations {@code generations[from, from + n)}, off the
     * free stack, stamped for {@code archetype}: one pass writing each slot's word and stamp.
     */
    private void reserveRun(int[] generations, int from, int to, int n, int archetype) {
        long[] m = meta;
        int[] r = row;
        for (int k = 0; k < n; k++) {
            m[to + k] = RESERVED_BITS | generations[from + k];
            r[to + k] = archetype;
        }
    }

    /**
     * Frees the alive slots of {@code ids[0, n)} (a whole-archetype despawn), in one pass. They are pushed last
     * to first, so the next allocations take them in their original order (a batch that reuses them gets
     * consecutive ids when they were consecutive).
     */
    public void freeAll(long[] ids, int n) {
        freeInOrder(ids, n, true);
    }

    /**
     * Frees the alive slots of the distinct ids {@code ids[0, n)} in that order, exactly as {@code n} calls of
     * {@link #free} would (the last one ends on top of the free stack), in one pass with one write of each slot's
     * word. Room on the free stack is made first: a failed growth changes nothing.
     */
    public void freeInOrder(long[] ids, int n) {
        freeInOrder(ids, n, false);
    }

    /**
     * {@link #freeInOrder} of {@code ids[0, n)} in the reverse order, from {@code ids[n - 1]} down to
     * {@code ids[0]} (the first one ends on top of the free stack).
     */
    public void freeInReverseOrder(long[] ids, int n) {
        freeInOrder(ids, n, true);
    }

    private void freeInOrder(long[] ids, int n, boolean reverse) {
        ensureFree(n);
        int top = freeCount; // in a local: a push is then no read and write of the field, which the next one waits for
        positionsFrom = Math.min(positionsFrom, top); // the pushes below leave their positions unwritten
        int freed = 0;
        try { // two loops, each with a constant step, which the compiler unrolls and checks the range of once
            if (reverse) {
                for (int i = n - 1; i >= 0; i--, freed++) {
                    top = freeAlive(Entity.slot(ids[i]), top);
                }
            } else {
                for (int i = 0; i < n; i++, freed++) {
                    top = freeAlive(Entity.slot(ids[i]), top);
                }
            }
        } finally { // also should an id be out of range: the count and the stack stay in step with the slots freed
            freeCount = top;
            aliveCount -= freed;
        }
    }

    /**
     * {@link #freeInReverseOrder} of {@code ids[0, n)} if every one of them is alive in {@code store}, checked in the
     * same pass: each slot's word is read once, to compare it and to free it. Returns {@code false} when one is not
     * (another store, not alive, malformed, or an id met twice), having put back the words of those it had freed: the
     * index is then as before the call, free stack included. Room on the free stack is made first: a failed growth
     * changes nothing. Like the other frees of many slots it writes no positions on the stack, so {@link #rowOf} of a
     * slot it freed still answers the row the entity had, until that slot is handed out again or a reservation at a
     * chosen id writes the positions ({@link #reserveAt}): a subtree's despawn removes the rows right after the free.
     */
    public boolean freeInReverseOrderIfAliveIn(long[] ids, int n, int store) {
        if (store < 0) {
            return false;
        }
        ensureFree(n);
        int top = freeCount;
        int i = n - 1;
        while (i >= 0 && isAliveIn(ids[i], store)) { // the compare loads the word that freeAlive then writes
            top = freeAlive(Entity.slot(ids[i]), top);
            i--;
        }
        if (i >= 0) { // ids[i] is not alive in store: the ones after it were freed, each alive in store before
            long alive = ALIVE_BITS | ((long) store << STORE_SHIFT);
            for (int j = i + 1; j < n; j++) {
                meta[Entity.slot(ids[j])] = alive | Entity.generation(ids[j]);
            }
            return false; // the pushes past freeCount are not on the stack
        }
        positionsFrom = Math.min(positionsFrom, freeCount); // the pushes above leave their positions unwritten
        freeCount = top;
        aliveCount -= n;
        return true;
    }

    /**
     * Frees an alive slot whose free stack has room, pushing it at {@code top} (unless its generation is spent: it
     * retires); returns the new top. Writes the slot's word once, and not its position on the stack (see
     * {@code positionsFrom}).
     */
    private int freeAlive(int slot, int top) {
        long[] m = meta;
        long word = m[slot];
        assert (word & STATE_MASK) == ALIVE_BITS : "slot " + slot + " is " + stateName(stateAt(slot));
        int g = (int) (word & GENERATION_MASK);
        if (g == Entity.MAX_GENERATION) {
            m[slot] = (word & ~STATE_MASK) | ((long) RETIRED << STATE_SHIFT);
            return top;
        }
        m[slot] = (word & ~(STATE_MASK | GENERATION_MASK)) | ((long) FREE << STATE_SHIFT) | (g + 1);
        freeStack[top] = slot;
        return top + 1;
    }

    /** Records that the entities {@code ids[0, n)} now occupy consecutive rows of one store. */
    public void relocateRange(long[] ids, int n, int store, int firstRow) {
        for (int i = 0; i < n; i++) {
            int slot = Entity.slot(ids[i]);
            setStore(slot, store);
            row[slot] = firstRow + i;
        }
    }

    /** Frees an alive or reserved slot: its generation grows, so every handle to it goes stale. */
    public void free(int slot) {
        settle();
        byte s = stateAt(slot);
        assert s == ALIVE || s == RESERVED : "slot " + slot + " is " + stateName(s);
        boolean retires = generationOf(slot) == Entity.MAX_GENERATION;
        if (!retires) {
            ensureFree(1); // before the slot changes: a failed growth leaves it as it was
        }
        if (s == ALIVE) {
            aliveCount--;
        }
        if (retires) {
            setState(slot, RETIRED);
            return;
        }
        setGeneration(slot, generationOf(slot) + 1);
        pushFree(slot); // (which marks it free)
    }

    /**
     * Makes room for the next {@code count} {@link #allocate} calls, so they grow nothing: recycled slots are
     * handed out first, and the slots past {@link #highWater()} the rest will take get their entries now.
     *
     * @throws IllegalArgumentException when {@code count} is negative or more than the world can still hand out
     *     (nothing changes)
     */
    public void reserveSlots(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("reserve: count=" + count + " must not be negative");
        }
        long fresh = Math.max(0, (long) count - freeCount);
        long left = (long) maxEntities + 1 - highWater - tail;
        if (fresh > left) {
            throw new IllegalArgumentException("reserve: " + count + " more entities do not fit: " + freeCount
                    + " recycled and " + left + " new slots are left of maxEntities=" + maxEntities);
        }
        ensureSlots((int) (highWater + tail + fresh));
    }

    /**
     * Makes room on the free stack for {@code n} more slots, so freeing that many allocates nothing (a caller
     * whose observers hear of a despawn before the ids are freed grows it first).
     */
    public void reserveFree(int n) {
        ensureFree(n);
    }

    /**
     * Makes the free stack hold every slot ever handed out, so that a {@link #clear} allocates nothing once it has
     * begun; a caller that empties the world's tables first calls this before them.
     */
    public void reserveForClear() {
        settle();
        if (highWater > freeStack.length) {
            freeStack = Growth.copyOf(freeStack, highWater);
        }
    }

    /** Room on the free stack for {@code n} more slots. */
    private void ensureFree(int n) {
        if (freeCount + n > freeStack.length) {
            freeStack = Growth.copyOf(freeStack, Math.max(freeCount + n, freeStack.length * 2));
        }
    }

    /** Puts a slot on the free stack, marked free; the caller made room first (each caller grows before any change). */
    private void pushFree(int slot) {
        row[slot] = freeCount;
        freeStack[freeCount++] = slot;
        setState(slot, FREE);
    }

    private void removeFromFreeStack(int slot) {
        writePositions();
        int pos = row[slot];
        assert pos >= 0 && freeStack[pos] == slot : "slot " + slot + " not on free stack";
        int last = freeStack[--freeCount];
        freeStack[pos] = last;
        row[last] = pos;
        row[slot] = -1;
    }

    /**
     * Writes the free stack's positions that bulk frees left out into their slots' row entries. Each position
     * written here was pushed since the last call, so the work is at most one write per push.
     */
    private void writePositions() {
        int[] stack = freeStack;
        int[] r = row;
        for (int p = positionsFrom; p < freeCount; p++) {
            r[stack[p]] = p;
        }
        positionsFrom = Integer.MAX_VALUE;
    }

    private void ensureSlots(int needed) {
        if (needed <= meta.length) {
            return;
        }
        // the entities the slots hold double, slot 0 aside: a population of a power of two entities then fits a
        // capacity the doubling reaches, where doubling the slots left it one slot short and copied the whole index
        // again for that slot (16,384 entities: 1,024 to 16,384 slots, then 32,768, or 16,386 in a world of at most
        // 16,385)
        int doubled = (int) Math.min((long) maxEntities + 1, Math.max(needed, 2L * (meta.length - 1) + 1));
        // fitted to the heap's regions (Growth.fitted), never past the last slot there can be
        int capacity = Math.min(maxEntities + 1, Growth.fitted(meta.length, doubled, needed, Long.BYTES));
        // both first, then assign: a failed growth leaves the arrays as they were, of one length
        long[] grownMeta = Growth.copyOf(meta, capacity);
        int[] grownRow = Growth.copyOf(row, capacity);
        meta = grownMeta;
        row = grownRow;
    }

    // ---------------------------------------------------------------- snapshots

    /** The state of a slot below {@link #highWater()} ({@link #FREE} for slot 0 and slots past it). */
    public byte slotState(int slot) {
        if (slot >= highWater) {
            return slot < highWater + tail ? RESERVED : FREE;
        }
        return slot <= 0 ? FREE : stateAt(slot);
    }

    /** The number of slots on the free stack. */
    public int freeCount() {
        return freeCount;
    }

    /** The free stack, bottom first (the last one is the next slot {@link #allocate} reuses); a fresh copy. */
    public int[] freeStack() {
        return Arrays.copyOf(freeStack, freeCount);
    }

    /**
     * Lays out the index for a restoration (a snapshot load), once the old rows have left storage: whatever state
     * a slot was in (alive, reserved, free or retired), slots {@code [1, highWater)} that are neither free nor
     * restored become retired, the free slots get their saved generations and stack order (bottom first), and the
     * slots to be restored sit on top of the stack in ascending order (the last one on top), so reserving them
     * ({@link #reserveRestored}, or {@link #reserveAt} one by one) leaves the saved order below untouched. Slots
     * from {@code highWater} on are fresh again (generation 0); nothing is alive afterwards. This is what
     * {@link #clear()} followed by laying the slots out would leave, in one pass over the slots: every slot below
     * the old and the new high-water mark is rewritten, so what clearing would have done to it is overwritten.
     *
     * <p>The caller has checked that the slots are distinct, in {@code [1, highWater)}, free and restored slots
     * disjoint, and {@code highWater <= maxEntities + 1}. Growth comes first: a failed allocation changes nothing.
     *
     * @param restoredSlots ascending
     * @throws IllegalArgumentException when {@code restoredSlots} is not ascending inside {@code [1, highWater)}
     *     (nothing changes then)
     */
    public void prepareRestore(int newHighWater, int[] freeSlots, int[] freeGenerations, int[] restoredSlots) {
        settle();
        layOutRestore(newHighWater, freeSlots, freeGenerations, restoredSlots, restoredSlots.length, null, 0);
    }

    /**
     * {@link #prepareRestore} and then {@link #reserveRestored reserveRestored(restoredSlots, restoredGenerations,
     * archetype)} in the same single pass over the slots: it leaves exactly what the two leave one after the other
     * (the restored slots reserved with their saved generations, stamped for {@code archetype}, off the stack; the
     * free slots on it as saved), without first putting the restored slots on the stack and then taking them off
     * again, so a load of a large world writes each of the index's arrays once rather than twice. Nothing can run
     * between the two here, so the reservation cannot meet a changed stack.
     *
     * @param restoredSlots ascending in {@code [0, restoredCount)}; what follows is not read
     * @param restoredGenerations the generation of each restored slot's id, in the same order, none negative
     * @param restoredCount how many restored slots the two arrays hold
     * @throws IllegalArgumentException when {@code restoredSlots} is not ascending inside {@code [1, highWater)},
     *     or a generation is negative or missing (nothing changes then)
     */
    public void prepareRestoreReserved(int newHighWater, int[] freeSlots, int[] freeGenerations, int[] restoredSlots,
            int[] restoredGenerations, int restoredCount, int archetype) {
        settle();
        if (restoredCount < 0 || restoredCount > restoredSlots.length || restoredCount > restoredGenerations.length) {
            throw new IllegalArgumentException("prepareRestoreReserved: " + restoredCount + " restored slots but "
                    + restoredSlots.length + " slots and " + restoredGenerations.length + " generations");
        }
        for (int i = 0; i < restoredCount; i++) {
            if (restoredGenerations[i] < 0) {
                throw new IllegalArgumentException("prepareRestoreReserved: generation " + restoredGenerations[i]
                        + " is negative");
            }
        }
        layOutRestore(newHighWater, freeSlots, freeGenerations, restoredSlots, restoredCount, restoredGenerations,
                archetype);
    }

    /** The pass of both: {@code restoredGenerations} null lays the restored slots out free, on top of the stack. */
    private void layOutRestore(int newHighWater, int[] freeSlots, int[] freeGenerations, int[] restoredSlots,
            int restoredCount, int[] restoredGenerations, int archetype) {
        int previous = 0;
        for (int i = 0; i < restoredCount; i++) { // checked before anything changes: the layout pass relies on it
            int slot = restoredSlots[i];
            if (slot <= previous || slot >= newHighWater) {
                throw new IllegalArgumentException("prepareRestore: restored slots must ascend inside 1.."
                        + (newHighWater - 1) + " (" + slot + " after " + previous + ")");
            }
            previous = slot;
        }
        int top = Math.max(highWater, newHighWater);
        boolean reserve = restoredGenerations != null;
        int needed = freeSlots.length + (reserve ? 0 : restoredCount);
        ensureSlots(top);
        if (freeStack.length < needed) {
            freeStack = Growth.copyOf(new int[0], Math.max(needed, 64)); // nothing on it is kept
        }
        // one pass in slot order, run by run: retired or fresh slots between the runs of restored slots, which go
        // on the stack above the saved free slots
        int base = freeSlots.length;
        int slot = 1;
        for (int r = 0; ; ) {
            int next = r < restoredCount ? restoredSlots[r] : top;
            int retiredEnd = Math.min(next, newHighWater);
            if (slot < retiredEnd) {
                layOut(slot, retiredEnd, RETIRED, Entity.MAX_GENERATION);
            }
            if (Math.max(slot, newHighWater) < next) {
                layOut(Math.max(slot, newHighWater), next, FREE, 0);
            }
            if (r == restoredCount) {
                break;
            }
            int end = runEnd(restoredSlots, r, restoredCount);
            int n = end - r;
            if (reserve) { // what reserveRestored leaves: reserved, saved generation, off the stack, stamped
                reserveRun(restoredGenerations, r, next, n, archetype);
            } else {
                fillStateAndGeneration(next, next + n, FREE, 0);
                for (int k = 0; k < n; k++) {
                    row[next + k] = base + r + k; // their stack positions
                }
                System.arraycopy(restoredSlots, r, freeStack, base + r, n);
            }
            slot = next + n;
            r = end;
        }
        for (int i = 0; i < base; i++) {
            int free = freeSlots[i];
            setGeneration(free, freeGenerations[i]);
            setState(free, FREE);
            row[free] = i;
            freeStack[i] = free;
        }
        highWater = newHighWater;
        freeCount = needed;
        positionsFrom = Integer.MAX_VALUE; // every position on the stack was written above
        aliveCount = 0;
    }

    /**
     * Reserves, in slot order, the restored slots {@link #prepareRestore} put on top of the free stack, each
     * with its saved generation, stamped for {@code archetype} (or, for {@code -1}, for none yet: the caller
     * stamps each with {@link #stampBatch}). It leaves exactly what {@link #reserveAt} of each of their ids
     * would. When the stack no longer holds exactly those slots on top (a callback allocated or freed a slot
     * since the layout) or a slot's generation has moved past the saved one, it reserves nothing and returns
     * {@code false}: the caller then reserves id by id with {@link #reserveAt}, which names the conflict.
     *
     * @param slots the restored slots, ascending, as given to {@link #prepareRestore}
     * @param generations the generation of each restored slot's id, in the same order
     */
    public boolean reserveRestored(int[] slots, int[] generations, int archetype) {
        settle();
        int n = slots.length;
        int base = freeCount - n;
        if (generations.length != n || base < 0 || !Arrays.equals(freeStack, base, freeCount, slots, 0, n)) {
            return false;
        }
        for (int i = 0; i < n; ) {
            int end = runEnd(slots, i, n);
            for (int k = i, slot = slots[i]; k < end; k++, slot++) {
                if (generations[k] < generationOf(slot)) { // on the stack, so free: only a stale id is refused
                    return false;
                }
            }
            i = end;
        }
        for (int i = 0; i < n; ) {
            int end = runEnd(slots, i, n);
            reserveRun(generations, i, slots[i], end - i, archetype);
            i = end;
        }
        freeCount = base;
        return true;
    }

    /**
     * Lays slots {@code [from, to)} out in one state and generation, off the stack. Their row entries are left as
     * they are: a retired or never-used slot's entry means nothing, and whatever hands such a slot out writes it.
     */
    private void layOut(int from, int to, byte slotState, int slotGeneration) {
        fillStateAndGeneration(from, to, slotState, slotGeneration);
    }

    /**
     * The end of the run of consecutive slots that starts at {@code slots[from]}, not past {@code to}:
     * {@code slots[from, end)} are {@code slots[from] + 0, 1, 2, ...}. The slots ascend strictly, so
     * {@code slots[k] - k} never falls and the run is where it stays equal: found by galloping, in time logarithmic
     * in the run's length, so a snapshot of a whole world (one run) is laid out with a few bulk fills and copies
     * whatever order its rows name the slots in.
     */
    static int runEnd(int[] slots, int from, int to) {
        int n = to;
        int key = slots[from] - from;
        int known = from; // slots[known] - known == key
        int step = 1;
        while (known + step < n && slots[known + step] - (known + step) == key) {
            known += step;
            step <<= 1;
        }
        int hi = Math.min(n, known + step); // the first index past the run lies in (known, hi]
        while (known + 1 < hi) {
            int mid = (known + hi) >>> 1;
            if (slots[mid] - mid == key) {
                known = mid;
            } else {
                hi = mid;
            }
        }
        return known + 1;
    }

    public static String stateName(byte s) {
        return switch (s) {
            case FREE -> "free";
            case RESERVED -> "reserved (staged spawn)";
            case ALIVE -> "alive";
            case RETIRED -> "retired";
            default -> "unknown(" + s + ")";
        };
    }
}
