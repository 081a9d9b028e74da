package dev.jtecs.component;

import java.util.Objects;
import java.util.function.Consumer;

/** Registers relationships in the process-wide component registry (see {@link Components}). */
public final class Relationships {
    private Relationships() {
    }

    /** Registers a target-only relationship with default options (non-exclusive, dense). */
    public static Relationship register(String name) {
        return register(name, options -> { });
    }

    /**
     * Registers a payload relationship: edges carry a {@code T}, a record with a {@code long target} component.
     * Its name is the record's canonical name unless {@link RelationshipOptions#name} pins another. Registering
     * the same name again with the same record and options returns the existing definition.
     *
     * @throws IllegalArgumentException when the record has no {@code long target} component
     */
    public static <T extends Record> RelationshipDefinition<T> register(Class<T> type,
            Consumer<RelationshipOptions> options) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(options, "options");
        RelationshipOptions opts = new RelationshipOptions();
        options.accept(opts);
        return Components.registerRelationshipDefinition(type, opts);
    }

    /** Registers a payload relationship with default options (non-exclusive, dense). */
    public static <T extends Record> RelationshipDefinition<T> register(Class<T> type) {
        return register(type, options -> { });
    }

    /**
     * Registers a target-only relationship. Registering the same name again with the same options returns the
     * existing definition; different options are an error.
     */
    public static Relationship register(String name, Consumer<RelationshipOptions> options) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(options, "options");
        RelationshipOptions opts = new RelationshipOptions();
        options.accept(opts);
        return Components.registerRelationship(name, opts);
    }
}
