/** Native consumers of jtecs columns (LWJGL and friends). The only module that makes restricted FFM calls. */
module dev.jtecs.nativebindings {
    requires dev.jtecs.core;
}
