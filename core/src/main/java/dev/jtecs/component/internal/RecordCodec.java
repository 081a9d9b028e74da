package dev.jtecs.component.internal;

import dev.jtecs.component.PrimitiveKind;
import java.lang.invoke.CallSite;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;

/**
 * Reads and constructs records field by field, for records whose components are all primitive.
 *
 * <p>One codec per record class, cached in a {@link ClassValue}. Getters are adapted to {@code (Object)prim} so
 * values cross without boxing; construction spreads an {@code Object[]} (boxing is accepted there: building a
 * record is an allocation anyway).
 */
public final class RecordCodec {
    private static final ClassValue<RecordCodec> CACHE = new ClassValue<>() {
        @Override
        protected RecordCodec computeValue(Class<?> type) {
            return new RecordCodec(type, true);
        }
    };

    private final Class<?> type;
    private final String[] names;
    private final PrimitiveKind[] kinds;
    private final MethodHandle[] getters;
    private final Getter[] fastGetters;
    private final boolean spun;
    private final MethodHandle constructor;

    /**
     * The codec of {@code type}; {@code spin} false takes the method-handle getters even where spun ones could be
     * made, as a record without full-privilege access gets them (tests: {@link #unspun}).
     */
    private RecordCodec(Class<?> type, boolean spin) {
        if (!type.isRecord()) {
            throw new IllegalArgumentException(type.getName() + " is not a record");
        }
        this.type = type;
        RecordComponent[] parts = type.getRecordComponents();
        names = new String[parts.length];
        kinds = new PrimitiveKind[parts.length];
        getters = new MethodHandle[parts.length];
        Class<?>[] paramTypes = new Class<?>[parts.length];
        try {
            for (int i = 0; i < parts.length; i++) {
                names[i] = parts[i].getName();
                kinds[i] = PrimitiveKind.of(parts[i].getType());
                if (kinds[i] == null) {
                    throw new IllegalArgumentException("record " + type.getName() + " component " + names[i]
                            + " has type " + parts[i].getType().getName() + "; native components need primitives");
                }
                paramTypes[i] = parts[i].getType();
            }
            checkConstructorSlots(type, paramTypes, "record");
            for (int i = 0; i < parts.length; i++) {
                getters[i] = TypeAccess.accessor(parts[i])
                        .asType(MethodType.methodType(parts[i].getType(), Object.class));
            }
            constructor = TypeAccess.constructor(type, paramTypes)
                    .asType(MethodType.methodType(Object.class, paramTypes))
                    .asSpreader(Object[].class, parts.length);
        } catch (ReflectiveOperationException | RuntimeException e) {
            if (e instanceof IllegalArgumentException iae) {
                throw iae;
            }
            throw new IllegalArgumentException("cannot access record " + type.getName() + " ("
                    + TypeAccess.remedy() + "): " + e, e);
        }
        Getter[] spunGetters = spin ? spinGetters(type, parts) : null;
        spun = spunGetters != null;
        fastGetters = spun ? spunGetters : wrapGetters();
    }

    /**
     * The getter of field {@code field} as a method handle adapted to {@code (Object)prim}: what the storage
     * layer spins its one-class-per-record writers from.
     */
    public MethodHandle getterHandle(int field) {
        return getters[field];
    }

    /** Whether the getters are spun classes (fast) rather than method-handle wrappers. */
    public boolean isSpun() {
        return spun;
    }

    /**
     * Spins one small class per record component with {@link LambdaMetafactory}, so reading a field is an
     * interface call on a class that calls the accessor directly. Needs full-privilege access to the record
     * (always on the class path; in a named module a lookup it handed over, or its package open to this module)
     * and, as the spun classes live in the record's module and implement {@link Getter}, that module to read
     * {@code dev.jtecs.core} (it does when it requires it); returns {@code null} when that is not available.
     */
    private Getter[] spinGetters(Class<?> type, RecordComponent[] parts) {
        try {
            MethodHandles.Lookup lookup = TypeAccess.fullPrivilege(type);
            if (lookup == null) {
                return null;
            }
            // The spun classes implement Getter from the record's module: export its package there (a no-op
            // when both are on the class path), or the JVM refuses them as implementing an inaccessible interface.
            Getter.class.getModule().addExports(Getter.class.getPackageName(), type.getModule());
            Getter[] spunGetters = new Getter[parts.length];
            for (int i = 0; i < parts.length; i++) {
                Class<?> getterType = getterInterface(kinds[i]);
                MethodHandle accessor = lookup.unreflect(parts[i].getAccessor());
                CallSite site = LambdaMetafactory.metafactory(lookup, "get", MethodType.methodType(getterType),
                        MethodType.methodType(parts[i].getType(), Object.class), accessor,
                        MethodType.methodType(parts[i].getType(), type));
                spunGetters[i] = (Getter) site.getTarget().invoke();
            }
            return spunGetters;
        } catch (Throwable t) {
            return null;
        }
    }

