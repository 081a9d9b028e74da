/**
 * Native bindings: code that hands column segments to native libraries (LWJGL uploads of dirty columns,
 * renderers). The only place where restricted FFM calls are allowed. Filled by the rendering issues.
 */
package dev.jtecs.nativebindings;
