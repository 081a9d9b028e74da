/**
 * Native consumers of jtecs columns: the dirty-driven upload of columns into OpenGL buffers and a point viewer
 * (LWJGL: GLFW and OpenGL). The only module that makes restricted native calls: run it with
 * {@code --enable-native-access=dev.jtecs.nativebindings,org.lwjgl} on the module path, or
 * {@code --enable-native-access=ALL-UNNAMED} on the class path.
 */
module dev.jtecs.nativebindings {
    requires transitive dev.jtecs.core;
    requires org.lwjgl;
    requires org.lwjgl.glfw;
    requires org.lwjgl.opengl;
    requires java.desktop; // ImageIO writes the screenshots

    exports dev.jtecs.nativebindings;
}
