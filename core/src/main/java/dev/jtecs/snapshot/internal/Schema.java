package dev.jtecs.snapshot.internal;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentLayout;
import dev.jtecs.component.ManagedComponent;
import dev.jtecs.component.NativeComponent;
import dev.jtecs.component.PrimitiveKind;
import dev.jtecs.component.RelationshipDefinition;
import dev.jtecs.component.ScalarComponent;
import dev.jtecs.component.SnapshotCodec;
import dev.jtecs.component.StorageKind;
import dev.jtecs.component.TagComponent;
import dev.jtecs.component.internal.TreeCodec;
import dev.jtecs.snapshot.SnapshotComponentEntry;
import java.util.List;

/**
 * The component table's view of a definition: its kind, its native field layout and fingerprint, its codec, and
 * whether the binary form copies its columns raw.
 */
final class Schema {
    private Schema() {
    }

    static String kind(Component<?> component) {
        if (component instanceof BaseRelationship<?> relationship) {
            String payload = relationship.payloadType() == null ? ""
                    : ((RelationshipDefinition<?>) relationship).payloadStorage() == StorageKind.NATIVE ? "+native"
                    : "+managed";
            return (relationship.isSparse() ? "sparse-" : "") + "relationship" + payload;
        }
        return switch (component) {
            case NativeComponent<?> n -> "native";
            case ScalarComponent<?> s -> "scalar";
            case ManagedComponent<?> m -> "managed";
            case TagComponent t -> "tag";
            default -> throw new IllegalArgumentException("component " + component.name() + " cannot be saved");
        };
    }

    /** The native layout values are saved with: a relationship's payload layout, else the component's. */
    static ComponentLayout layout(Component<?> component) {
        if (component instanceof BaseRelationship<?> relationship) {
            return relationship.edgeLayout();
        }
        return component.layout();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static SnapshotCodec<Object> codec(Component<?> component) {
        return (SnapshotCodec) ((dev.jtecs.component.BaseComponent<?>) component).snapshotCodec();
    }

    static SnapshotComponentEntry entry(Component<?> component) {
        ComponentLayout layout = layout(component);
        List<String> names = layout.fieldNames();
        List<PrimitiveKind> kinds = layout.fieldKinds();
        return new SnapshotComponentEntry(component.name(), kind(component), names, kinds,
                SnapshotComponentEntry.fingerprint(names, kinds), codec(component) != null);
    }

    /**
     * Whether the binary form copies this definition's native columns raw: native and numeric scalar components,
     * and dense native payload relationships, without a custom codec.
     */
    static boolean raw(Component<?> component) {
        if (codec(component) != null) {
            return false;
        }
        if (component instanceof BaseRelationship<?> relationship) {
            return !relationship.isSparse() && relationship.edgeStorage() == StorageKind.NATIVE;
        }
        return component.layout().nativeColumnCount() > 0;
    }

    /**
     * Why values of this definition cannot be saved, or {@code null} when they can: managed values (and managed
     * edge payloads) without a custom codec must suit the automatic one.
     */
    static String refusal(Component<?> component) {
        if (codec(component) != null) {
            return null;
        }
        if (component instanceof ManagedComponent<?> managed) {
            return TreeCodec.refusal(managed.valueType());
        }
        if (component instanceof RelationshipDefinition<?> definition
                && definition.payloadStorage() == StorageKind.MANAGED) {
            return TreeCodec.refusal(definition.valueType());
        }
        return null;
    }
}
