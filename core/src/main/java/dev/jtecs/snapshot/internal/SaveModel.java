package dev.jtecs.snapshot.internal;

import dev.jtecs.builtin.Transform2D;
import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Component;
import dev.jtecs.component.PairComponent;
import dev.jtecs.entity.Entity;
import dev.jtecs.query.QueryDescriptor;
import dev.jtecs.storage.IntColumn;
import dev.jtecs.storage.internal.ArchetypeRegistry;
import dev.jtecs.storage.internal.SparseEdges;
import dev.jtecs.storage.internal.Table;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one save writes: the archetype frames (each a table's selected rows with the components, dense edges and
 * sparse relationships that are saved) and the component table, sorted by name, that frames index into.
 *
 * <p>Selection: a table is left out when it holds a component an {@code OnSnapshotSave} observer excluded or
 * the filter does not match it; rows are left out by the layer filter. An edge to an entity the save leaves out
 * goes too, and for a cascading relationship its source goes as well (transitively), since the world never keeps
 * a cascading source without its target. Transient components and relationships are left out of every frame.
 */
final class SaveModel {
    /** One table's saved rows. */
    static final class Frame {
        final Table table;
        int[] rows; // ascending; null: every row [0, table.count())
        int[] positions; // saved non-pair positions, by component table index
        int[] componentIndex;
        int[] pairPositions; // saved pairs, by (relationship index, target)
        int[] pairRelationship;
        long[] pairTarget;
        BaseRelationship<?>[] sparse; // saved sparse relationships, by component table index
        int[] sparseIndex;

        Frame(Table table, int[] rows) {
            this.table = table;
            this.rows = rows;
        }

        int count() {
            return rows == null ? table.count() : rows.length;
        }

        int row(int i) {
            return rows == null ? i : rows[i];
        }
    }

    final List<Component<?>> components = new ArrayList<>();
    final Map<Component<?>, Integer> index = new IdentityHashMap<>();
    final List<Frame> frames = new ArrayList<>();
    long entityCount;

    SaveModel(ArchetypeRegistry registry, int highWater, QueryDescriptor filter, int[] layers,
            List<Component<?>> excluded) {
        SparseEdges sparse = registry.sparseEdges();
        long layerMask = 0;
        if (layers != null) {
            for (int layer : layers) {
                layerMask |= 1L << layer; // each in 0..31: SnapshotOptions.layers checked them
            }
        }
        boolean partial = false;
        for (int i = 0; i < registry.size(); i++) {
            Table table = registry.get(i);
            if (table == null || table.count() == 0) {
                continue;
            }
            if (holdsAny(table, excluded) || filter != null
                    && !filter.matchesWithoutStateExclusions(table.archetype())) {
                partial = true;
                continue;
            }
            int[] rows = null;
            int layerPosition = table.position(Transform2D.COMPONENT.id());
            if (layers != null && layerPosition >= 0) {
                IntColumn layer = table.archetype().get(Transform2D.LAYER);
                int[] kept = new int[table.count()];
                int n = 0;
                for (int row = 0; row < table.count(); row++) {
                    int value = layer.get(row);
                    if (value >= 0 && value < 32 && (layerMask & 1L << value) != 0) {
                        kept[n++] = row;
                    }
                }
                if (n == 0) {
                    partial = true;
                    continue;
                }
                if (n < kept.length) {
                    rows = Arrays.copyOf(kept, n);
                    partial = true;
                }
            }
            frames.add(new Frame(table, rows));
        }
        long[] saved = partial ? closeOverCascades(sparse, highWater) : null;
        for (Frame frame : frames) {
            shape(frame, saved, sparse);
            entityCount += frame.count();
        }
        components.sort(Comparator.comparing(Component::name));
        for (int i = 0; i < components.size(); i++) {
            index.put(components.get(i), i);
        }
        for (Frame frame : frames) {
            order(frame);
        }
    }

    private static boolean holdsAny(Table table, List<Component<?>> excluded) {
        for (Component<?> component : excluded) {
            if (component instanceof dev.jtecs.component.TargetSelector<?> selector
                    ? table.pairPosition(selector.relationship(), selector.target()) >= 0 : table.has(component.id())) {
                return true;
            }
        }
        return false;
    }

    private static boolean isSaved(long[] saved, long id) {
        if (saved == null) {
            return true;
        }
        int slot = Entity.slot(id);
        return slot < saved.length * 64L && (saved[slot >>> 6] & 1L << slot) != 0;
    }

