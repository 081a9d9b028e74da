/**
 * The world: the owner of entities, archetypes and native memory, and the entry point of every operation.
 *
 * <pre>
 *   World ─┬─ EntityIndex        slot → generation, state, archetype, row
 *          ├─ ArchetypeRegistry  signature → Table (columns), add/remove edges, move plans
 *          ├─ Transaction        staged work, one record per entity
 *          ├─ CommitDrain        publishes staged work in waves
 *          ├─ States             created states, the stack; spawn paths add the top state's tag
 *          ├─ Bundles            named spawn shapes (required and defaulted components)
 *          └─ NativeMemory       every off-heap buffer; freed by close()
 * </pre>
 *
 * <p>Invariants: every published entity resolves to exactly one row, whose entity column holds its id; reads see
 * only published state; a closed world rejects every call.
 */
package dev.jtecs.world;
