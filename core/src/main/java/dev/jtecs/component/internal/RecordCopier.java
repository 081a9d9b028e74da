package dev.jtecs.component.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;

/**
 * Shallow copies of records: a new outer record of the same class holding the same component references. Used
 * where one constant value is stored for many entities (batch set, batch spawn) so that replacing one entity's
 * record never changes another's, while nested objects stay shared.
 *
 * @implNote One method handle per record class (cached): the canonical constructor with every parameter fed by
 *     its accessor, all reading the same argument.
 */
public final class RecordCopier {
    private static final ClassValue<MethodHandle> COPIERS = new ClassValue<>() {
        @Override
        protected MethodHandle computeValue(Class<?> type) {
            return build(type);
        }
    };

    private RecordCopier() {
    }

    /** A shallow copy of {@code value} when it is a record, else {@code value} itself (shared). */
    public static Object copyOrShare(Object value) {
        if (value == null || !value.getClass().isRecord()) {
            return value;
        }
        try {
            return COPIERS.get(value.getClass()).invoke(value);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("cannot copy record " + value.getClass().getName(), t);
        }
    }

    /**
     * The most components the filtered copier takes: the lambda form of a handle filtering every argument needs
     * four slots beside them. Wider records (up to {@link RecordCodec#MAX_CONSTRUCTOR_SLOTS}) are copied through an
     * argument array instead, their primitives boxed.
     */
    static final int MAX_FILTERED_COMPONENTS = 251;

    private static MethodHandle build(Class<?> type) {
        RecordComponent[] parts = type.getRecordComponents();
        Class<?>[] types = new Class<?>[parts.length];
        for (int i = 0; i < parts.length; i++) {
            types[i] = parts[i].getType();
        }
        RecordCodec.checkConstructorSlots(type, types, "cannot copy record:"); // before any handle is built
        try {
            MethodHandle[] accessors = new MethodHandle[parts.length];
            for (int i = 0; i < parts.length; i++) {
                accessors[i] = TypeAccess.accessor(parts[i]);
            }
            MethodHandle constructor = TypeAccess.constructor(type, types);
            if (parts.length > MAX_FILTERED_COMPONENTS) {
                return wide(constructor, accessors);
            }
            MethodHandle fed = MethodHandles.filterArguments(constructor, 0, accessors);
            MethodHandle copier = MethodHandles.permuteArguments(fed, MethodType.methodType(type, type),
                    new int[parts.length]);
            return copier.asType(MethodType.methodType(Object.class, Object.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalArgumentException("cannot copy record " + type.getName() + " (" + TypeAccess.remedy()
                    + "): " + e, e);
        }
    }

    /** A copier that reads every component into an array and spreads it into the constructor. */
    private static MethodHandle wide(MethodHandle constructor, MethodHandle[] accessors)
            throws ReflectiveOperationException {
        int n = accessors.length;
        MethodHandle spread = constructor.asSpreader(Object[].class, n)
                .asType(MethodType.methodType(Object.class, Object[].class));
        MethodHandle[] getters = new MethodHandle[n];
        for (int i = 0; i < n; i++) {
            getters[i] = accessors[i].asType(MethodType.methodType(Object.class, Object.class));
        }
        MethodHandle copyWide = MethodHandles.lookup().findStatic(RecordCopier.class, "copyWide",
                MethodType.methodType(Object.class, MethodHandle.class, MethodHandle[].class, Object.class));
        return MethodHandles.insertArguments(copyWide, 0, spread, getters);
    }

    private static Object copyWide(MethodHandle spread, MethodHandle[] getters, Object value) throws Throwable {
        Object[] args = new Object[getters.length];
        for (int i = 0; i < args.length; i++) {
            args[i] = (Object) getters[i].invokeExact(value);
        }
        return (Object) spread.invokeExact(args);
    }
}
