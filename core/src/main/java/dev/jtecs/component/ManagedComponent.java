package dev.jtecs.component;

import dev.jtecs.component.internal.TypeAccess;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;

/**
 * A component whose value is any object (typically a record or class with reference fields), stored in one heap
 * column of references.
 *
 * <p>The default value comes from the registered factory; otherwise from the record's canonical constructor with
 * zero/null arguments, or a class's no-argument constructor. Registration tries that constructor once: a type
 * without one, or whose constructor rejects those arguments, has no default, and using its definition as an
 * input is rejected at the call rather than failing at commit.
 *
 * @param <T> the value type
 */
public final class ManagedComponent<T> extends BaseComponent<T> {
    private final MethodHandle implicitDefault;

    ManagedComponent(int id, Class<T> type, ComponentOptions<T> options) {
        super(id, type, options, type.getCanonicalName() != null ? type.getCanonicalName() : type.getName());
        this.implicitDefault = options.defaults() == null ? findImplicitDefault(type) : null;
    }

    @Override
    public StorageKind storage() {
        return StorageKind.MANAGED;
    }

    @Override
    public ComponentLayout layout() {
        return ComponentLayout.HEAP;
    }

    /** Whether the definition alone can produce a value. */
    public boolean hasDefault() {
        return defaults() != null || implicitDefault != null;
    }

    @Override
    public T newDefault() {
        if (defaults() != null) {
            return produceDefault();
        }
        if (implicitDefault == null) {
            throw new IllegalStateException("component " + name() + " has no default value: register it with "
                    + "defaults(...) or supply a constructed value");
        }
        try {
            return valueType().cast((Object) implicitDefault.invokeExact());
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("default constructor of " + name() + " failed", t);
        }
    }

    /**
     * One value as a snapshot saves it, as a detached tree: what the custom {@code save} codec returns, or without
     * one the automatic codec's form: a string as it is, a boxed number or boolean as itself ({@code Long} as a
     * decimal string), an enum by constant name, a record of those as a map of component name to value.
     *
     * @throws IllegalArgumentException when a custom codec returns something that is not a detached tree, or
     *     the automatic codec cannot encode the value type (then register {@code save} and {@code load})
     */
    public Object snapshotSave(T value) {
        return snapshotEncode(value);
    }

    /**
     * The value a saved tree stands for, read as a snapshot load reads it: the custom {@code load} codec, or the
     * world-aware {@code deserialize} codec given {@code world} (the destination world), or without a custom
     * codec the automatic one ({@code world} unused). The inverse of {@link #snapshotSave}.
     *
     * @throws IllegalArgumentException when {@code saved} is not a value of this component, a world-aware codec
     *     receives another world type, or a custom codec returns {@code null} or another type
     */
    public T snapshotLoad(Object saved, Object world) {
        return snapshotDecode(saved, world);
    }

    /** A constructed input carrying {@code value}. */
    public ComponentValue<T> of(T value) {
        return new ComponentValue<>(this, value);
    }

    private static MethodHandle findImplicitDefault(Class<?> type) {
        try {
            if (type.isRecord()) {
                RecordComponent[] parts = type.getRecordComponents();
                Class<?>[] params = new Class<?>[parts.length];
                Object[] args = new Object[parts.length];
                for (int i = 0; i < parts.length; i++) {
                    params[i] = parts[i].getType();
                    args[i] = zeroOf(params[i]);
                }
                MethodHandle handle = TypeAccess.constructor(type, params);
                return tried(MethodHandles.insertArguments(handle, 0, args)
                        .asType(MethodType.methodType(Object.class)));
            }
            return tried(TypeAccess.constructor(type).asType(MethodType.methodType(Object.class)));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** The handle when one trial construction succeeds, else {@code null} (the type has no usable default). */
    private static MethodHandle tried(MethodHandle constructor) {
        try {
            Object probe = (Object) constructor.invokeExact();
            return probe == null ? null : constructor;
        } catch (Throwable t) {
            return null;
        }
    }

    /** The zero value of a type: {@code null} for references, zero or {@code false} (boxed) for primitives. */
    static Object zeroOf(Class<?> type) {
        if (!type.isPrimitive()) {
            return null;
        }
        if (type == boolean.class) {
            return false;
        }
        if (type == char.class) {
            return (char) 0;
        }
        if (type == byte.class) {
            return (byte) 0;
        }
        if (type == short.class) {
            return (short) 0;
        }
        if (type == int.class) {
            return 0;
        }
        if (type == long.class) {
            return 0L;
        }
        if (type == float.class) {
            return 0f;
        }
        return 0d;
    }
}
