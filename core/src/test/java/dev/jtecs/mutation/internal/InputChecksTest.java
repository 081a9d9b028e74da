package dev.jtecs.mutation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.EntityKey;
import dev.jtecs.component.Components;
import dev.jtecs.component.Input;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.PairComponent;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.Relationships;
import dev.jtecs.component.TagComponent;
import dev.jtecs.entity.Entity;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What every mutation call refuses before it stages anything. */
class InputChecksTest {
    /** A managed type without a no-argument constructor: no implicit default. */
    static final class Opaque {
        final int n;

        Opaque(int n) {
            this.n = n;
        }
    }

    static final TagComponent T = Components.tag("test.checks.T");
    static final ManagedComponent<Opaque> OPAQUE = Components.registerManaged(Opaque.class,
            o -> o.name("test.checks.Opaque"));
    static final Relationship LINK = Relationships.register("test.checks.Link");

    private final DrainFixture fixture = new DrainFixture();
    private final KeyIndex keys = new KeyIndex(id -> null);
    private final InputChecks checks = new InputChecks(fixture.index, fixture.registry.pairs(), keys, fixture.drain);

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    private static String refusal(Runnable call) {
        return assertThrows(IllegalArgumentException.class, call::run).getMessage();
    }

    @Test
    void inputsThatAreNotValuesAreRefusedWithTheirNames() {
        assertTrue(refusal(() -> checks.input(OPAQUE)).contains("test.checks.Opaque has no default value"));
        assertTrue(refusal(() -> checks.input(LINK)).contains("relationship test.checks.Link is not an input"));
        long target = fixture.index.allocate();
        assertTrue(refusal(() -> checks.input(LINK.targeting(target))).contains("is a query term"));
        PairComponent pair = fixture.registry.pairs().pair(LINK, target);
        assertTrue(refusal(() -> checks.input(pair)).contains("belongs to the world"));
        assertThrows(NullPointerException.class, () -> checks.input(null));
        checks.input(T); // a tag is fine
        checks.input(OPAQUE.of(new Opaque(1)));
    }

    @Test
    void anEdgeToADeadTargetIsRefusedAndOneToAStagedTargetPasses() {
        long staged = fixture.index.allocate();
        checks.input(LINK.to(staged));
        long dead = Entity.pack(900, 0);
        assertTrue(refusal(() -> checks.input(LINK.to(dead))).contains("relationship target of test.checks.Link"));
    }

    @Test
    void aSpawnInputMayNotClaimAKeyAlreadyClaimed() {
        keys.stageClaim("boss", 5);
        assertTrue(refusal(() -> checks.spawnInput(EntityKey.COMPONENT.of("boss"))).contains("already claimed"));
        assertTrue(refusal(() -> checks.spawnInput(EntityKey.COMPONENT)).contains("must not be empty"));
        checks.spawnInput(EntityKey.COMPONENT.of("minion"));
    }

    @Test
    void batchInputsAreCopiedNullFreeAndTheirEdgesChecked() {
        long target = fixture.index.allocate();
        List<Input> given = Arrays.asList(T, LINK.to(target));
        Input[] copy = checks.batchInputs(given);
        assertEquals(given, List.of(copy));
        assertThrows(NullPointerException.class, () -> checks.batchInputs(Arrays.asList(T, null)));
        assertThrows(IllegalArgumentException.class,
                () -> checks.batchInputs(List.of(LINK.to(Entity.pack(901, 0)))));
    }

    @Test
    void aPairThisWorldDidNotAllocateIsRefused() {
        long target = fixture.index.allocate();
        PairComponent own = fixture.registry.pairs().pair(LINK, target);
        checks.ownPair(own, "has", "this world");
        try (DrainFixture other = new DrainFixture()) {
            PairComponent foreign = other.registry.pairs().pair(LINK, other.index.allocate());
            String message = refusal(() -> checks.ownPair(foreign, "has", "this world"));
            assertTrue(message.contains("is not a pair of this world"), message);
        }
        assertSame(own, fixture.registry.pairs().find(LINK, target), "nothing changed");
    }
}
