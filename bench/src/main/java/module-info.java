/** JMH benchmarks and the jtecs command line (the main jobs: particles, ...). */
module dev.jtecs.bench {
    requires dev.jtecs.core;
    requires dev.jtecs.kernels;
    requires jmh.core;
    requires info.picocli;
    requires me.tongfei.progressbar;

    exports dev.jtecs.bench.particles;
    opens dev.jtecs.bench.cli to info.picocli;
}
