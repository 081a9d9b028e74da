package dev.jtecs.world;

import dev.jtecs.component.Input;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** A world's bundles by name, in registration order. */
final class Bundles {
    private final World world;
    private final Map<String, Bundle> byName = new LinkedHashMap<>();

    Bundles(World world) {
        this.world = world;
    }

    Bundle create(String name, BundleDefinition definition) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(definition, "definition");
        if (name.isBlank()) {
            throw new IllegalArgumentException("newBundle: a bundle name must not be blank, got \"" + name + "\"");
        }
        Bundle existing = byName.get(name);
        if (existing != null) {
            throw new IllegalArgumentException("newBundle(" + name + "): a bundle of that name already exists in "
                    + "this world: " + existing);
        }
        Bundle bundle = new Bundle(world, name, definition);
        byName.put(name, bundle);
        return bundle;
    }

    /** The bundle of that name, or {@code null}. */
    Bundle find(String name) {
        return byName.get(Objects.requireNonNull(name, "name"));
    }

    /** A snapshot of every bundle, in registration order. */
    Map<String, Bundle> all() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(byName));
    }

    long spawn(String name, Input[] inputs) {
        Bundle bundle = find(name);
        if (bundle == null) {
            throw new IllegalArgumentException("spawnBundle(" + name + "): no bundle of that name in this world "
                    + "(bundles: " + byName.keySet() + ")");
        }
        return spawn(bundle, inputs);
    }

    long spawn(Bundle bundle, Input[] inputs) {
        Objects.requireNonNull(bundle, "bundle");
        if (!bundle.belongsTo(world)) {
            throw new IllegalArgumentException("spawnBundle: " + bundle + " belongs to another world");
        }
        return world.spawn(bundle.resolve(inputs));
    }
}
