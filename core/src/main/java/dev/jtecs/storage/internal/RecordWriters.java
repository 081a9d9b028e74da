package dev.jtecs.storage.internal;

import static java.lang.constant.ConstantDescs.CD_MethodHandle;
import static java.lang.constant.ConstantDescs.CD_byte;
import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_long;
import static java.lang.constant.ConstantDescs.CD_short;
import static java.lang.constant.ConstantDescs.CD_void;

import dev.jtecs.component.PrimitiveKind;
import dev.jtecs.component.internal.RecordCodec;
import java.lang.classfile.ClassFile;
import java.lang.classfile.TypeKind;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.DynamicConstantDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.AccessFlag;
import java.util.List;

/**
 * Spins a {@link RecordWriter} per record type: a hidden class whose {@code write} loads each field's getter as a
 * constant (class data) and stores the value through its column's segment, whose {@code writeAt} stores it at its
 * column's address with a {@link RawRows} store (the caller has checked the row), and whose {@code stage} stores
 * the same bits into a heap array per field; {@code bits} reads the fields' bits into one long each, which
 * {@code writeBitsAt} and {@code stageBits} store as {@code writeAt} and {@code stage} store the record's. The getters
 * are the codec's own method handles, already adapted to {@code (Object)prim}, so the spun class needs no access to
 * the record and works on the class path and the module path alike. The JIT inlines constant method handles, so a
 * write is the accessor calls and the stores, behind one interface dispatch per record. Every accessor is called
 * before the first store: an accessor that throws leaves the row untouched.
 */
final class RecordWriters {
    private RecordWriters() {}

    // the stores of a spun write, one per width, each through the column's own segment (its bounds, liveness and
    // alignment checked); a field comes as its bits, as writeAt stores them (a float's raw bits, a boolean as 0 or 1)

    static void storeByte(MemorySegment column, long row, byte bits) {
        column.setAtIndex(ValueLayout.JAVA_BYTE, row, bits);
    }

    static void storeShort(MemorySegment column, long row, short bits) {
        column.setAtIndex(ValueLayout.JAVA_SHORT, row, bits);
    }

    static void storeInt(MemorySegment column, long row, int bits) {
        column.setAtIndex(ValueLayout.JAVA_INT, row, bits);
    }

    static void storeLong(MemorySegment column, long row, long bits) {
        column.setAtIndex(ValueLayout.JAVA_LONG, row, bits);
    }

    /** The writer of each record class, or none (a {@code null} holder) when it could not be spun. */
    private static final ClassValue<RecordWriter[]> CACHE = new ClassValue<>() {
        @Override
        protected RecordWriter[] computeValue(Class<?> type) {
            return new RecordWriter[] {spinFor(RecordCodec.of(type))};
        }
    };

    /**
     * Spins a new writer of a codec's record type (what the cache holds for it), or returns {@code null} when it
     * cannot be spun: the record is then written field by field.
     */
    static RecordWriter spinFor(RecordCodec codec) {
        PrimitiveKind[] kinds = new PrimitiveKind[codec.fieldCount()];
        MethodHandle[] getters = new MethodHandle[kinds.length];
        for (int f = 0; f < kinds.length; f++) {
            kinds[f] = codec.kind(f);
            getters[f] = codec.getterHandle(f);
        }
        try {
            return spin(kinds, getters);
        } catch (Throwable t) {
            return null;
        }
    }

    /** The spun writer of a codec's record type, or {@code null} when it could not be spun. */
    static RecordWriter of(RecordCodec codec) {
        return CACHE.get(codec.type())[0];
    }

    private static final ClassDesc CD_SEGMENT = ClassDesc.of(MemorySegment.class.getName());
    private static final ClassDesc CD_WRITER = ClassDesc.of(RecordWriter.class.getName());
    private static final ClassDesc CD_RAW_ROWS = ClassDesc.of(RawRows.class.getName());
    private static final ClassDesc CD_SELF = ClassDesc.of(RecordWriters.class.getName());
    private static final MethodTypeDesc WRITE = MethodTypeDesc.of(CD_void, CD_Object, CD_SEGMENT.arrayType(),
            CD_int, CD_long);
    private static final MethodTypeDesc WRITE_AT = MethodTypeDesc.of(CD_void, CD_Object, CD_long.arrayType(), CD_int,
            CD_long);
    private static final MethodTypeDesc STAGE = MethodTypeDesc.of(CD_void, CD_Object, CD_Object.arrayType(), CD_int);
    private static final MethodTypeDesc BITS = MethodTypeDesc.of(CD_void, CD_Object, CD_long.arrayType());
    private static final MethodTypeDesc WRITE_BITS_AT = MethodTypeDesc.of(CD_void, CD_long.arrayType(),
            CD_long.arrayType(), CD_int, CD_long);
    private static final MethodTypeDesc STAGE_BITS = MethodTypeDesc.of(CD_void, CD_long.arrayType(),
            CD_Object.arrayType(), CD_int);

