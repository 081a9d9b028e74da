package dev.jtecs.nativebindings;

import dev.jtecs.component.FieldHandle;
import dev.jtecs.component.PrimitiveKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How a {@link PointRenderer} draws one entity: a point at ({@code x}, {@code y}) in world units, coloured by a
 * value taken from a component: {@code colour}, or {@code colour / colourDivisor} when a divisor is given (a
 * lifetime fraction, say), mapped from {@code [colourMin, colourMax]} onto a dark-red to pale-yellow ramp. The
 * view shows the world rectangle centred on ({@code centreX}, {@code centreY}) that is {@code 2 * halfWidth} by
 * {@code 2 * halfHeight} units.
 *
 * @param colourDivisor {@code null} for none
 * @param pointSize pixels, 1 to 64
 */
public record PointStyle(FieldHandle x, FieldHandle y, FieldHandle colour, FieldHandle colourDivisor,
        float colourMin, float colourMax, float centreX, float centreY, float halfWidth, float halfHeight,
        float pointSize) {
    /** @throws IllegalArgumentException for a non-numeric field, an empty colour range, or a degenerate view */
    public PointStyle {
        Objects.requireNonNull(x, "x");
        Objects.requireNonNull(y, "y");
        Objects.requireNonNull(colour, "colour");
        for (FieldHandle field : new FieldHandle[] {x, y, colour, colourDivisor}) {
            if (field != null && !drawable(kind(field))) {
                throw new IllegalArgumentException("field " + field.name() + " of " + field.component().name()
                        + " is " + kind(field) + "; points are drawn from byte, short, int, float or double columns");
            }
        }
        if (!(colourMax > colourMin) || !Float.isFinite(colourMin) || !Float.isFinite(colourMax)) {
            throw new IllegalArgumentException("colourMin=" + colourMin + " colourMax=" + colourMax
                    + ": need finite values with colourMin < colourMax");
        }
        if (!(halfWidth > 0) || !(halfHeight > 0) || !Float.isFinite(halfWidth) || !Float.isFinite(halfHeight)
                || !Float.isFinite(centreX) || !Float.isFinite(centreY)) {
            throw new IllegalArgumentException("centreX=" + centreX + " centreY=" + centreY + " halfWidth=" + halfWidth
                    + " halfHeight=" + halfHeight + ": the view needs a finite centre and positive half sizes");
        }
        if (!(pointSize >= 1 && pointSize <= 64)) {
            throw new IllegalArgumentException("pointSize=" + pointSize + " outside 1..64");
        }
    }

    /** The fields to upload for this style, each once, in attribute order: x, y, colour, then the divisor. */
    public List<FieldHandle> fields() {
        List<FieldHandle> fields = new ArrayList<>(List.of(x, y, colour));
        if (colourDivisor != null) {
            fields.add(colourDivisor);
        }
        return List.copyOf(new java.util.LinkedHashSet<>(fields));
    }

    static PrimitiveKind kind(FieldHandle field) {
        return field.component().layout().fieldKinds().get(field.field());
    }

    private static boolean drawable(PrimitiveKind kind) {
        return switch (kind) {
            case BYTE, SHORT, INT, FLOAT, DOUBLE -> true;
            case BOOLEAN, CHAR, LONG -> false;
        };
    }
}
