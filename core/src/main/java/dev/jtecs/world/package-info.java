/**
 * The world: the owner of entities, archetypes and native memory, and the facade every operation enters by. The
 * facade checks the calling thread and the arguments it owns, then delegates: structural calls to the mutation
 * model, reads to the entity index and the archetype registry, relationship reads and walks to the relation
 * layer, systems to the scheduler.
 *
 * <pre>
 *   World ─┬─ MutationModel      scopes, staging, batches, keys, the commit drain     (mutation.internal)
 *          ├─ Relations          reverse index, walks; the drain's hooks               (relation.internal)
 *          ├─ EntityIndex        slot → generation, state, archetype, row              (entity.internal)
 *          ├─ ArchetypeRegistry  signature → Table (columns), add/remove edges, move plans (storage.internal)
 *          ├─ WorldQuery list    persistent queries, told of every new archetype       (query.internal)
 *          ├─ ObserverRegistry   observers by address and event type                   (event.internal)
 *          ├─ Pipeline           the scheduler (schedule); BuiltinSystemsLink installs the builtin systems
 *          ├─ States, Bundles, Resources, Compaction
 *          └─ NativeMemory       every off-heap buffer; freed by close()
 * </pre>
 *
 * <p>The world, the scheduler ({@code schedule}) and state policies ({@code state}) form one layer: a system
 * body receives the world, and the world hands out scheduler types. The builtin systems ({@code builtin.systems})
 * sit above it and name the world; the world never names them, and installs them by a class name it looks up
 * once ({@code BuiltinSystemsLink}). Invariants: only the owner thread enters; every published entity resolves
 * to exactly one row, whose entity column holds its id; reads see only published state; a closed world rejects
 * every call.
 */
package dev.jtecs.world;
