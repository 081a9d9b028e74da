package dev.jtecs.storage.internal;

import dev.jtecs.entity.internal.Growth;

import dev.jtecs.component.PairComponent;
import dev.jtecs.component.BaseRelationship;

import dev.jtecs.component.Component;
import java.util.Arrays;

/**
 * A reusable, sorted, duplicate-free set of components: the drain assembles a row's final signature here and
 * then looks its table up once, so no intermediate archetype is ever created and nothing is allocated once the
 * array has grown.
 */
public final class SignatureBuilder {
    private Component<?>[] components = new Component<?>[16];
    private int size;

    /** Starts from a table's signature. */
    public SignatureBuilder loadFrom(Table table) {
        size = 0;
        ensure(table.componentCount() + 1);
        for (int p = 0; p < table.componentCount(); p++) {
            components[size++] = table.componentAt(p);
        }
        return this;
    }

    public SignatureBuilder clear() {
        Arrays.fill(components, 0, size, null);
        size = 0;
        return this;
    }

    public int size() {
        return size;
    }

    public Component<?> get(int index) {
        return components[index];
    }

    public boolean contains(Component<?> component) {
        return indexOf(component.id()) >= 0;
    }

    /** Adds a component in id order; returns whether it was absent. */
    public boolean add(Component<?> component) {
        int index = indexOf(component.id());
        if (index >= 0) {
            return false;
        }
        int insert = -index - 1;
        ensure(size + 1);
        System.arraycopy(components, insert, components, insert + 1, size - insert);
        components[insert] = component;
        size++;
        return true;
    }

    /** Removes a component; returns whether it was present. */
    public boolean remove(Component<?> component) {
        int index = indexOf(component.id());
        if (index < 0) {
            return false;
        }
        System.arraycopy(components, index + 1, components, index, size - index - 1);
        components[--size] = null;
        return true;
    }

    /**
     * Makes the dense relationship markers agree with the pairs: a relationship stays exactly while at least one
     * pair of it does (sparse markers have no pairs and are left alone). Returns whether the set changed.
     */
    public boolean normalizeRelationships() {
        boolean changed = false;
        for (int i = size - 1; i >= 0; i--) {
            if (components[i] instanceof BaseRelationship<?> relationship && !relationship.isSparse()
                    && !hasPairOf(relationship)) {
                remove(relationship);
                changed = true;
            }
        }
        for (int i = 0; i < size; i++) {
            if (components[i] instanceof PairComponent pair && add(pair.relationship())) {
                changed = true;
                i = -1; // the insertion shifted later entries: rescan (few components, rare)
            }
        }
        return changed;
    }

    /** Removes every pair of {@code relationship} except {@code keep} (which may be {@code null}). */
    public void removeEdgesOf(BaseRelationship<?> relationship, PairComponent keep) {
        for (int i = size - 1; i >= 0; i--) {
            if (components[i] instanceof PairComponent pair && pair.relationship() == relationship && pair != keep) {
                remove(pair);
            }
        }
    }

    private boolean hasPairOf(BaseRelationship<?> relationship) {
        for (int i = 0; i < size; i++) {
            if (components[i] instanceof PairComponent pair && pair.relationship() == relationship) {
                return true;
            }
        }
        return false;
    }

    /** The table with exactly these components, from the registry (created when new). */
    public Table resolve(ArchetypeRegistry registry) {
        return registry.findOrCreate(components, size);
    }

    private int indexOf(int id) {
        int low = 0;
        int high = size - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int midId = components[mid].id();
            if (midId < id) {
                low = mid + 1;
            } else if (midId > id) {
                high = mid - 1;
            } else {
                return mid;
            }
        }
        return -(low + 1);
    }

    private void ensure(int capacity) {
        if (capacity > components.length) {
            components = Growth.copyOf(components, Math.max(capacity, components.length * 2));
        }
    }
}
