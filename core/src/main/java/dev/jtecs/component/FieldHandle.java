package dev.jtecs.component;

/** A typed handle on one native column: the component and the field index inside it. */
public sealed interface FieldHandle permits ByteField, BooleanField, ShortField, CharField, IntField, FloatField, LongField, DoubleField {
    /** The native component, or the {@link TargetSelector} of a native payload relationship. */
    Component<?> component();

    int field();

    /** The field's name. */
    default String name() {
        return component().layout().fieldNames().get(field());
    }

    static void check(Component<?> component, int field, PrimitiveKind expected) {
        ComponentLayout layout = component.layout();
        if (field < 0 || field >= layout.nativeColumnCount()) { // also: no native layout at all
            throw new IllegalArgumentException("field=" + field + " outside 0.." + (layout.nativeColumnCount() - 1)
                    + " of component " + component.name());
        }
        PrimitiveKind actual = layout.fieldKinds().get(field);
        if (actual != expected) {
            throw new IllegalArgumentException("field " + layout.fieldNames().get(field) + " of component "
                    + component.name() + " is " + actual + ", not " + expected);
        }
    }
}