    /**
     * Drops the rows and frames whose cascading edges point at entities the save leaves out, until nothing more
     * goes; returns the saved slots.
     */
    private long[] closeOverCascades(SparseEdges sparse, int highWater) {
        long[] saved = new long[(highWater + 63) >>> 6];
        for (Frame frame : frames) {
            for (int i = 0; i < frame.count(); i++) {
                int slot = Entity.slot(frame.table.entityAt(frame.row(i)));
                saved[slot >>> 6] |= 1L << slot;
            }
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int f = frames.size() - 1; f >= 0; f--) {
                Frame frame = frames.get(f);
                Table table = frame.table;
                boolean drop = false;
                for (int p = table.componentCount() - 1; p >= 0 && table.componentAt(p) instanceof PairComponent pair;
                        p--) {
                    BaseRelationship<?> relationship = pair.relationship();
                    if (relationship.isCascadeDelete() && !relationship.isTransient()
                            && !isSaved(saved, pair.target())) {
                        drop = true;
                    }
                }
                int[] kept = new int[frame.count()];
                int n = 0;
                for (int i = 0; i < frame.count(); i++) {
                    int row = frame.row(i);
                    long id = table.entityAt(row);
                    boolean keep = !drop && isSaved(saved, id) && !cascadesToUnsaved(table, id, sparse, saved);
                    if (keep) {
                        kept[n++] = row;
                    } else if (isSaved(saved, id)) {
                        int slot = Entity.slot(id);
                        saved[slot >>> 6] &= ~(1L << slot);
                        changed = true;
                    }
                }
                if (n == 0) {
                    frames.remove(f);
                } else if (n < frame.count()) {
                    frame.rows = Arrays.copyOf(kept, n);
                }
            }
        }
        return saved;
    }

    private static boolean cascadesToUnsaved(Table table, long id, SparseEdges sparse, long[] saved) {
        if (sparse.isEmpty()) {
            return false;
        }
        for (BaseRelationship<?> relationship : sparse.relationships()) {
            if (relationship.isCascadeDelete() && !relationship.isTransient() && table.has(relationship.id())) {
                int count = sparse.count(relationship, id);
                for (int k = 0; k < count; k++) {
                    if (!isSaved(saved, sparse.targetAt(relationship, id, k))) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Picks a frame's saved components, pairs and sparse relationships, and registers them in the table. */
    private void shape(Frame frame, long[] saved, SparseEdges sparse) {
        Table table = frame.table;
        int components = table.componentCount();
        int[] positions = new int[components];
        int[] pairs = new int[components];
        BaseRelationship<?>[] sparseRelationships = new BaseRelationship<?>[components];
        int positionCount = 0;
        int pairCount = 0;
        int sparseCount = 0;
        for (int p = 0; p < components; p++) {
            Component<?> component = table.componentAt(p);
            if (component instanceof PairComponent pair) {
                if (!pair.relationship().isTransient() && isSaved(saved, pair.target())) {
                    pairs[pairCount++] = p;
                    register(pair.relationship());
                }
                continue;
            }
            if (component.isTransient()) {
                continue;
            }
            if (component instanceof BaseRelationship<?> relationship && !relationship.isSparse()) {
                continue; // a dense marker follows its pairs
            }
            if (component instanceof BaseRelationship<?> relationship) {
                sparseRelationships[sparseCount++] = relationship;
            }
            positions[positionCount++] = p;
            register(component);
        }
        frame.positions = Arrays.copyOf(positions, positionCount);
        frame.pairPositions = Arrays.copyOf(pairs, pairCount);
        frame.sparse = Arrays.copyOf(sparseRelationships, sparseCount);
    }

    private void register(Component<?> component) {
        if (!index.containsKey(component)) {
            String refusal = Schema.refusal(component);
            if (refusal != null) {
                throw new IllegalArgumentException("saveSnapshot: component " + component.name() + " cannot be "
                        + "encoded: " + refusal + "; register save/load codecs for it or mark it transient");
            }
            index.put(component, -1);
            components.add(component);
        }
    }

    /**
     * Sorts a frame's parts by component table index (pairs by relationship index, then target). An archetype has
     * a handful of parts, so each list is sorted in place by insertion, with no boxing; the keys are distinct.
     */
    private void order(Frame frame) {
        Table table = frame.table;
        int[] positions = frame.positions;
        frame.componentIndex = new int[positions.length];
        for (int i = 0; i < positions.length; i++) {
            frame.componentIndex[i] = index.get(table.componentAt(positions[i]));
        }
        sortByKey(frame.componentIndex, positions);
        int[] pairs = frame.pairPositions;
        int[] pairRelationship = new int[pairs.length];
        long[] pairTarget = new long[pairs.length];
        for (int i = 0; i < pairs.length; i++) {
            int position = pairs[i];
            PairComponent pair = (PairComponent) table.componentAt(position);
            int key = index.get(pair.relationship());
            long target = pair.target();
            int j = i;
            for (; j > 0 && (pairRelationship[j - 1] > key
                    || pairRelationship[j - 1] == key && pairTarget[j - 1] > target); j--) {
                pairRelationship[j] = pairRelationship[j - 1];
                pairTarget[j] = pairTarget[j - 1];
                pairs[j] = pairs[j - 1];
            }
            pairRelationship[j] = key;
            pairTarget[j] = target;
            pairs[j] = position;
        }
        frame.pairRelationship = pairRelationship;
        frame.pairTarget = pairTarget;
        // a sparse relationship's table index names it: sort the indexes, then read the relationships back
        int[] sparseIndex = new int[frame.sparse.length];
        for (int i = 0; i < sparseIndex.length; i++) {
            sparseIndex[i] = index.get(frame.sparse[i]);
        }
        Arrays.sort(sparseIndex);
        for (int i = 0; i < sparseIndex.length; i++) {
            frame.sparse[i] = (BaseRelationship<?>) components.get(sparseIndex[i]);
        }
        frame.sparseIndex = sparseIndex;
    }

    /** Sorts {@code keys} ascending by insertion, moving {@code values} along with them. */
    private static void sortByKey(int[] keys, int[] values) {
        for (int i = 1; i < keys.length; i++) {
            int key = keys[i];
            int value = values[i];
            int j = i;
            for (; j > 0 && keys[j - 1] > key; j--) {
                keys[j] = keys[j - 1];
                values[j] = values[j - 1];
            }
            keys[j] = key;
            values[j] = value;
        }
    }
}
