package dev.jtecs.component.lookupfixture;

import java.lang.invoke.MethodHandles;

/**
 * The one public class of the fixture module that {@code ComponentsTest} defines at run time (a named module that
 * exports this package and opens nothing): it hands out the module's lookup and builds its package-private records,
 * which the core cannot reach by deep reflection.
 */
public final class Hand {
    private Hand() {
    }

    /** The module's own full-privilege lookup, as a consumer passes it to {@code Components.register}. */
    public static MethodHandles.Lookup lookup() {
        return MethodHandles.lookup();
    }

    /** A {@link Secret}: a record of primitives, so a native component. */
    public static Object secret(float x, int n) {
        return new Secret(x, n);
    }

    /** A {@link Follows} edge to {@code target}. */
    public static Object follows(long target, float weight) {
        return new Follows(target, weight);
    }

    /** A {@link Bag}: a record with a reference field, so a managed component. */
    public static Object bag(String name, int count) {
        return new Bag(name, count);
    }
}
