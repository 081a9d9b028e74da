/**
 * Components every world understands: {@link dev.jtecs.builtin.EntityKey} (unique, indexed entity names) and
 * {@link dev.jtecs.builtin.Name} (free-form labels). Later issues add transforms, lifetimes, relationships and
 * state tags here.
 */
package dev.jtecs.builtin;
