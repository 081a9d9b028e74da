/**
 * Storage internals: the table behind each archetype, move plans between tables, and the world's native
 * allocator. Nothing here is exported; the world drives these classes and user code sees {@code Archetype}.
 */
package dev.jtecs.storage.internal;
