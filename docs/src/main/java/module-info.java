/** The jtecs guides; their examples are compiled and run as this module's tests. */
module dev.jtecs.docs {
    requires dev.jtecs.core;
    requires dev.jtecs.nativebindings; // docs/rendering.md
}
