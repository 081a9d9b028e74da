/**
 * The home of the guides in {@code docs/}: one Markdown guide per concept. Every code sample a guide shows lives
 * in this module's test sources and runs in {@code mvn verify}, so the guides cannot drift from the code.
 */
package dev.jtecs.docs;