    /** A writer for fields of {@code kinds} read by {@code getters} ({@code (Object)prim} each). */
    static RecordWriter spin(PrimitiveKind[] kinds, MethodHandle[] getters) throws Throwable {
        ClassDesc self = ClassDesc.of(RecordWriters.class.getPackageName() + ".SpunRecordWriter");
        byte[] bytes = ClassFile.of().build(self, cb -> {
            cb.withFlags(AccessFlag.FINAL, AccessFlag.SUPER, AccessFlag.SYNTHETIC);
            cb.withInterfaceSymbols(CD_WRITER);
            cb.withMethodBody(ConstantDescs.INIT_NAME, ConstantDescs.MTD_void, ClassFile.ACC_PUBLIC, code -> code
                    .aload(0)
                    .invokespecial(ConstantDescs.CD_Object, ConstantDescs.INIT_NAME, ConstantDescs.MTD_void)
                    .return_());
            cb.withMethodBody("write", WRITE, ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL, code -> {
                // slots: 0 this, 1 record, 2 columns, 3 base, 4-5 row, then one local per field. Every accessor
                // runs before the first store, so one that throws leaves the row as it was (no torn value).
                int[] slots = readFields(code, kinds, 6);
                for (int f = 0; f < kinds.length; f++) {
                    Spec spec = Spec.of(kinds[f]);
                    code.aload(2).iload(3);
                    if (f > 0) {
                        code.loadConstant(f).iadd();
                    }
                    code.aaload(); // the column
                    code.lload(4);
                    code.loadLocal(TypeKind.from(spec.value), slots[f]);
                    toBits(code, kinds[f]);
                    if (kinds[f] == PrimitiveKind.CHAR) {
                        code.i2s();
                    }
                    code.invokestatic(CD_SELF, spec.store, MethodTypeDesc.of(CD_void, CD_SEGMENT, CD_long,
                            spec.bits));
                }
                code.return_();
            });
            cb.withMethodBody("writeAt", WRITE_AT, ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL, code -> {
                // slots: 0 this, 1 record, 2 addresses, 3 base, 4-5 row, then one local per field; accessors first
                int[] slots = readFields(code, kinds, 6);
                for (int f = 0; f < kinds.length; f++) {
                    Spec spec = Spec.of(kinds[f]);
                    loadFieldAddress(code, f, kinds[f]);
                    code.loadLocal(TypeKind.from(spec.value), slots[f]);
                    toBits(code, kinds[f]); // the bits a column of the field's width holds (a boolean is 0 or 1)
                    if (kinds[f] == PrimitiveKind.CHAR) {
                        code.i2s();
                    }
                    code.invokestatic(CD_RAW_ROWS, spec.storeAt, MethodTypeDesc.of(CD_void, CD_long, spec.bits));
                }
                code.return_();
            });
            cb.withMethodBody("stage", STAGE, ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL, code -> {
                // slots: 0 this, 1 record, 2 arrays, 3 at, then one local per field; accessors first, as in write
                int[] slots = readFields(code, kinds, 4);
                for (int f = 0; f < kinds.length; f++) {
                    Spec spec = Spec.of(kinds[f]);
                    code.aload(2).loadConstant(f).aaload();
                    code.checkcast(spec.array);
                    code.iload(3);
                    code.loadLocal(TypeKind.from(spec.value), slots[f]);
                    toBits(code, kinds[f]);
                    switch (kinds[f].byteSize()) {
                        case 1 -> code.bastore();
                        case 2 -> code.sastore();
                        case 4 -> code.iastore();
                        default -> code.lastore();
                    }
                }
                code.return_();
            });
            cb.withMethodBody("bits", BITS, ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL, code -> {
                // slots: 0 this, 1 record, 2 out, then one local per field; accessors first, as in write
                int[] slots = readFields(code, kinds, 3);
                for (int f = 0; f < kinds.length; f++) {
                    Spec spec = Spec.of(kinds[f]);
                    code.aload(2).loadConstant(f);
                    code.loadLocal(TypeKind.from(spec.value), slots[f]);
                    toBits(code, kinds[f]);
                    if (kinds[f].byteSize() < 8) {
                        code.i2l();
                    }
                    code.lastore();
                }
                code.return_();
            });
            cb.withMethodBody("writeBitsAt", WRITE_BITS_AT, ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL, code -> {
                // slots: 0 this, 1 bits, 2 addresses, 3 base, 4-5 row
                for (int f = 0; f < kinds.length; f++) {
                    Spec spec = Spec.of(kinds[f]);
                    loadFieldAddress(code, f, kinds[f]);
                    code.aload(1).loadConstant(f).laload(); // the field's bits
                    switch (kinds[f].byteSize()) {
                        case 1 -> code.l2i().i2b();
                        case 2 -> code.l2i().i2s();
                        case 4 -> code.l2i();
                        default -> { }
                    }
                    code.invokestatic(CD_RAW_ROWS, spec.storeAt, MethodTypeDesc.of(CD_void, CD_long, spec.bits));
                }
                code.return_();
            });
            cb.withMethodBody("stageBits", STAGE_BITS, ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL, code -> {
                // slots: 0 this, 1 bits, 2 arrays, 3 at
                for (int f = 0; f < kinds.length; f++) {
                    code.aload(2).loadConstant(f).aaload();
                    code.checkcast(Spec.of(kinds[f]).array);
                    code.iload(3);
                    code.aload(1).loadConstant(f).laload(); // the field's bits
                    switch (kinds[f].byteSize()) {
                        case 1 -> code.l2i().bastore();
                        case 2 -> code.l2i().sastore();
                        case 4 -> code.l2i().iastore();
                        default -> code.lastore();
                    }
                }
                code.return_();
            });
        });
        MethodHandles.Lookup lookup = MethodHandles.lookup()
                .defineHiddenClassWithClassData(bytes, List.of(getters), true);
        return (RecordWriter) lookup.findConstructor(lookup.lookupClass(),
                java.lang.invoke.MethodType.methodType(void.class)).invoke();
    }

