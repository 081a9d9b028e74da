package dev.jtecs.stress;

import dev.jtecs.component.Component;
import dev.jtecs.component.ComponentValue;
import dev.jtecs.component.Input;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Writes scripts as Java source: palette inputs and values as literals, and a whole {@link ModelScript} as a
 * standalone JUnit 5 test class for {@code stress-tests/src/test/java/dev/jtecs/stress}.
 *
 * <p>Invariant: every literal reads back equal ({@code Float.toString} and {@code Double.toString} round-trip
 * exactly; strings are escaped), so the emitted test builds a script equal to the one it was written from.
 */
public final class ModelSource {
    /** Each public component constant of {@link ModelComponents}, by identity. */
    private static final Map<Component<?>, String> CONSTANTS = new IdentityHashMap<>();

    static {
        for (Field field : ModelComponents.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && Component.class.isAssignableFrom(field.getType())) {
                try {
                    CONSTANTS.putIfAbsent((Component<?>) field.get(null), field.getName());
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("cannot read ModelComponents." + field.getName(), e);
                }
            }
        }
    }

    private ModelSource() {}

    /** The name of a palette component's constant in {@link ModelComponents}. */
    public static String constant(Component<?> component) {
        String name = CONSTANTS.get(component);
        if (name == null) {
            throw new IllegalArgumentException("component " + component.name() + " is not a ModelComponents constant");
        }
        return name;
    }

    /** A palette input: a definition's constant, or {@code CONSTANT.of(value)}. */
    public static String input(Input input) {
        if (input instanceof Component<?> component) {
            return constant(component);
        }
        if (input instanceof ComponentValue<?> value) {
            return constant(value.component()) + ".of(" + value(value.value()) + ")";
        }
        throw new IllegalArgumentException("not a palette input: " + input);
    }

    /** A list of components, or {@code null}. */
    public static String components(List<Component<?>> components) {
        if (components == null) {
            return "null";
        }
        StringJoiner joined = new StringJoiner(", ", "List.of(", ")");
        components.forEach(c -> joined.add(constant(c)));
        return joined.toString();
    }

    /** A value literal: primitives, strings, lists of strings and records of those (constructed by simple name). */
    public static String value(Object value) {
        return switch (value) {
            case null -> "null";
            case Float f -> Float.toString(f) + "f";
            case Double d -> Double.toString(d);
            case Long l -> l + "L";
            case Integer i -> Integer.toString(i);
            case Short s -> "(short) " + s;
            case Byte b -> "(byte) " + b;
            case Character c -> "(char) " + (int) c;
            case Boolean b -> Boolean.toString(b);
            case String s -> string(s);
            case List<?> list -> {
                StringJoiner joined = new StringJoiner(", ", "List.of(", ")");
                list.forEach(element -> joined.add(value(element)));
                yield joined.toString();
            }
            case Record record -> record(record);
            default -> throw new IllegalArgumentException("no literal for " + value.getClass().getName());
        };
    }

    private static String record(Record record) {
        StringJoiner args = new StringJoiner(", ", "new " + record.getClass().getSimpleName() + "(", ")");
        for (RecordComponent component : record.getClass().getRecordComponents()) {
            try {
                args.add(value(component.getAccessor().invoke(record)));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot read " + component.getName() + " of " + record, e);
            }
        }
        return args.toString();
    }

    /** A Java string literal. */
    public static String string(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"', '\\' -> sb.append('\\').append(c);
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c >= 0x20 && c < 0x7f) {
                        sb.append(c);
                    } else if (c < 0x20) {
                        sb.append(String.format("\\%03o", (int) c)); // octal: a unicode escape of a line end would end the line
                    } else {
                        sb.append(String.format("\\u%04x", (int) c));
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    /** The class name an emitted test for this seed takes ({@code ModelSeed42Test}, {@code ModelSeedM7Test}). */
    public static String className(long seed) {
        return "ModelSeed" + (seed < 0 ? "M" + Long.toUnsignedString(-seed) : Long.toString(seed)) + "Test";
    }

    /**
     * A standalone JUnit 5 test class that replays the script against a fresh world and reference; it fails
     * (with a {@link ModelMismatch}) exactly while the engine and the reference disagree on it. {@code note}
     * (the mismatch it was shrunk from, say) goes into the class comment.
     */
    public static String junit(ModelScript script, String note) {
        String name = className(script.seed());
        StringBuilder sb = new StringBuilder();
        sb.append("package dev.jtecs.stress;\n\n")
                .append("import static dev.jtecs.stress.ModelComponents.*;\n")
                .append("import static dev.jtecs.stress.ModelOp.*;\n\n")
                .append("import java.util.List;\n")
                .append("import org.junit.jupiter.api.Test;\n\n")
                .append("/**\n * Replays model seed ").append(script.seed()).append(" (")
                .append(script.instant() ? "instant" : "staged").append(" path, relationships ")
                .append(script.relational() ? "on" : "off").append(script.observed() ? "" : ", unobserved")
                .append("), ").append(script.ops().size())
                .append(" operations.\n");
        for (String line : note == null ? List.<String>of() : note.lines().limit(12).toList()) {
            sb.append(" * ").append(line.replace("*/", "* /").replace("\\u", "\\\\u")).append('\n');
        }
        sb.append(" */\nclass ").append(name).append(" {\n")
                .append("    static ModelScript script() {\n")
                .append("        return new ModelScript(").append(script.seed()).append("L, ")
                .append(script.instant()).append(", ").append(script.relational())
                .append(script.observed() ? "" : ", false").append(", List.of(");
        for (int i = 0; i < script.ops().size(); i++) {
            sb.append(i == 0 ? "\n" : ",\n").append("                ").append(script.ops().get(i).toJava());
        }
        sb.append("));\n    }\n\n")
                .append("    @Test\n")
                .append("    void engineMatchesReferenceOnThisScript() {\n")
                .append("        new ModelRun(script()).run(); // throws ModelMismatch where they disagree\n")
                .append("    }\n}\n");
        return sb.toString();
    }
}
