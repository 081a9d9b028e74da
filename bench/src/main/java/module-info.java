/**
 * JMH benchmarks and the jtecs command line: the frame jobs (particles, transforms), {@code view}, {@code bench}
 * and {@code stress}.
 */
module dev.jtecs.bench {
    requires dev.jtecs.core;
    requires dev.jtecs.kernels;
    requires dev.jtecs.stress;
    requires dev.jtecs.nativebindings; // jtecs view and the upload benchmark
    requires jmh.core;
    requires info.picocli;
    requires me.tongfei.progressbar;
    requires org.knowm.xchart;
    requires com.fasterxml.jackson.databind;
    requires HdrHistogram; // an automatic module: the jar names none, so its file name does
    requires async.profiler; // the same: jtecs bench --profile reads its native library (AsyncProfilerLibrary)
    requires java.desktop;
    requires java.xml; // jtecs stress --junit-xml
    requires jdk.management;
    requires dev.dominion.ecs.api;
    requires artemis.odb;
    requires ashley;

    exports dev.jtecs.bench.frame;
    exports dev.jtecs.bench.particles;
    exports dev.jtecs.bench.report;
    exports dev.jtecs.bench.transforms;
    exports dev.jtecs.bench.peers;
    exports dev.jtecs.bench.view;
    opens dev.jtecs.bench.cli to info.picocli;
    opens dev.jtecs.bench.report to com.fasterxml.jackson.databind;
}
