package dev.jtecs.kernels;

import dev.jtecs.builtin.TTL;
import dev.jtecs.component.FloatField;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Kernels that drive float fields from how much of an entity's {@link TTL} lifetime is spent: a colour that fades,
 * a size that shrinks. Each reads {@code TTL.startingTime} and {@code TTL.remaining}, takes the row's
 * {@link TTL#percentComplete()} as {@code t}, and writes every target field as the linear interpolation from its
 * start value (at {@code t = 0}, a fresh lifetime) to its end value (at {@code t = 1}, spent); see
 * {@link ScalarLifetimeLerpOps} for the arithmetic, which gives exactly the end values at both ends.
 *
 * <p>The targets are any {@link FloatField}s, of any components (a {@code Colour}'s {@code r, g, b, a}, a
 * {@code Sprite}'s {@code size}). The kernels are unconditional ({@link WritePolicy#ALWAYS}): on every archetype
 * with rows the runner marks the targets' components, and never {@code TTL}, which is only read. The query must
 * include {@code TTL.COMPONENT} and the targets' components. The start and end values are copied when the kernel is
 * made and must be finite.
 *
 * <p>Each factory takes the {@link LifetimeLerpOps} to run; the overloads without it use
 * {@link KernelProvider#lifetimeLerps()}.
 */
public final class OverLifetime {
    private OverLifetime() {}

    /**
     * Writes {@code targets.get(c)} as the interpolation from {@code from[c]} to {@code to[c]} over the lifetime.
     *
     * @throws IllegalArgumentException when {@code targets} is empty, the three lengths differ, a value is not
     *     finite, or a target repeats
     * @throws NullPointerException when an argument or a target is null
     */
    public static ColumnKernel lerp(LifetimeLerpOps ops, List<FloatField> targets, float[] from, float[] to) {
        Objects.requireNonNull(ops, "ops");
        List<FloatField> written = List.copyOf(Objects.requireNonNull(targets, "targets")); // and null entries
        float[] start = Objects.requireNonNull(from, "from").clone();
        float[] end = Objects.requireNonNull(to, "to").clone();
        if (written.isEmpty() || start.length != written.size() || end.length != written.size()) {
            throw new IllegalArgumentException("lerp needs one start and one end value per target: targets="
                    + written.size() + " from.length=" + start.length + " to.length=" + end.length);
        }
        for (int c = 0; c < start.length; c++) {
            if (!Float.isFinite(start[c]) || !Float.isFinite(end[c])) {
                throw new IllegalArgumentException("target " + written.get(c).name() + " of "
                        + written.get(c).component().name() + ": from=" + start[c] + " to=" + end[c]
                        + " must both be finite");
            }
        }
        KernelColumns columns = KernelColumns.of(written, List.of(TTL.STARTING_TIME, TTL.REMAINING),
                WritePolicy.ALWAYS);
        StringBuilder name = new StringBuilder("lerpOverLifetime[");
        for (int c = 0; c < start.length; c++) {
            name.append(c == 0 ? "" : ", ").append(written.get(c).name()).append(' ').append(start[c]).append("->")
                    .append(end[c]);
        }
        return new NamedKernel(columns, name.append(']').toString(), ops.mode()) {
            @Override
            public boolean run(MemorySegment[] s, int count, float dt) {
                ops.lerp(s, start, end, count); // the runner's order is lerp's: targets, then the two TTL columns
                return true;
            }
        };
    }

    /** {@link #lerp(LifetimeLerpOps, List, float[], float[])} with the provider's ops. */
    public static ColumnKernel lerp(List<FloatField> targets, float[] from, float[] to) {
        return lerp(KernelProvider.lifetimeLerps(), targets, from, to);
    }

    /**
     * Fades an RGBA colour from {@code fromRgba} (fresh) to {@code toRgba} (spent), each {@code {r, g, b, a}}.
     *
     * @throws IllegalArgumentException when a colour does not have four finite values, or a field repeats
     */
    public static ColumnKernel colour(LifetimeLerpOps ops, FloatField r, FloatField g, FloatField b, FloatField a,
            float[] fromRgba, float[] toRgba) {
        Objects.requireNonNull(fromRgba, "fromRgba");
        Objects.requireNonNull(toRgba, "toRgba");
        if (fromRgba.length != 4 || toRgba.length != 4) {
            throw new IllegalArgumentException("colours are {r, g, b, a}: fromRgba.length=" + fromRgba.length
                    + " toRgba.length=" + toRgba.length);
        }
        List<FloatField> channels = new ArrayList<>(4); // List.of would name a null field less clearly
        channels.add(Objects.requireNonNull(r, "r"));
        channels.add(Objects.requireNonNull(g, "g"));
        channels.add(Objects.requireNonNull(b, "b"));
        channels.add(Objects.requireNonNull(a, "a"));
        return lerp(ops, channels, fromRgba, toRgba);
    }

    /**
     * {@link #colour(LifetimeLerpOps, FloatField, FloatField, FloatField, FloatField, float[], float[])} with the
     * provider's ops.
     */
    public static ColumnKernel colour(FloatField r, FloatField g, FloatField b, FloatField a, float[] fromRgba,
            float[] toRgba) {
        return colour(KernelProvider.lifetimeLerps(), r, g, b, a, fromRgba, toRgba);
    }

    /**
     * Grows or shrinks one size field from {@code from} (fresh) to {@code to} (spent).
     *
     * @throws IllegalArgumentException when a value is not finite
     */
    public static ColumnKernel size(LifetimeLerpOps ops, FloatField size, float from, float to) {
        return lerp(ops, List.of(Objects.requireNonNull(size, "size")), new float[] {from}, new float[] {to});
    }

    /** {@link #size(LifetimeLerpOps, FloatField, float, float)} with the provider's ops. */
    public static ColumnKernel size(FloatField size, float from, float to) {
        return size(KernelProvider.lifetimeLerps(), size, from, to);
    }
}
