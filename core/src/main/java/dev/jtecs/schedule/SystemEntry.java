package dev.jtecs.schedule;

import java.util.List;

/**
 * A registered system. Schedules hold these objects, so enabling, disabling or removing one reaches a schedule
 * a running dispatch captured earlier.
 */
final class SystemEntry {
    final String name;
    final Phase phase;
    final int phaseId;
    SystemBody body; // replaceable in place (Scheduler.replaceSystemBody): the entry keeps its slot and edges
    final RunIf runIf;
    final List<String> before;
    final List<String> after;
    final boolean commitBefore;
    final boolean commitAfter;
    final ParallelBody parallel; // null for a system that runs on the world's thread
    final dev.jtecs.query.Query query;
    final dev.jtecs.component.Component<?>[] reads;
    final dev.jtecs.component.Component<?>[] writes;
    boolean enabled = true;
    boolean removed;

    SystemEntry(String name, int phaseId, SystemConfig config) {
        this.name = name;
        this.phase = config.phase();
        this.phaseId = phaseId;
        this.body = config.body();
        this.runIf = config.runIf();
        this.before = config.before();
        this.after = config.after();
        this.commitBefore = config.commitsBefore();
        this.commitAfter = config.commitsAfter();
        this.parallel = config.parallelBody();
        this.query = config.query();
        this.reads = config.reads().toArray(new dev.jtecs.component.Component<?>[0]);
        this.writes = config.writes().toArray(new dev.jtecs.component.Component<?>[0]);
    }

    /**
     * Whether two parallel systems may not run at once: one writes a component the other reads or writes.
     */
    boolean conflictsWith(SystemEntry other) {
        return touches(writes, other.reads) || touches(writes, other.writes) || touches(other.writes, reads);
    }

    private static boolean touches(dev.jtecs.component.Component<?>[] a, dev.jtecs.component.Component<?>[] b) {
        for (dev.jtecs.component.Component<?> x : a) {
            for (dev.jtecs.component.Component<?> y : b) {
                if (x == y) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return name;
    }
}
