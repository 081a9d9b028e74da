package dev.jtecs.stress;

import static dev.jtecs.stress.ModelComponents.FOLLOWS;
import static dev.jtecs.stress.ModelComponents.HEALTH;
import static dev.jtecs.stress.ModelComponents.LOAN;
import static dev.jtecs.stress.ModelComponents.SPRING;
import static dev.jtecs.stress.ModelOp.edge;
import static dev.jtecs.stress.ModelOp.h;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.component.Input;
import dev.jtecs.stress.ModelComponents.Loan;
import dev.jtecs.stress.ModelComponents.Spring;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelInputTest {
    @Test
    void edgesResolveTheirTargetAndKeepThePayload() {
        assertEquals(SPRING.of(new Spring(77, 1.5f, 2)),
                edge(SPRING, h(0), new Spring(0, 1.5f, 2)).resolve(ref -> 77));
        assertEquals(LOAN.of(new Loan(9, 3)), edge(LOAN, h(1), new Loan(0, 3)).resolve(ref -> 9));
        assertEquals(FOLLOWS.to(5), edge(FOLLOWS, h(2)).resolve(ref -> 5));
        assertEquals(SPRING.to(6), edge(SPRING, h(2)).resolve(ref -> 6));
    }

    @Test
    void factoriesWrapInputsAndKeepEdges() {
        List<ModelInput> inputs = ModelInput.of(HEALTH.of(3.0), edge(FOLLOWS, h(1)));
        assertEquals(new ModelInput.Given(HEALTH.of(3.0)), inputs.get(0));
        assertEquals(edge(FOLLOWS, h(1)), inputs.get(1));
        Input[] resolved = ModelInput.resolveAll(inputs, ref -> 4);
        assertEquals(HEALTH.of(3.0), resolved[0]);
        assertEquals(FOLLOWS.to(4), resolved[1]);
        assertEquals("edge(FOLLOWS, h(1))", inputs.get(1).toJava());
        assertEquals("HEALTH.of(3.0)", inputs.get(0).toJava());
    }

    @Test
    void badInputsAreRejectedNamingThem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ModelInput.Given(FOLLOWS.to(3)));
        assertTrue(e.getMessage().contains("edge"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> edge(FOLLOWS, h(0), new Loan(0, 1)));
        assertTrue(e.getMessage().contains(FOLLOWS.name()) && e.getMessage().contains("Loan"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ModelInput.of("not an input"));
        assertThrows(NullPointerException.class, () -> ModelInput.of((Object) null));
    }
}
