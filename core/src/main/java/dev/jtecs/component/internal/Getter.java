package dev.jtecs.component.internal;

/**
 * Typed accessors of one record component, so values cross from records to columns without boxing and, when
 * {@link java.lang.invoke.LambdaMetafactory} can spin them, as plain interface calls the JIT compiles like any
 * other virtual call.
 */
public interface Getter {
    /** Reads one byte record component. */
    @FunctionalInterface
    public interface ByteGetter extends Getter {
        byte get(Object record);
    }

    /** Reads one boolean record component. */
    @FunctionalInterface
    public interface BooleanGetter extends Getter {
        boolean get(Object record);
    }

    /** Reads one short record component. */
    @FunctionalInterface
    public interface ShortGetter extends Getter {
        short get(Object record);
    }

    /** Reads one char record component. */
    @FunctionalInterface
    public interface CharGetter extends Getter {
        char get(Object record);
    }

    /** Reads one int record component. */
    @FunctionalInterface
    public interface IntGetter extends Getter {
        int get(Object record);
    }

    /** Reads one float record component. */
    @FunctionalInterface
    public interface FloatGetter extends Getter {
        float get(Object record);
    }

    /** Reads one long record component. */
    @FunctionalInterface
    public interface LongGetter extends Getter {
        long get(Object record);
    }

    /** Reads one double record component. */
    @FunctionalInterface
    public interface DoubleGetter extends Getter {
        double get(Object record);
    }
}
