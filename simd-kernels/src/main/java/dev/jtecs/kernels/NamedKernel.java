package dev.jtecs.kernels;

/**
 * The shared part of the built-in column kernels: their declared columns, and a name for messages made of the
 * kernel's name and the implementation it runs ({@code integrate2d/VECTOR}).
 */
abstract class NamedKernel implements ColumnKernel {
    private final KernelColumns columns;
    private final String name;

    NamedKernel(KernelColumns columns, String name, KernelMode mode) {
        this.columns = columns;
        this.name = name + "/" + mode;
    }

    @Override
    public KernelColumns columns() {
        return columns;
    }

    @Override
    public String toString() {
        return name;
    }
}
