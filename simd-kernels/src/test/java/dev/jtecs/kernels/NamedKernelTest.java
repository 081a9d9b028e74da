package dev.jtecs.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.jtecs.component.Components;
import dev.jtecs.component.NativeComponent;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.Test;

class NamedKernelTest {
    record Pulse(float value) {}

    static final NativeComponent<Pulse> PULSE = Components.registerNative(Pulse.class);

    @Test
    void keepsItsColumnsAndNamesItselfWithItsImplementation() {
        KernelColumns columns = KernelColumns.of(List.of(PULSE.floatField("value")), List.of(), WritePolicy.ALWAYS);
        ColumnKernel kernel = new NamedKernel(columns, "pulse", KernelMode.SCALAR) {
            @Override
            public boolean run(MemorySegment[] segments, int count, float dt) {
                return false;
            }
        };
        assertSame(columns, kernel.columns());
        assertEquals("pulse/SCALAR", kernel.toString());
    }
}