    private Getter[] wrapGetters() {
        Getter[] wrapped = new Getter[getters.length];
        for (int i = 0; i < getters.length; i++) {
            MethodHandle mh = getters[i];
            wrapped[i] = switch (kinds[i]) {
                case BYTE -> (Getter.ByteGetter) r -> invoke(() -> (byte) mh.invokeExact(r));
                case BOOLEAN -> (Getter.BooleanGetter) r -> invoke(() -> (boolean) mh.invokeExact(r));
                case SHORT -> (Getter.ShortGetter) r -> invoke(() -> (short) mh.invokeExact(r));
                case CHAR -> (Getter.CharGetter) r -> invoke(() -> (char) mh.invokeExact(r));
                case INT -> (Getter.IntGetter) r -> invoke(() -> (int) mh.invokeExact(r));
                case FLOAT -> (Getter.FloatGetter) r -> invoke(() -> (float) mh.invokeExact(r));
                case LONG -> (Getter.LongGetter) r -> invoke(() -> (long) mh.invokeExact(r));
                case DOUBLE -> (Getter.DoubleGetter) r -> invoke(() -> (double) mh.invokeExact(r));
            };
        }
        return wrapped;
    }

    @FunctionalInterface
    private interface Call<T> {
        T call() throws Throwable;
    }

    private static <T> T invoke(Call<T> call) {
        try {
            return call.call();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static Class<?> getterInterface(PrimitiveKind kind) {
        return switch (kind) {
            case BYTE -> Getter.ByteGetter.class;
            case BOOLEAN -> Getter.BooleanGetter.class;
            case SHORT -> Getter.ShortGetter.class;
            case CHAR -> Getter.CharGetter.class;
            case INT -> Getter.IntGetter.class;
            case FLOAT -> Getter.FloatGetter.class;
            case LONG -> Getter.LongGetter.class;
            case DOUBLE -> Getter.DoubleGetter.class;
        };
    }

    /** The codec of a record class whose components are all primitive. */
    public static RecordCodec of(Class<?> type) {
        return CACHE.get(type);
    }

    /** A new codec with method-handle getters (not cached): the path of a record jtecs cannot spin getters for. */
    static RecordCodec unspun(Class<?> type) {
        return new RecordCodec(type, false);
    }

    /**
     * The most parameter slots a record's canonical constructor may take for jtecs to reach it (a {@code long} or
     * {@code double} component takes two slots, any other one). jtecs constructs records through method handles,
     * and the JVM builds no handle to a constructor of more: its invocation needs two slots beside the parameters,
     * out of the 255 a method may have. The JVM itself accepts records of up to 254 slots.
     */
    public static final int MAX_CONSTRUCTOR_SLOTS = 253;

    /** The parameter slots of a method taking {@code types}: two for each {@code long} and {@code double}. */
    public static int slots(Class<?>[] types) {
        int slots = 0;
        for (Class<?> t : types) {
            slots += t == long.class || t == double.class ? 2 : 1;
        }
        return slots;
    }

    /**
     * Refuses, before any method handle is built, a record whose canonical constructor (of {@code types}) takes
     * more than {@link #MAX_CONSTRUCTOR_SLOTS} slots, with a message naming the record, its size and the limit.
     *
     * @throws IllegalArgumentException for such a record; {@code use} says what it was meant for
     */
    public static void checkConstructorSlots(Class<?> type, Class<?>[] types, String use) {
        int slots = slots(types);
        if (slots > MAX_CONSTRUCTOR_SLOTS) {
            throw new IllegalArgumentException(use + " " + type.getName() + " has " + types.length
                    + " components taking " + slots + " parameter slots (a long or double takes two); jtecs "
                    + "constructs records through method handles, which reach constructors of at most "
                    + MAX_CONSTRUCTOR_SLOTS + " slots: split the record into smaller ones");
        }
    }

    /** Whether a class is a record whose components are all primitive. */
    public static boolean isPrimitiveRecord(Class<?> type) {
        if (!type.isRecord()) {
            return false;
        }
        for (RecordComponent part : type.getRecordComponents()) {
            if (!part.getType().isPrimitive()) {
                return false;
            }
        }
        return true;
    }

    public Class<?> type() {
        return type;
    }

    public int fieldCount() {
        return kinds.length;
    }

    public String[] names() {
        return names.clone();
    }

    public PrimitiveKind[] kinds() {
        return kinds.clone();
    }

    public PrimitiveKind kind(int field) {
        return kinds[field];
    }

    public byte getByte(Object record, int field) {
        return ((Getter.ByteGetter) fastGetters[field]).get(record);
    }

    public boolean getBoolean(Object record, int field) {
        return ((Getter.BooleanGetter) fastGetters[field]).get(record);
    }

    public short getShort(Object record, int field) {
        return ((Getter.ShortGetter) fastGetters[field]).get(record);
    }

    public char getChar(Object record, int field) {
        return ((Getter.CharGetter) fastGetters[field]).get(record);
    }

    public int getInt(Object record, int field) {
        return ((Getter.IntGetter) fastGetters[field]).get(record);
    }

    public float getFloat(Object record, int field) {
        return ((Getter.FloatGetter) fastGetters[field]).get(record);
    }

    public long getLong(Object record, int field) {
        return ((Getter.LongGetter) fastGetters[field]).get(record);
    }

    public double getDouble(Object record, int field) {
        return ((Getter.DoubleGetter) fastGetters[field]).get(record);
    }

    /** Builds a record from boxed field values in declaration order. */
    public Object construct(Object[] fieldValues) {
        if (fieldValues.length != kinds.length) {
            throw new IllegalArgumentException("record " + type.getName() + " has " + kinds.length
                    + " fields, got " + fieldValues.length + ": " + Arrays.toString(fieldValues));
        }
        try {
            return (Object) constructor.invokeExact(fieldValues);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException re) {
            throw re;
        }
        if (t instanceof Error err) {
            throw err;
        }
        throw new IllegalStateException(t);
    }
}
