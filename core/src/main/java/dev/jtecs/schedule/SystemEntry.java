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
    }

    @Override
    public String toString() {
        return name;
    }
}
