package dev.jtecs.component;

/**
 * What hands out column handles by field name: a native component, or the selector of one target of a native
 * payload relationship. Each handle checks that the field has the type its method names.
 */
public sealed interface FieldSource permits NativeComponent, TargetSelector {
    /** The component the handles select columns of. */
    Component<?> fieldOwner();

    /**
     * The index of a field, in declaration order.
     *
     * @throws IllegalArgumentException when there is no such field, or it has no handle
     */
    int fieldIndex(String field);

    /** The handle of a byte field. */
    default ByteField byteField(String field) {
        return new ByteField(fieldOwner(), fieldIndex(field));
    }

    /** The handle of a boolean field. */
    default BooleanField booleanField(String field) {
        return new BooleanField(fieldOwner(), fieldIndex(field));
    }

    /** The handle of a short field. */
    default ShortField shortField(String field) {
        return new ShortField(fieldOwner(), fieldIndex(field));
    }

    /** The handle of a char field. */
    default CharField charField(String field) {
        return new CharField(fieldOwner(), fieldIndex(field));
    }

    /** The handle of a int field. */
    default IntField intField(String field) {
        return new IntField(fieldOwner(), fieldIndex(field));
    }

    /** The handle of a float field. */
    default FloatField floatField(String field) {
        return new FloatField(fieldOwner(), fieldIndex(field));
    }

    /** The handle of a long field. */
    default LongField longField(String field) {
        return new LongField(fieldOwner(), fieldIndex(field));
    }

    /** The handle of a double field. */
    default DoubleField doubleField(String field) {
        return new DoubleField(fieldOwner(), fieldIndex(field));
    }
}
