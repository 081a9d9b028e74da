package dev.jtecs.bench.cli;

import java.io.Console;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Objects;
import java.util.function.LongSupplier;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * The progress of a long command on standard error, drawn to suit where that goes. On a terminal it redraws in
 * place: a progress bar for the frame jobs, a status line for {@code stress}. Anywhere else (a CI log, a file, a
 * pipe) redrawing would pile up carriage returns on one endless line, so it prints a plain, complete line every
 * {@link #LOG_INTERVAL_NANOS} instead, and nothing at all for a run shorter than that.
 *
 * <p>Whether standard error is a terminal: the {@value #TERMINAL_PROPERTY} system property when set (the
 * {@code jtecs} launcher sets it from {@code [ -t 2 ]}, the one check that looks at standard error itself);
 * otherwise whether the JVM has a {@link Console} that {@link Console#isTerminal() is a terminal}.
 *
 * <p>Not thread-safe: one command's thread steps it.
 */
final class ProgressReporter implements AutoCloseable {
    /** The system property that says whether standard error is a terminal ({@code true} or {@code false}). */
    static final String TERMINAL_PROPERTY = "jtecs.stderrTerminal";
    /** How often a plain line is printed when standard error is not a terminal. */
    static final long LOG_INTERVAL_NANOS = 5_000_000_000L;
    /** How often the status line is redrawn on a terminal. */
    static final long TERMINAL_INTERVAL_NANOS = 1_000_000_000L;

    /** Where progress goes. */
    enum Mode {
        /** Nowhere ({@code --no-progress}). */
        NONE,
        /** Redrawn in place on a terminal. */
        TERMINAL,
        /** A plain line every few seconds. */
        LOG
    }

    private final Mode mode;
    private final PrintStream err;
    private final LongSupplier clock;
    private final Status status;
    private final ProgressBar bar;
    private final long start;
    private long lastPrinted;
    private boolean redrawn;
    private long steps;

    /** What a progress line says, from the units done and the time since the start. */
    @FunctionalInterface
    interface Status {
        String line(long steps, long elapsedNanos);
    }

    private ProgressReporter(Mode mode, PrintStream err, LongSupplier clock, Status status, ProgressBar bar) {
        this.mode = Objects.requireNonNull(mode, "mode");
        this.err = Objects.requireNonNull(err, "err");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.status = status;
        this.bar = bar;
        this.start = clock.getAsLong();
        this.lastPrinted = start;
    }

    /** The mode for this JVM's standard error: {@link Mode#NONE} when {@code disabled}. */
    static Mode mode(boolean disabled) {
        if (disabled) {
            return Mode.NONE;
        }
        return stderrIsTerminal(System.getProperty(TERMINAL_PROPERTY), System.console()) ? Mode.TERMINAL : Mode.LOG;
    }

    /** Whether standard error is a terminal, from the launcher's property if it is set, else the console. */
    static boolean stderrIsTerminal(String property, Console console) {
        if (property != null && !property.isBlank()) {
            return Boolean.parseBoolean(property.strip());
        }
        return console != null && console.isTerminal();
    }

    /**
     * Progress over {@code total} frames of {@code task}: on a terminal a progress bar (me.tongfei.progressbar,
     * on the real standard error), in a log a line such as
     * {@code particles: frame 240 of 600 (40%), 5.1 s elapsed, about 7.6 s left}.
     */
    static ProgressReporter forFrames(Mode mode, String task, int total, PrintStream err, LongSupplier clock) {
        if (mode == Mode.TERMINAL) {
            ProgressBar bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(total)
                    .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(200).continuousUpdate().build();
            return new ProgressReporter(mode, err, clock, null, bar);
        }
        return new ProgressReporter(mode, err, clock, (done, elapsed) -> frameLine(task, done, total, elapsed), null);
    }

    /** Progress told by a status line that {@code status} makes: redrawn each second on a terminal. */
    static ProgressReporter forStatus(Mode mode, PrintStream err, LongSupplier clock, Status status) {
        return new ProgressReporter(mode, err, clock, Objects.requireNonNull(status, "status"), null);
    }

    /** The plain line for frame {@code done} of {@code total}, {@code elapsedNanos} in. */
    static String frameLine(String task, long done, int total, long elapsedNanos) {
        double seconds = elapsedNanos / 1e9;
        String left = done > 0 && done < total
                ? String.format(Locale.ROOT, ", about %.1f s left", seconds / done * (total - done)) : "";
        return String.format(Locale.ROOT, "%s: frame %,d of %,d (%d%%), %.1f s elapsed%s", task, done, total,
                total == 0 ? 100 : done * 100 / total, seconds, left);
    }

    /** One unit of work done (a frame, a seed); prints when it is time to. */
    void step() {
        steps++;
        if (bar != null) {
            bar.step();
            return;
        }
        long now = clock.getAsLong();
        switch (mode) {
            case NONE -> { }
            case TERMINAL -> {
                if (now - lastPrinted >= TERMINAL_INTERVAL_NANOS) {
                    lastPrinted = now;
                    redrawn = true;
                    err.print("\r" + status.line(steps, now - start));
                    err.flush();
                }
            }
            case LOG -> {
                if (now - lastPrinted >= LOG_INTERVAL_NANOS) {
                    lastPrinted = now;
                    err.println(status.line(steps, now - start));
                }
            }
        }
    }

    /** Units stepped so far. */
    long steps() {
        return steps;
    }

    /** Ends the bar, or the redrawn line; a log needs nothing more. */
    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        } else if (redrawn) {
            err.println();
            redrawn = false;
        }
    }
}
