package dev.jtecs.mutation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.entity.Entity;
import org.junit.jupiter.api.Test;

class BatchIdsTest {
    @Test
    void contiguousIdsAreComputedFromTheFirst() {
        BatchIds ids = new BatchIds(Entity.pack(10, 0), 3, null);
        assertTrue(ids.isContiguous());
        assertEquals(3, ids.count());
        assertEquals(Entity.pack(12, 0), ids.get(2));
        assertArrayEquals(new long[] {Entity.pack(10, 0), Entity.pack(11, 0), Entity.pack(12, 0)}, ids.toArray());
        IndexOutOfBoundsException past = assertThrows(IndexOutOfBoundsException.class, () -> ids.get(3));
        assertEquals("index 3 outside 0..2", past.getMessage(), "the message names the valid range");
        assertThrows(IndexOutOfBoundsException.class, () -> ids.get(-1));
        assertTrue(ids.toString().contains("3 from"));
    }

    @Test
    void explicitIdsAreCopiedOut() {
        long[] raw = {Entity.pack(4, 1), Entity.pack(2, 0)};
        BatchIds ids = new BatchIds(0, 2, raw);
        assertFalse(ids.isContiguous());
        assertEquals(raw[0], ids.first());
        assertEquals(raw[1], ids.get(1));
        long[] copy = ids.toArray();
        assertArrayEquals(raw, copy);
        assertNotSame(raw, copy);
        copy[0] = 99;
        assertEquals(raw[0], ids.get(0), "the returned array is the caller's");
    }
}
