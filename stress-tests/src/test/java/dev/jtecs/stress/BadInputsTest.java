package dev.jtecs.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Runs the whole bad-input table twice, on a quiet world and on a world with staged work in an open scope: every
 * case must throw the expected exception naming its operand (or answer its sentinel) and leave the world's full
 * dump unchanged, before and after the staged work is published.
 */
class BadInputsTest {
    private static void runAll(boolean staged) {
        BadInputs.Golden golden = BadInputs.Golden.of(staged);
        List<String> failures = new ArrayList<>();
        List<BadInputs.Case> cases = BadInputs.cases();
        for (BadInputs.Case c : cases) {
            String failure = BadInputs.check(c, staged, golden);
            if (failure != null) {
                failures.add(c + ": " + failure);
            }
        }
        System.out.printf("bad inputs (%s): %d cases over %d entry points, %d failed%n",
                staged ? "staged" : "quiet", cases.size(), BadInputs.entryPoints().size(), failures.size());
        if (!failures.isEmpty()) {
            fail(failures.size() + " of " + cases.size() + " cases failed:\n" + String.join("\n\n", failures));
        }
    }

    @Test
    void everyBadArgumentIsRejectedAndChangesNothingOnAQuietWorld() {
        runAll(false);
    }

    @Test
    void everyBadArgumentIsRejectedAndLeavesStagedWorkAlone() {
        runAll(true);
    }

    @Test
    void theTableCoversEveryKindAndEveryEntryPoint() {
        List<BadInputs.Case> cases = BadInputs.cases();
        Set<BadInputs.Kind> kinds = cases.stream().map(BadInputs.Case::kind).collect(Collectors.toSet());
        assertEquals(EnumSet.allOf(BadInputs.Kind.class), kinds);
        Set<String> covered = cases.stream().map(BadInputs.Case::entryPoint).collect(Collectors.toSet());
        assertEquals(Set.copyOf(BadInputs.entryPoints()), covered, "an entry point without a bad case");
        assertTrue(cases.size() > 250, "cases: " + cases.size());
    }

    @Test
    void aCaseThatChangesTheWorldIsCaught() {
        BadInputs.Golden golden = BadInputs.Golden.of(false);
        BadInputs.Case lying = new BadInputs.Case("spawn", "inputs", BadInputs.Kind.NULL, "a call that spawns",
                fixture -> {
                    fixture.world.spawn(ModelComponents.LEVEL);
                    throw new NullPointerException("inputs");
                }, fixture -> new BadInputs.Throws(NullPointerException.class, "inputs"));
        String failure = BadInputs.check(lying, false, golden);
        assertTrue(failure != null && failure.contains("changed the world"), String.valueOf(failure));
    }
}
