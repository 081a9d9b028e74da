/** JMH benchmarks and the jtecs command line (the main jobs: particles, stress, ...). */
module dev.jtecs.bench {
    requires dev.jtecs.core;
    requires dev.jtecs.kernels;
    requires dev.jtecs.stress;
    requires jmh.core;
    requires info.picocli;
    requires me.tongfei.progressbar;
    requires dev.dominion.ecs.api;
    requires artemis.odb;
    requires ashley;

    exports dev.jtecs.bench.particles;
    exports dev.jtecs.bench.peers;
    opens dev.jtecs.bench.cli to info.picocli;
}
