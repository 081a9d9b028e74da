package dev.jtecs.component.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * How the core reaches the members of a class it must read or build: a record's accessors and canonical
 * constructor, a managed class's no-argument constructor. Two ways, tried in this order:
 *
 * <ol>
 *   <li>a lookup that the class's module handed over ({@code Components.register(MethodHandles.lookup(), ...)}),
 *       kept by {@link #grant}: the core asks it, through {@link MethodHandles#privateLookupIn}, for a lookup with
 *       private access to the class. A full-privilege lookup of a module reaches every class of that module, and
 *       the classes of other modules that open their package to it;
 *   <li>deep reflection ({@code setAccessible}), which works on the class path, for a public class of an
 *       exported package, and in a named module for a package that it opens to {@code dev.jtecs.core}.
 * </ol>
 *
 * <p>Grants last for the life of the JVM (like the component registry that asks for them), one per module.
 */
public final class TypeAccess {
    private static final MethodHandles.Lookup SELF = MethodHandles.lookup();
    private static final List<MethodHandles.Lookup> GRANTS = new CopyOnWriteArrayList<>();

    private TypeAccess() {
    }

    /**
     * Keeps {@code lookup} for reaching {@code type} and the other classes its module lets it reach.
     *
     * @throws IllegalArgumentException when the lookup has no full privilege access (it must be the caller's own
     *     {@code MethodHandles.lookup()}) or cannot reach {@code type}; nothing is kept then
     */
    public static void grant(MethodHandles.Lookup lookup, Class<?> type) {
        Objects.requireNonNull(lookup, "lookup");
        Objects.requireNonNull(type, "type");
        if (!lookup.hasFullPrivilegeAccess()) {
            throw new IllegalArgumentException("the lookup " + lookup + " has no full privilege access: pass your "
                    + "own MethodHandles.lookup(), not publicLookup() nor one narrowed by in() or dropLookupMode()");
        }
        try {
            MethodHandles.privateLookupIn(type, lookup);
        } catch (IllegalAccessException | RuntimeException e) {
            throw new IllegalArgumentException("the lookup of " + lookup.lookupClass().getName() + " (" + lookup
                    .lookupClass().getModule() + ") cannot reach " + type.getName() + " (" + type.getModule()
                    + "): pass a lookup made in the module that declares it, or open its package to the lookup's "
                    + "module: " + e.getMessage(), e);
        }
        synchronized (GRANTS) {
            Module module = lookup.lookupClass().getModule();
            for (MethodHandles.Lookup kept : GRANTS) {
                if (kept.lookupClass().getModule() == module) {
                    return; // any full-privilege lookup of a module reaches what another one of it reaches
                }
            }
            GRANTS.add(lookup);
        }
    }

    /** A lookup with private access to {@code type} from a granted lookup, or {@code null} when none reaches it. */
    static MethodHandles.Lookup granted(Class<?> type) {
        for (MethodHandles.Lookup kept : GRANTS) {
            try {
                return MethodHandles.privateLookupIn(type, kept);
            } catch (IllegalAccessException | RuntimeException e) {
                // this grant does not reach the class: try the next one
            }
        }
        return null;
    }

    /**
     * A full-privilege lookup on {@code type} (what {@code LambdaMetafactory} needs to spin a class beside it), from
     * a grant or else from the core's own access; {@code null} when neither has it.
     */
    static MethodHandles.Lookup fullPrivilege(Class<?> type) {
        MethodHandles.Lookup granted = granted(type);
        if (granted != null) {
            return granted;
        }
        try {
            MethodHandles.Lookup own = MethodHandles.privateLookupIn(type, SELF);
            return own.hasFullPrivilegeAccess() ? own : null;
        } catch (IllegalAccessException | RuntimeException e) {
            return null;
        }
    }

    /**
     * A handle on a record component's accessor, of type {@code (R)T}.
     *
     * @throws ReflectiveOperationException or {@link RuntimeException} (an {@code InaccessibleObjectException})
     *     when neither a grant nor deep reflection reaches it
     */
    public static MethodHandle accessor(RecordComponent part) throws ReflectiveOperationException {
        Method accessor = part.getAccessor();
        MethodHandles.Lookup granted = granted(accessor.getDeclaringClass());
        if (granted != null) {
            return granted.unreflect(accessor);
        }
        accessor.setAccessible(true);
        return SELF.unreflect(accessor);
    }

    /**
     * A handle on the constructor of {@code type} taking {@code parameterTypes}, of type {@code (P...)C}.
     *
     * @throws ReflectiveOperationException or {@link RuntimeException} (an {@code InaccessibleObjectException})
     *     when there is no such constructor or neither a grant nor deep reflection reaches it
     */
    public static MethodHandle constructor(Class<?> type, Class<?>... parameterTypes)
            throws ReflectiveOperationException {
        MethodHandles.Lookup granted = granted(type);
        if (granted != null) {
            return granted.findConstructor(type, MethodType.methodType(void.class, parameterTypes));
        }
        Constructor<?> constructor = type.getDeclaredConstructor(parameterTypes);
        constructor.setAccessible(true);
        return SELF.unreflectConstructor(constructor);
    }

    /** What an error about an unreachable class tells the user to do. */
    public static String remedy() {
        return "in a named module, register it with Components.register(MethodHandles.lookup(), ...) or open its "
                + "package to dev.jtecs.core";
    }
}
