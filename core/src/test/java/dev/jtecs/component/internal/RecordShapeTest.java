package dev.jtecs.component.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.classfile.ClassFile;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandles;
import org.junit.jupiter.api.Test;

class RecordShapeTest {
    record All(byte b, boolean z, short s, char c, int i, float f, long l, double d) {}

    record Empty() {}

    /** A compact constructor with nothing in it compiles to the generated form. */
    record Quiet(int x, long y) {
        Quiet {}
    }

    /** An accessor written out that only returns its field compiles to the generated one. */
    record Explicit(int x) {
        @Override
        public int x() {
            return x;
        }
    }

    record Validating(int x) {
        Validating {
            if (x < 0) {
                throw new IllegalArgumentException("negative");
            }
        }
    }

    record Clamping(float x) {
        Clamping {
            x = Math.max(0, x);
        }
    }

    record CountingAccessor(int x) {
        static int reads;

        @Override
        public int x() {
            reads++;
            return x;
        }
    }

    record OtherField(int x, int y) {
        @Override
        public int x() {
            return y; // returns a field, not its own
        }
    }

    /** An accessor that returns the field of another instance: a getfield of its own field, not of {@code this}. */
    record Borrowing(int x) {
        static final Borrowing OTHER = new Borrowing(42);

        @Override
        public int x() {
            return OTHER.x;
        }
    }

    /** Fields stored in another order than their parameters'. */
    record Swapped(int a, int b) {
        Swapped(int a, int b) {
            this.b = b;
            this.a = a;
        }
    }

    static final class NotARecord {
        int x;
    }

    /** Asks without the per-class cache, so that each answer is worked out here (and a wrong one shows). */
    private static boolean plain(Class<?> type) {
        return RecordShape.read(type);
    }

    @Test
    void theCachedAnswerIsTheOneWorkedOut() {
        assertTrue(RecordShape.isPlain(All.class));
        assertTrue(RecordShape.isPlain(All.class), "asked again: the cached answer");
        assertFalse(RecordShape.isPlain(Validating.class));
        assertFalse(RecordShape.isPlain(NotARecord.class));
    }

    @Test
    void theGeneratedAccessorsAndConstructorArePlainWhateverTheFieldKinds() {
        assertTrue(plain(All.class));
        assertTrue(plain(Empty.class));
        assertTrue(plain(Quiet.class), "an empty compact constructor is the generated one");
        assertTrue(plain(Explicit.class), "so is an accessor that only returns its field");
    }

    @Test
    void codeOfItsOwnInAnAccessorOrTheConstructorIsNotPlain() {
        assertFalse(plain(Validating.class), "a check in the constructor");
        assertFalse(plain(Clamping.class), "a constructor that changes a parameter");
        assertFalse(plain(CountingAccessor.class), "an accessor with a side effect");
        assertFalse(plain(OtherField.class), "an accessor reading another field");
        assertFalse(plain(Swapped.class), "fields stored out of order");
        assertFalse(plain(Borrowing.class), "an accessor reading another instance's field");
    }

    @Test
    void anythingButARecordWithItsClassFileIsNotPlain() throws Exception {
        assertFalse(plain(NotARecord.class));
        assertFalse(plain(String.class));
        assertFalse(plain(int.class));
        // a record defined at run time has no class file to read: not plain (the engine then keeps the object)
        // a name of its own each time: a second run of this test in one JVM (a mutation tester's) defines it again
        ClassDesc self = ClassDesc.of(RecordShapeTest.class.getPackageName() + ".Spun" + System.nanoTime());
        byte[] bytes = ClassFile.of().build(self, cb -> cb.withSuperclass(ClassDesc.of("java.lang.Record"))
                .withFlags(ClassFile.ACC_FINAL | ClassFile.ACC_PUBLIC)
                .withMethodBody(ConstantDescs.INIT_NAME, ConstantDescs.MTD_void, ClassFile.ACC_PUBLIC, code -> code
                        .aload(0).invokespecial(ClassDesc.of("java.lang.Record"), ConstantDescs.INIT_NAME,
                                MethodTypeDesc.of(ConstantDescs.CD_void))
                        .return_())
                .with(java.lang.classfile.attribute.RecordAttribute.of(java.util.List.of())));
        Class<?> hidden = MethodHandles.lookup().defineHiddenClass(bytes, true).lookupClass();
        assertTrue(hidden.isRecord());
        assertFalse(plain(hidden), "a hidden class");
        Class<?> defined = MethodHandles.lookup().defineClass(bytes); // a class of its own, with no class file
        assertTrue(defined.isRecord() && !defined.isHidden());
        assertFalse(plain(defined), "a record without a class file to read");
    }
}
