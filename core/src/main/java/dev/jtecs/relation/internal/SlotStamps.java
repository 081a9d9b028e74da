package dev.jtecs.relation.internal;

import dev.jtecs.entity.internal.Growth;

/**
 * Per-slot marks that a new round forgets in O(1), without clearing: each slot holds the round that last marked it,
 * and counts as marked only during that round. A walk marks the slots it visited (one round per walk); a settlement
 * the targets it noted (one round per settlement). The stamps are cleared only when the round counter wraps, once in
 * 2^31 - 2 rounds.
 */
final class SlotStamps {
    private int[] stamps = new int[64];
    /** The current round; 0 is the stamp of a slot never marked. Package-private so tests can bring the wrap near. */
    int round = 1;

    /** Starts a new round: every slot counts as unmarked again. */
    void nextRound() {
        if (++round == Integer.MAX_VALUE) {
            java.util.Arrays.fill(stamps, 0);
            round = 1;
        }
    }

    /** Makes room to mark slots up to {@code highestSlot}; a failed growth changes nothing. */
    void reserve(int highestSlot) {
        if (highestSlot >= stamps.length) {
            stamps = Growth.copyOf(stamps, Growth.nextCapacity(stamps.length, highestSlot + 1, Integer.BYTES));
        }
    }

    /** Marks {@code slot} in this round, growing the stamps to reach it; returns whether it was unmarked. */
    boolean mark(int slot) {
        reserve(slot);
        if (stamps[slot] == round) {
            return false;
        }
        stamps[slot] = round;
        return true;
    }
}
