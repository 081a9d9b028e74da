package dev.jtecs.stress;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The handles of a script: how many each spawning operation may bind, and a renumbering from 0 in binding
 * order, so a shrunk script reads {@code spawn(0, ...)}, {@code despawn(h(0))} rather than the numbers its seed
 * gave. Handles no operation binds stay unbound (numbered after every bound one).
 */
final class ModelHandles {
    private final Map<Integer, Integer> renamed = new HashMap<>();
    private int next;

    private ModelHandles() {}

    /** How many handles {@code op} may bind from its first one (0 for operations that spawn nothing). */
    static int width(ModelOp op) {
        return switch (op) {
            case ModelOp.Spawn s -> 1;
            case ModelOp.SpawnAt s -> 1;
            case ModelOp.BatchSpawn b -> Math.max(0, b.count());
            case ModelOp.BatchSpawnAt b -> b.ids().size();
            case ModelOp.Restore r -> Math.max(1, r.ids().size());
            case ModelOp.FailingSpawn f -> f.mode() == 0 ? Math.max(1, f.count()) : Math.max(1, f.ids().size());
            default -> 0;
        };
    }

    /** The first handle {@code op} binds, or -1. */
    static int first(ModelOp op) {
        return switch (op) {
            case ModelOp.Spawn s -> s.handle();
            case ModelOp.SpawnAt s -> s.handle();
            case ModelOp.BatchSpawn b -> b.firstHandle();
            case ModelOp.BatchSpawnAt b -> b.firstHandle();
            case ModelOp.Restore r -> r.firstHandle();
            case ModelOp.FailingSpawn f -> f.firstHandle();
            default -> -1;
        };
    }

    /** The same script with handles renumbered from 0 in the order operations bind them. */
    static ModelScript renumber(ModelScript script) {
        ModelHandles handles = new ModelHandles();
        for (ModelOp op : script.ops()) {
            for (int i = 0; i < width(op); i++) {
                handles.renamed.putIfAbsent(first(op) + i, handles.next++);
            }
        }
        return script.withOps(script.ops().stream().map(handles::map).toList());
    }

    private int handle(int old) {
        return renamed.computeIfAbsent(old, h -> next++);
    }

    private int firstOf(ModelOp op) {
        return width(op) == 0 ? first(op) : handle(first(op));
    }

    private ModelRef map(ModelRef ref) {
        return switch (ref) {
            case ModelRef.Handle h -> new ModelRef.Handle(handle(h.handle()));
            case ModelRef.Revive r -> new ModelRef.Revive(handle(r.handle()), r.generationStep());
            default -> ref;
        };
    }

    private List<ModelRef> map(List<ModelRef> refs) {
        return refs.stream().map(this::map).toList();
    }

    private ModelInput map(ModelInput input) {
        return input instanceof ModelInput.EdgeTo e ? edge(e) : input;
    }

    private ModelInput.EdgeTo edge(ModelInput.EdgeTo e) {
        return new ModelInput.EdgeTo(e.relationship(), map(e.target()), e.payload());
    }

    private List<ModelInput> inputs(List<ModelInput> inputs) {
        return inputs.stream().map(this::map).toList();
    }

    private ModelOp map(ModelOp op) {
        return switch (op) {
            case ModelOp.Spawn s -> new ModelOp.Spawn(firstOf(s), s.observe(), inputs(s.inputs()));
            case ModelOp.SpawnAt s -> new ModelOp.SpawnAt(firstOf(s), map(s.id()), s.observe(), inputs(s.inputs()));
            case ModelOp.SetInput s -> new ModelOp.SetInput(map(s.id()), map(s.input()));
            case ModelOp.Reparent r -> new ModelOp.Reparent(map(r.id()), edge(r.edge()));
            case ModelOp.Remove r -> new ModelOp.Remove(map(r.id()), r.component());
            case ModelOp.RemoveEdge r -> new ModelOp.RemoveEdge(map(r.id()), edge(r.edge()));
            case ModelOp.Despawn d -> new ModelOp.Despawn(map(d.id()));
            case ModelOp.Read r -> new ModelOp.Read(map(r.id()));
            case ModelOp.Commit c -> new ModelOp.Commit(c.compact(), map(c.root()));
            case ModelOp.BatchSpawn b -> new ModelOp.BatchSpawn(b.count() < 1 ? 0 : firstOf(b), b.count(), b.init(),
                    b.observe(), inputs(b.inputs()));
            case ModelOp.BatchSpawnAt b -> new ModelOp.BatchSpawnAt(b.ids().isEmpty() ? 0 : firstOf(b), map(b.ids()),
                    b.init(), b.observe(), inputs(b.inputs()));
            case ModelOp.BatchSet b -> new ModelOp.BatchSet(b.query(), map(b.value()));
            case ModelOp.BatchRemoveEdge b -> new ModelOp.BatchRemoveEdge(b.query(), edge(b.edge()));
            case ModelOp.Restore r -> new ModelOp.Restore(firstOf(r), map(r.ids()), r.init(), r.keys(), r.badCount(),
                    r.observe(), r.inputs());
            case ModelOp.FailingSpawn f -> new ModelOp.FailingSpawn(firstOf(f), f.mode(), f.count(), map(f.ids()),
                    f.init(), f.inputs());
            case ModelOp.KeyRejection k -> new ModelOp.KeyRejection(k.call(), k.count(), map(k.ids()), k.query(),
                    k.inputs());
            case ModelOp.PartitionTag p -> new ModelOp.PartitionTag(map(p.id()), p.tag(), p.set());
            case ModelOp.FieldWrite w -> new ModelOp.FieldWrite(map(w.id()), w.component(), w.field(), w.value(),
                    w.mode());
            default -> op; // names no entity
        };
    }
}
