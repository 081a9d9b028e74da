package dev.jtecs.component.internal;

import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeModel;
import java.lang.classfile.Instruction;
import java.lang.classfile.MethodModel;
import java.lang.classfile.Opcode;
import java.lang.classfile.instruction.FieldInstruction;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.classfile.instruction.LoadInstruction;
import java.lang.classfile.instruction.ReturnInstruction;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether a record is plain: every accessor only returns its field, and the canonical constructor only stores its
 * parameters, in order, into the fields. These are the forms the compiler generates when the record declares
 * neither (or declares them with nothing else in them), read from the record's class file.
 *
 * <p>Reading a plain record's fields runs no user code, and building one from its field values gives back an equal
 * record and runs no user code either, so the engine may read a plain record's values when a call is made, rather
 * than when its change is published, and build it again from those values when it needs the object: nobody can
 * tell the difference. A record whose class file cannot be read (a class defined at run time without one) counts
 * as not plain, which only means the engine keeps the record object itself until it publishes the change.
 */
public final class RecordShape {
    private static final ClassValue<Boolean> PLAIN = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return read(type);
        }
    };

    private RecordShape() {}

    /** Whether {@code type} is a plain record (see the class comment); false for anything else. */
    public static boolean isPlain(Class<?> type) {
        return PLAIN.get(type);
    }

    /** {@link #isPlain} without the cache: reads the class file every time (the tests ask this). */
    static boolean read(Class<?> type) {
        if (!type.isRecord() || type.isHidden()) {
            return false;
        }
        byte[] bytes;
        try (InputStream in = type.getResourceAsStream(
                type.getName().substring(type.getName().lastIndexOf('.') + 1) + ".class")) {
            if (in == null) {
                return false;
            }
            bytes = in.readAllBytes();
        } catch (IOException | SecurityException e) {
            return false;
        }
        try {
            return isPlain(ClassFile.of().parse(bytes), type.getRecordComponents());
        } catch (RuntimeException e) { // a class file this JDK cannot parse: not plain, the safe answer
            return false;
        }
    }

    /** Whether the class file {@code model} holds a plain record with these components. */
    static boolean isPlain(ClassModel model, RecordComponent[] components) {
        String self = model.thisClass().asInternalName();
        StringBuilder descriptor = new StringBuilder("(");
        for (RecordComponent component : components) {
            String field = component.getType().descriptorString();
            descriptor.append(field);
            MethodModel accessor = method(model, component.getName(), "()" + field);
            if (accessor == null || !returnsField(accessor, self, component.getName(), field)) {
                return false;
            }
        }
        MethodModel constructor = method(model, "<init>", descriptor.append(")V").toString());
        return constructor != null && storesParameters(constructor, self, components);
    }

    private static MethodModel method(ClassModel model, String name, String descriptor) {
        for (MethodModel method : model.methods()) {
            if (method.methodName().equalsString(name) && method.methodType().equalsString(descriptor)) {
                return method;
            }
        }
        return null;
    }

    /** The method's instructions, without labels, line numbers and other pseudo-instructions. */
    private static List<Instruction> instructions(MethodModel method) {
        CodeModel code = method.code().orElse(null);
        List<Instruction> out = new ArrayList<>();
        if (code == null) {
            return null;
        }
        code.forEach(element -> {
            if (element instanceof Instruction instruction) {
                out.add(instruction);
            }
        });
        return out;
    }

    /** {@code aload_0; getfield self.name:field; xreturn}. */
    private static boolean returnsField(MethodModel accessor, String self, String name, String field) {
        List<Instruction> code = instructions(accessor);
        return code != null && code.size() == 3 && isThis(code.get(0))
                && isField(code.get(1), Opcode.GETFIELD, self, name, field)
                && code.get(2) instanceof ReturnInstruction;
    }

    /**
     * {@code aload_0; invokespecial java/lang/Record.<init>()V}, then per component in order {@code aload_0;
     * xload slot; putfield self.name:field}, then {@code return}.
     */
    private static boolean storesParameters(MethodModel constructor, String self, RecordComponent[] components) {
        List<Instruction> code = instructions(constructor);
        if (code == null || code.size() != 3 + 3 * components.length || !isThis(code.get(0))
                || !(code.get(1) instanceof InvokeInstruction init) || init.opcode() != Opcode.INVOKESPECIAL
                || !init.owner().asInternalName().equals("java/lang/Record") || !init.name().equalsString("<init>")
                || !init.type().equalsString("()V")) {
            return false;
        }
        int slot = 1;
        for (int c = 0; c < components.length; c++) {
            Class<?> type = components[c].getType();
            int at = 2 + 3 * c;
            if (!isThis(code.get(at)) || !(code.get(at + 1) instanceof LoadInstruction load) || load.slot() != slot
                    || !isField(code.get(at + 2), Opcode.PUTFIELD, self, components[c].getName(),
                            type.descriptorString())) {
                return false;
            }
            slot += type == long.class || type == double.class ? 2 : 1;
        }
        return code.get(code.size() - 1) instanceof ReturnInstruction ret && ret.opcode() == Opcode.RETURN;
    }

    private static boolean isThis(Instruction instruction) {
        return instruction instanceof LoadInstruction load && load.slot() == 0
                && load.typeKind() == java.lang.classfile.TypeKind.REFERENCE;
    }

    private static boolean isField(Instruction instruction, Opcode opcode, String owner, String name, String type) {
        return instruction instanceof FieldInstruction field && field.opcode() == opcode
                && field.owner().asInternalName().equals(owner) && field.name().equalsString(name)
                && field.type().equalsString(type);
    }
}