    /**
     * Pushes the address of field {@code f}'s element in the row, for a method whose slot 2 holds the addresses,
     * slot 3 the base and slots 4-5 the row: {@code addresses[base + f] + row * size}.
     */
    private static void loadFieldAddress(java.lang.classfile.CodeBuilder code, int f, PrimitiveKind kind) {
        code.aload(2).iload(3);
        if (f > 0) {
            code.loadConstant(f).iadd();
        }
        code.laload(); // the column's address
        code.lload(4);
        code.loadConstant((long) kind.byteSize()).lmul().ladd();
    }

    /** Turns the float or double on the stack into its raw bits (an int, a long); other kinds are their bits. */
    private static void toBits(java.lang.classfile.CodeBuilder code, PrimitiveKind kind) {
        if (kind == PrimitiveKind.FLOAT) {
            code.invokestatic(ConstantDescs.CD_Float, "floatToRawIntBits", MethodTypeDesc.of(CD_int,
                    ConstantDescs.CD_float));
        } else if (kind == PrimitiveKind.DOUBLE) {
            code.invokestatic(ConstantDescs.CD_Double, "doubleToRawLongBits", MethodTypeDesc.of(CD_long,
                    ConstantDescs.CD_double));
        }
    }

    /**
     * Calls every field's getter (class data {@code f}) on the record in slot 1 and keeps the value in a local, the
     * first at {@code firstSlot}; returns each field's slot.
     */
    private static int[] readFields(java.lang.classfile.CodeBuilder code, PrimitiveKind[] kinds, int firstSlot) {
        int[] slots = new int[kinds.length];
        int next = firstSlot;
        for (int f = 0; f < kinds.length; f++) {
            Spec spec = Spec.of(kinds[f]);
            TypeKind kind = TypeKind.from(spec.value);
            code.ldc(DynamicConstantDesc.ofNamed(ConstantDescs.BSM_CLASS_DATA_AT,
                    ConstantDescs.DEFAULT_NAME, CD_MethodHandle, f));
            code.aload(1);
            code.invokevirtual(CD_MethodHandle, "invokeExact", MethodTypeDesc.of(spec.value, CD_Object));
            slots[f] = next;
            code.storeLocal(kind, next);
            next += kind.slotSize();
        }
        return slots;
    }

    /**
     * How a primitive kind is stored: the store of its width through a column segment (here) and the
     * {@link RawRows} store at an address, both taking the bits type, the value's descriptor, and the heap array
     * that holds its bits when staged.
     */
    private record Spec(String store, String storeAt, ClassDesc bits, ClassDesc value, ClassDesc array) {
        static Spec of(PrimitiveKind kind) {
            ClassDesc bytes = CD_byte.arrayType();
            ClassDesc shorts = CD_short.arrayType();
            ClassDesc ints = CD_int.arrayType();
            ClassDesc longs = CD_long.arrayType();
            return switch (kind) {
                case BYTE -> new Spec("storeByte", "storeByteAt", CD_byte, CD_byte, bytes);
                case BOOLEAN -> new Spec("storeByte", "storeByteAt", CD_byte, ConstantDescs.CD_boolean, bytes);
                case SHORT -> new Spec("storeShort", "storeShortAt", CD_short, CD_short, shorts);
                case CHAR -> new Spec("storeShort", "storeShortAt", CD_short, ConstantDescs.CD_char, shorts);
                case INT -> new Spec("storeInt", "storeIntAt", CD_int, CD_int, ints);
                case FLOAT -> new Spec("storeInt", "storeIntAt", CD_int, ConstantDescs.CD_float, ints);
                case LONG -> new Spec("storeLong", "storeLongAt", CD_long, CD_long, longs);
                case DOUBLE -> new Spec("storeLong", "storeLongAt", CD_long, ConstantDescs.CD_double, longs);
            };
        }
    }
}
