package dev.jtecs.component;

import dev.jtecs.component.internal.RecordCodec;
import dev.jtecs.component.internal.TypeAccess;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;

/**
 * A relationship whose edges carry a record: the record declares a {@code long target} component naming the
 * edge's target, beside its payload fields ({@code record Spring(long target, float stiffness)}). Add edges with
 * {@link #of} (or {@link #to} for a payload with every other field zero, {@code false} or {@code null}); reads
 * ({@code get}, {@code getFirstRelationship}, {@code forEachRelationship}, the archetype forms and targeted
 * selectors) return the record.
 *
 * <p>Payload storage follows the record: one with only primitive components is stored natively, one off-heap
 * column per field in the pair's archetype columns (dense) or as the record itself (sparse); any other record is
 * stored as a reference. The target is maintained by the world: {@code set} keeps the signature, the reverse index
 * and the record's {@code target} in agreement, and no column handle reaches the target field.
 *
 * @param <T> the edge record
 */
public final class RelationshipDefinition<T extends Record> extends BaseRelationship<T> {
    private final StorageKind payloadStorage;
    private final ComponentLayout payloadLayout;
    private final int targetField;
    private final MethodHandle targetAccessor;
    private final MethodHandle constructor;
    private final Class<?>[] fieldTypes;
    private final java.util.function.LongFunction<? extends Record> defaults;

    RelationshipDefinition(int id, String name, Class<T> type, RelationshipOptions options) {
        super(id, name, type, options);
        RecordComponent[] parts = type.getRecordComponents();
        int found = -1;
        fieldTypes = new Class<?>[parts.length];
        for (int i = 0; i < parts.length; i++) {
            fieldTypes[i] = parts[i].getType();
            if (parts[i].getName().equals("target") && parts[i].getType() == long.class) {
                found = i;
            }
        }
        if (found < 0) {
            throw new IllegalArgumentException("relationship record " + type.getName()
                    + " has no 'long target' component");
        }
        targetField = found;
        defaults = options.payloadDefaults();
        dev.jtecs.component.internal.RecordCodec.checkConstructorSlots(type, fieldTypes, "relationship record");
        try {
            targetAccessor = TypeAccess.accessor(parts[found]).asType(MethodType.methodType(long.class, Object.class));
            constructor = TypeAccess.constructor(type, fieldTypes).asSpreader(Object[].class, parts.length)
                    .asType(MethodType.methodType(Object.class, Object[].class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalArgumentException("relationship record " + type.getName() + " is not accessible ("
                    + TypeAccess.remedy() + "): " + e, e);
        }
        if (RecordCodec.isPrimitiveRecord(type)) {
            RecordCodec codec = RecordCodec.of(type);
            payloadStorage = StorageKind.NATIVE;
            payloadLayout = new ComponentLayout(List.of(codec.names()), new ArrayList<>(List.of(codec.kinds())), false);
        } else {
            payloadStorage = StorageKind.MANAGED;
            payloadLayout = ComponentLayout.HEAP;
        }
    }

    /** An edge carrying {@code value}, to the entity its {@code target} field names. */
    public RelationshipValue of(T value) {
        java.util.Objects.requireNonNull(value, "value");
        return new RelationshipValue(this, targetOf(value), value);
    }

    /**
     * An edge to {@code target} carrying the default payload: the record the registered
     * {@link RelationshipOptions#defaults defaults} factory builds for {@code target}, called anew for every
     * {@code to}; without a factory, the record whose other fields are zero, {@code false} or {@code null}.
     *
     * @throws IllegalStateException when the factory returns {@code null} or a record naming another target
     */
    public RelationshipValue to(long target) {
        if (defaults == null) {
            return toZeroed(target);
        }
        return new RelationshipValue(this, target, defaultFactory(target));
    }

    /**
     * The default payload of an edge to {@code target} (the reference's {@code defaultFactory}): a fresh record
     * from the registered {@link RelationshipOptions#defaults defaults} factory, or without one the record whose
     * other fields are zero, {@code false} or {@code null}.
     *
     * @throws IllegalStateException when the factory returns {@code null} or a record naming another target
     */
    public T defaultFactory(long target) {
        if (defaults == null) {
            return valueType().cast(toZeroed(target).payload());
        }
        checkTarget(target);
        Record made = defaults.apply(target);
        if (made == null || !valueType().isInstance(made)) {
            throw new IllegalStateException("default factory of relationship " + name() + " returned "
                    + (made == null ? "null" : "a " + made.getClass().getName()) + " for target " + target
                    + "; it must return a " + valueType().getName());
        }
        T value = valueType().cast(made);
        if (targetOf(value) != target) {
            throw new IllegalStateException("default factory of relationship " + name() + " returned an edge to "
                    + targetOf(value) + " when asked for target " + target + "; the record's target must be the one"
                    + " it receives");
        }
        return value;
    }

    /**
     * An edge to {@code target} whose other fields are zero, {@code false} or {@code null}, ignoring any
     * defaults factory: the shape the engine uses where the payload is about to be overwritten or does not
     * matter (snapshot loads, removals by target).
     */
    public RelationshipValue toZeroed(long target) {
        checkTarget(target);
        Object[] args = new Object[fieldTypes.length];
        for (int i = 0; i < args.length; i++) {
            args[i] = ManagedComponent.zeroOf(fieldTypes[i]);
        }
        args[targetField] = target;
        try {
            return new RelationshipValue(this, target, constructor.invokeExact(args));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalArgumentException("cannot construct " + valueType().getName() + ": " + t, t);
        }
    }

    /**
     * One edge payload as a snapshot saves it, as a detached tree: what the custom {@code save} codec returns, or
     * without one the automatic codec's map of record component name to value, the target included ({@code long}
     * values as decimal strings).
     *
     * @throws IllegalArgumentException when a custom codec returns something that is not a detached tree, or
     *     the automatic codec cannot encode the record (then register {@code save} and {@code load})
     */
    public Object snapshotSave(T value) {
        return snapshotEncode(value);
    }

    /**
     * The edge payload a saved tree stands for, read as a snapshot load reads it: the custom {@code load} codec, or
     * the world-aware {@code deserialize} codec given {@code world} (the destination world), or without a custom
     * codec the automatic one ({@code world} unused). The inverse of {@link #snapshotSave}.
     *
     * @throws IllegalArgumentException when {@code saved} is not a value of this relationship, a world-aware codec
     *     receives another world type, or a custom codec returns {@code null} or another type
     */
    public T snapshotLoad(Object saved, Object world) {
        return snapshotDecode(saved, world);
    }

    /** The target an edge record names. */
    public long targetOf(T value) {
        try {
            return (long) targetAccessor.invokeExact((Object) value);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** How payloads are stored: {@link StorageKind#NATIVE} (primitive-only records) or {@link StorageKind#MANAGED}. */
    public StorageKind payloadStorage() {
        return payloadStorage;
    }

    /** The column layout of the payload in a dense pair's archetype columns. */
    public ComponentLayout payloadLayout() {
        return payloadLayout;
    }

    /** The registered defaults factory, or {@code null}. */
    java.util.function.LongFunction<? extends Record> payloadDefaults() {
        return defaults;
    }

    /** The index of the {@code target} component among the record's components. */
    public int targetField() {
        return targetField;
    }

    @Override
    public StorageKind edgeStorage() {
        return payloadStorage;
    }

    @Override
    public ComponentLayout edgeLayout() {
        return payloadLayout;
    }

    @Override
    public Class<? extends Record> payloadType() {
        return valueType();
    }

    @Override
    public T edgeValue(long target, Object payload) {
        return valueType().cast(payload);
    }
}

