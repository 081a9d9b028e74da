package dev.jtecs.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** Test support: compiles an emitted JUnit source as if pasted into stress-tests/src/test/java, and loads it. */
final class EmittedTests {
    private static final Pattern CLASS = Pattern.compile("\\nclass (\\w+) \\{");

    private EmittedTests() {}

    /** Compiles {@code source} against the test class path and returns the script its {@code script()} builds. */
    static ModelScript compileAndLoad(String source, Path dir) throws Exception {
        Matcher matcher = CLASS.matcher(source);
        if (!matcher.find()) {
            throw new AssertionError("no class declaration in\n" + source);
        }
        String name = matcher.group(1);
        Path sources = Files.createDirectories(dir.resolve("src/dev/jtecs/stress"));
        Path classes = Files.createDirectories(dir.resolve("classes"));
        Path file = Files.writeString(sources.resolve(name + ".java"), source);
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        int status = javac.run(null, log, log, "-d", classes.toString(), "-cp", classPath, "-proc:none",
                "-Xlint:all,-options", "-Werror", file.toString());
        assertEquals(0, status, "the emitted test does not compile:\n" + log.toString(StandardCharsets.UTF_8)
                + "\n" + source);
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                EmittedTests.class.getClassLoader())) {
            Class<?> emitted = loader.loadClass("dev.jtecs.stress." + name);
            Method script = emitted.getDeclaredMethod("script");
            script.setAccessible(true);
            return (ModelScript) script.invoke(null);
        }
    }
}
