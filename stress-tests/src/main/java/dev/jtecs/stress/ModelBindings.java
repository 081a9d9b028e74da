package dev.jtecs.stress;

import dev.jtecs.entity.Entity;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The ids a running script has bound to its handles, and the resolution of every {@link ModelRef} against
 * them: a handle names the id its spawning operation bound (an unbound one, an id past every slot a model
 * world has), {@code revive} the handle's slot with a later generation, {@code beyond} a slot past every slot
 * seen, {@code slotOf} another member's slot within an id array.
 *
 * <p>Invariant: {@link #seen()} lists every bound id once per binding, in binding order, live or dead; each
 * comparison checks every one of them.
 */
final class ModelBindings {
    private final Map<Integer, Long> handles = new HashMap<>();
    private final List<Long> seen = new ArrayList<>();

    /** Binds a handle to an id the world accepted. */
    void bind(int handle, long id) {
        handles.put(handle, id);
        seen.add(id);
    }

    /** The id a reference names now. */
    long resolve(ModelRef ref) {
        return switch (ref) {
            case ModelRef.Handle h -> handles.getOrDefault(h.handle(), unbound(h.handle()));
            case ModelRef.Raw raw -> raw.id();
            case ModelRef.Revive r -> {
                Long id = handles.get(r.handle());
                yield id == null ? beyond(1, r.generationStep())
                        : Entity.pack(Entity.slot(id), Entity.generation(id) + r.generationStep());
            }
            case ModelRef.Beyond b -> beyond(b.slotStep(), b.generation());
            case ModelRef.SlotOf s -> throw new IllegalArgumentException(s.toJava() + " names a slot only in an id array");
        };
    }

    /** The ids of an array of references: {@link ModelRef.SlotOf} takes the slot of another resolved member. */
    long[] resolveAll(List<ModelRef> refs) {
        long[] ids = new long[refs.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = refs.get(i) instanceof ModelRef.SlotOf ? 0 : resolve(refs.get(i));
        }
        for (int i = 0; i < ids.length; i++) {
            if (refs.get(i) instanceof ModelRef.SlotOf s) {
                long other = ids[s.index() % ids.length];
                ids[i] = Entity.isWellFormed(other) ? Entity.pack(Entity.slot(other), s.generation()) : other;
            }
        }
        return ids;
    }

    /** Whether some handle is bound to {@code id}. */
    boolean isBound(long id) {
        return handles.containsValue(id);
    }

    /** Every bound id, in binding order (read only). */
    List<Long> seen() {
        return Collections.unmodifiableList(seen);
    }

    /** The id bound last, or 0 before any. */
    long last() {
        return seen.isEmpty() ? 0 : seen.get(seen.size() - 1);
    }

    private static long unbound(int handle) {
        return Entity.pack(ModelRef.UNBOUND_SLOT + handle, 0);
    }

    private long beyond(int slotStep, int generation) {
        int maxSlot = 0;
        for (long id : seen) {
            maxSlot = Math.max(maxSlot, Entity.slot(id));
        }
        return Entity.pack(maxSlot + slotStep, generation);
    }
}
