package dev.jtecs.bench.suite;

import dev.jtecs.bench.results.Impls;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;

/**
 * One row of WORKLOADS.md as the bench command runs it: the JMH class that implements it, which results
 * implementation ({@code impl}) each of its benchmark methods is, which {@code @Param} counts the entities one
 * operation covers, and the parameter values the quick profile narrows to.
 *
 * <p>Invariants, checked on construction: {@code name} is snake_case; {@code impls} maps every public
 * {@code @Benchmark} method of the class, and nothing else, to a distinct valid implementation name
 * ({@link Impls#check}); {@code entitiesParam} is an {@code int} or {@code long} {@code @Param} field of the class;
 * every key of {@code quickParams} is a {@code @Param} field, and every value list is non-empty.
 *
 * @param name the workload's name in WORKLOADS.md and in the results
 * @param benchmark the JMH class: one workload per class
 * @param impls benchmark method name to implementation name, in display order
 * @param entitiesParam the {@code @Param} whose value is the number of entities one operation covers
 * @param perFrame whether one operation is one frame (the table's time/op is then the frame time)
 * @param quickParams {@code @Param} values for the quick profile (those not named keep their defaults)
 */
public record Workload(String name, Class<?> benchmark, Map<String, String> impls, String entitiesParam,
        boolean perFrame, Map<String, List<String>> quickParams) {
    /** A {@code @Param} of this name is the worker count of the pass: the results' {@code threads}, not a label. */
    public static final String THREADS_PARAM = "threads";

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9]*(_[a-z0-9]+)*");

    public Workload {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(benchmark, "benchmark");
        Objects.requireNonNull(entitiesParam, "entitiesParam");
        impls = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(impls));
        quickParams = Map.copyOf(quickParams);
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("workload name='" + name + "' is not snake_case");
        }
        Set<String> methods = new TreeSet<>(benchmarkMethods(benchmark));
        if (!methods.equals(new TreeSet<>(impls.keySet()))) {
            throw new IllegalArgumentException("workload " + name + ": " + benchmark.getSimpleName()
                    + " has @Benchmark methods " + methods + " but impls maps " + new TreeSet<>(impls.keySet()));
        }
        if (new TreeSet<>(impls.values()).size() != impls.size()) {
            throw new IllegalArgumentException("workload " + name + ": two methods share an impl in " + impls);
        }
        impls.values().forEach(Impls::check);
        Field entities = paramField(benchmark, entitiesParam);
        if (entities == null || (entities.getType() != int.class && entities.getType() != long.class)) {
            throw new IllegalArgumentException("workload " + name + ": " + benchmark.getSimpleName()
                    + " has no int or long @Param named " + entitiesParam);
        }
        for (Map.Entry<String, List<String>> e : quickParams.entrySet()) {
            if (paramField(benchmark, e.getKey()) == null || e.getValue().isEmpty()) {
                throw new IllegalArgumentException("workload " + name + ": quick parameter " + e.getKey() + "="
                        + e.getValue() + " is not a @Param of " + benchmark.getSimpleName() + " with values");
            }
        }
    }

    /** A workload whose operation covers {@code entities} entities; no quick narrowing. */
    public static Workload of(String name, Class<?> benchmark, Map<String, String> impls) {
        return new Workload(name, benchmark, impls, "entities", false, Map.of());
    }

    /** The same workload, one operation = one frame. */
    public Workload framed() {
        return new Workload(name, benchmark, impls, entitiesParam, true, quickParams);
    }

    /** The same workload, with {@code param} narrowed to {@code values} in the quick profile. */
    public Workload quick(String param, String... values) {
        Map<String, List<String>> quick = new TreeMap<>(quickParams);
        quick.put(param, List.of(values));
        return new Workload(name, benchmark, impls, entitiesParam, perFrame, quick);
    }

    /** The public {@code @Benchmark} methods of {@code type}, by name. */
    static List<String> benchmarkMethods(Class<?> type) {
        List<String> names = new ArrayList<>();
        for (Method m : type.getMethods()) {
            if (m.isAnnotationPresent(Benchmark.class)) {
                names.add(m.getName());
            }
        }
        names.sort(null);
        return names;
    }

    private static Field paramField(Class<?> type, String param) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (f.getName().equals(param) && f.isAnnotationPresent(Param.class)
                        && !Modifier.isStatic(f.getModifiers())) {
                    return f;
                }
            }
        }
        return null;
    }

    /** The {@code @Param} names of the class, sorted as JMH sorts them. */
    public List<String> paramNames() {
        List<String> names = new ArrayList<>();
        for (Class<?> c = benchmark; c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (f.isAnnotationPresent(Param.class)) {
                    names.add(f.getName());
                }
            }
        }
        names.sort(null);
        return names;
    }

    /** Whether the class declares the {@code @Param} {@code param}. */
    public boolean hasParam(String param) {
        return paramField(benchmark, param) != null;
    }

    /** The Java type of the {@code @Param} {@code param} ({@code int.class}, {@code String.class}, ...). */
    public Class<?> paramType(String param) {
        Field f = paramField(benchmark, param);
        if (f == null) {
            throw new IllegalArgumentException("workload " + name + " has no parameter " + param);
        }
        return f.getType();
    }

    /** The values the class declares for {@code param}. */
    public List<String> defaultValues(String param) {
        Field f = paramField(benchmark, param);
        if (f == null) {
            throw new IllegalArgumentException("workload " + name + " has no parameter " + param);
        }
        return Arrays.asList(f.getAnnotation(Param.class).value());
    }

    /**
     * The parameter values a run uses: {@code overrides} where they name one of this class's parameters, else the
     * quick values when {@code quick}, else the declared ones. Keys sorted.
     */
    public Map<String, List<String>> effectiveParams(boolean quick, Map<String, List<String>> overrides) {
        Map<String, List<String>> params = new TreeMap<>();
        for (String p : paramNames()) {
            List<String> values = overrides.containsKey(p) ? overrides.get(p)
                    : quick && quickParams.containsKey(p) ? quickParams.get(p)
                    : defaultValues(p);
            params.put(p, List.copyOf(values));
        }
        return params;
    }

    /** How many benchmarks (method and parameter combinations) a run with these parameter values makes. */
    public int benchmarkCount(Map<String, List<String>> params) {
        int count = impls.size();
        for (List<String> values : params.values()) {
            count *= values.size();
        }
        return count;
    }

    /**
     * A wall-time estimate of this workload's benchmarks with these parameter values: {@link Profile#estimate}
     * for the benchmarks of each entity count, added up.
     */
    public java.time.Duration estimate(Profile profile, Map<String, List<String>> params, double contention) {
        List<String> sizes = params.getOrDefault(entitiesParam, List.of());
        int count = benchmarkCount(params);
        if (sizes.isEmpty()) {
            return profile.estimate(count, 0, contention);
        }
        java.time.Duration total = java.time.Duration.ZERO;
        for (String size : sizes) {
            total = total.plus(profile.estimate(count / sizes.size(), Long.parseLong(size.strip()), contention));
        }
        return total;
    }

    /** The JMH include pattern that selects exactly this class's benchmarks. */
    public String includePattern() {
        return "^" + Pattern.quote(benchmark.getName() + ".") + "\\w+$";
    }

    /**
     * The results' workload label for one parameter combination: the name, then every parameter but the entity
     * count as {@code [name=value,...]} in sorted order, such as {@code move_whole_archetype[destination=empty]}.
     */
    public String label(Map<String, String> params) {
        StringBuilder extra = new StringBuilder();
        new TreeMap<>(params).forEach((k, v) -> {
            if (!k.equals(entitiesParam) && !k.equals(THREADS_PARAM)) {
                extra.append(extra.isEmpty() ? "" : ",").append(k).append('=').append(v);
            }
        });
        return extra.isEmpty() ? name : name + "[" + extra + "]";
    }
}
