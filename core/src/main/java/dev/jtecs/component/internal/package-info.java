/**
 * How component values cross between Java objects and columns: record codecs built once per class from method
 * handles; and between Java objects and snapshot trees: the automatic snapshot codec ({@link
 * dev.jtecs.component.internal.TreeCodec}). Internal to the core module.
 */
package dev.jtecs.component.internal;
