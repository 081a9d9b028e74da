/** A game on the module path: it requires the jtecs modules it uses, and opens nothing to them. */
module com.example.game {
    requires dev.jtecs.core;
    requires dev.jtecs.kernels;
}
