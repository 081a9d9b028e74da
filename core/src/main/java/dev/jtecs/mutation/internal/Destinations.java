package dev.jtecs.mutation.internal;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Component;
import dev.jtecs.component.PairComponent;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.SignatureBuilder;
import dev.jtecs.storage.internal.Table;

/**
 * Where a staged record's row ends: its entries replayed on the table it starts in, with the requirements they
 * bring planned into the shared {@link RequirementPlan}. One lookup for the whole record, so a record moves at
 * most once per wave and no intermediate archetype is ever created.
 */
final class Destinations {
    private final ArchetypeRegistry registry;
    private final Transaction transaction;
    private final RequirementPlan requirements;
    private final SignatureBuilder signature = new SignatureBuilder();
    // the last lone change resolved by the graph: records of a run (one tag on many entities) repeat it
    private Component<?> lastComponent;
    private Table lastBefore;
    private boolean lastRemoval;
    private Table lastTarget;

    Destinations(ArchetypeRegistry registry, Transaction transaction, RequirementPlan requirements) {
        this.registry = registry;
        this.transaction = transaction;
        this.requirements = requirements;
    }

    /**
     * The table a record's row ends in: its staged entries replayed on {@code before}, requirements included
     * (planned into {@link #requirements}), exactly as the same calls made one at a time would end. A lone
     * change without requirements follows the cached graph edge; anything else is assembled in a scratch
     * signature and looked up once, so no intermediate archetype is ever created.
     */
    Table resolve(int record, Table before) {
        int first = transaction.firstEntry(record);
        if (first >= 0 && transaction.nextEntry(first) < 0) {
            Component<?> component = transaction.entryComponent(first);
            boolean removal = transaction.entryInput(first) == null;
            if (component == lastComponent && before == lastBefore && removal == lastRemoval) {
                requirements.reset(); // the same lone change from the same table as the record before: a run
                return lastTarget;
            }
            if (!isRelational(component)) {
                Table target = null;
                if (removal) {
                    target = registry.withRemoved(before, component);
                } else if (component.requires().isEmpty() || before.has(component.id())) {
                    target = registry.withAdded(before, component);
                }
                if (target != null) {
                    requirements.reset();
                    lastComponent = component;
                    lastBefore = before;
                    lastRemoval = removal;
                    lastTarget = target;
                    return target;
                }
            }
        }
        signature.loadFrom(before);
        requirements.plan(transaction, record, signature);
        if (touchesRelationships(record)) {
            signature.normalizeRelationships(); // a relationship marker stays exactly while one of its pairs does
        }
        return signature.resolve(registry);
    }

    /** Forgets the remembered change: its tables may be pruned (compaction) or their edges dropped. */
    void forget() {
        lastComponent = null;
        lastBefore = null;
        lastTarget = null;
    }

    private static boolean isRelational(Component<?> component) {
        return component instanceof PairComponent || component instanceof BaseRelationship<?>;
    }

    private boolean touchesRelationships(int record) {
        for (int e = transaction.firstEntry(record); e >= 0; e = transaction.nextEntry(e)) {
            if (isRelational(transaction.entryComponent(e))) {
                return true;
            }
        }
        return false;
    }
}
