package dev.jtecs.world;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.UndeclaredThrowableException;

/**
 * How a new {@link World} installs the builtin systems without naming their package: the systems sit in the
 * layer above the world ({@code builtin.systems} names {@code World}), so the world finds their installer by
 * its fixed class name, {@value #INSTALLER}, and calls its {@code static void install(World)} through a method
 * handle. The handle is looked up once, when this class is initialized, with its own lookup.
 *
 * <p>Why a name and not a {@link java.util.ServiceLoader}: the installer is part of this module, so a lookup
 * from inside the module reaches it on the class path and on the module path alike, with no
 * {@code META-INF/services} file that a repackaged jar can lose, no {@code provides} line to keep in step, and
 * no other jar able to put a second provider beside it. A core whose installer is missing or changed its
 * signature cannot make a world: {@link #install} throws an {@link IllegalStateException} that names the class
 * and the method it looked for.
 */
final class BuiltinSystemsLink {
    /** The class whose {@code public static void install(World)} every new world calls. */
    static final String INSTALLER = "dev.jtecs.builtin.systems.BuiltinSystems";

    private static final MethodType INSTALL_TYPE = MethodType.methodType(void.class, World.class);
    private static final MethodHandle INSTALL;
    /** Why {@link #INSTALL} is missing, or {@code null}: kept so that every world's failure says the same. */
    private static final IllegalStateException MISSING;

    static {
        MethodHandle found = null;
        IllegalStateException missing = null;
        try {
            found = find(INSTALLER);
        } catch (IllegalStateException e) {
            missing = e;
        }
        INSTALL = found;
        MISSING = missing;
    }

    private BuiltinSystemsLink() {}

    /**
     * Registers the builtin systems in {@code world}, as {@value #INSTALLER}{@code .install} does.
     *
     * @throws IllegalStateException when the installer could not be found when this class was initialized
     */
    static void install(World world) {
        if (INSTALL == null) {
            throw new IllegalStateException(MISSING.getMessage(), MISSING.getCause());
        }
        try {
            INSTALL.invokeExact(world);
        } catch (RuntimeException | Error e) {
            throw e; // what install itself throws, unwrapped
        } catch (Throwable e) {
            throw new UndeclaredThrowableException(e); // install declares no checked exception
        }
    }

    /**
     * The {@code public static void install(World)} of {@code className}, looked up from this module.
     *
     * @throws IllegalStateException naming {@code className} when there is no such class or method, or it is not
     *     accessible from the world's module
     */
    static MethodHandle find(String className) {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        try {
            return lookup.findStatic(lookup.findClass(className), "install", INSTALL_TYPE);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("a new world installs its builtin systems by calling "
                    + className + ".install(World)" + ", which cannot be found from " + World.class.getModule()
                    + ": the jtecs core on this path is incomplete (" + e + ")", e);
        }
    }
}
