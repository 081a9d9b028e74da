/**
 * How component values cross between Java objects and columns: record codecs built once per class from method
 * handles. Internal to the core module.
 */
package dev.jtecs.component.internal;
