package dev.jtecs.nativebindings;

import static org.lwjgl.opengl.GL33C.*;

import dev.jtecs.component.FieldHandle;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Objects;

/**
 * Draws every row a {@link DirtyUploader} mirrors as one point, straight from its {@link GlColumnBuffers}: each
 * field is a vertex attribute read from its own buffer, and the regions (one per archetype) are drawn by one
 * {@code glMultiDrawArrays}, so the rows past an archetype's count inside its region are never drawn.
 *
 * <pre>
 *   GlColumnBuffers: [x ....][y ....][colour ....][divisor ....]   one buffer per field, region rows alike
 *        │ attribute 0..3 (float, double, int ... converted to float by GL)
 *        ▼
 *   vertex shader: position = (x, y) in the view rectangle; t = colour (/ divisor) mapped to [0, 1]
 *   fragment shader: t ──► dark red ─ orange ─ pale yellow
 * </pre>
 *
 * @implNote Needs the current context of the {@link GlContext} it was made in. The first and count arrays of the
 *     multi-draw are native, grown by doubling and refilled each draw from the uploader's regions: a warm draw
 *     allocates nothing on the heap.
 */
public final class PointRenderer implements AutoCloseable {
    private static final String VERTEX = """
            #version 330 core
            layout(location = 0) in float x;
            layout(location = 1) in float y;
            layout(location = 2) in float colour;
            layout(location = 3) in float divisor;
            uniform vec4 view;        // centre x, centre y, half width, half height
            uniform vec2 colourRange; // min, max
            uniform bool divide;
            uniform float pointSize;
            out float t;
            void main() {
                gl_Position = vec4((x - view.x) / view.z, (y - view.y) / view.w, 0.0, 1.0);
                float value = divide ? colour / max(divisor, 1e-6) : colour;
                t = clamp((value - colourRange.x) / (colourRange.y - colourRange.x), 0.0, 1.0);
                gl_PointSize = pointSize;
            }
            """;
    private static final String FRAGMENT = """
            #version 330 core
            in float t;
            out vec4 fragColour;
            void main() {
                vec3 low = vec3(0.45, 0.05, 0.08);
                vec3 mid = vec3(1.0, 0.45, 0.05);
                vec3 high = vec3(1.0, 0.95, 0.6);
                vec3 rgb = t < 0.5 ? mix(low, mid, t * 2.0) : mix(mid, high, t * 2.0 - 1.0);
                fragColour = vec4(rgb, 1.0);
            }
            """;

    private final DirtyUploader uploader;
    private final GlColumnBuffers buffers;
    private final PointStyle style;
    private final int[] attributeField = new int[4]; // uploader field index of attributes 0..3 (-1: none)
    private final int program;
    private final int vertexArray;
    private final int viewLocation;
    private final Arena arena = Arena.ofConfined();
    private MemorySegment firsts;
    private MemorySegment counts;
    private int drawCapacity;
    private boolean attributesStale = true;
    private boolean closed;

    /**
     * A renderer of {@code style} reading the buffers {@code uploader} fills; every field of the style must be
     * one of the uploader's.
     *
     * @throws IllegalArgumentException when a style field is not uploaded
     * @throws IllegalStateException when a shader does not compile or link (the message holds the driver's log)
     */
    public PointRenderer(DirtyUploader uploader, GlColumnBuffers buffers, PointStyle style) {
        this.uploader = Objects.requireNonNull(uploader, "uploader");
        this.buffers = Objects.requireNonNull(buffers, "buffers");
        this.style = Objects.requireNonNull(style, "style");
        List<FieldHandle> uploaded = uploader.fields();
        FieldHandle[] attributes = {style.x(), style.y(), style.colour(), style.colourDivisor()};
        for (int a = 0; a < attributes.length; a++) {
            attributeField[a] = attributes[a] == null ? -1 : uploaded.indexOf(attributes[a]);
            if (attributes[a] != null && attributeField[a] < 0) {
                throw new IllegalArgumentException("field " + attributes[a].name() + " of "
                        + attributes[a].component().name() + " is drawn but not uploaded; uploaded: " + uploaded);
            }
        }
        buffers.onGrow(field -> attributesStale = true);
        this.program = link(compile(GL_VERTEX_SHADER, VERTEX), compile(GL_FRAGMENT_SHADER, FRAGMENT));
        this.vertexArray = glGenVertexArrays();
        glUseProgram(program);
        this.viewLocation = glGetUniformLocation(program, "view");
        glUniform4f(viewLocation, style.centreX(), style.centreY(), style.halfWidth(), style.halfHeight());
        glUniform2f(glGetUniformLocation(program, "colourRange"), style.colourMin(), style.colourMax());
        glUniform1i(glGetUniformLocation(program, "divide"), style.colourDivisor() == null ? 0 : 1);
        glUniform1f(glGetUniformLocation(program, "pointSize"), style.pointSize());
        glUseProgram(0);
        ensureDrawCapacity(64);
    }

    /** Clears the bound framebuffer's {@code width} by {@code height} viewport to near-black and draws every row. */
    public void draw(int width, int height) {
        if (closed) {
            throw new IllegalStateException("point renderer is closed");
        }
        glViewport(0, 0, width, height);
        glClearColor(0.02f, 0.02f, 0.05f, 1f);
        glClear(GL_COLOR_BUFFER_BIT);
        glUseProgram(program);
        glBindVertexArray(vertexArray);
        if (attributesStale) {
            bindAttributes();
        }
        glEnable(GL_PROGRAM_POINT_SIZE);
        int regions = uploader.regionCount();
        ensureDrawCapacity(regions);
        int draws = 0;
        for (int r = 0; r < regions; r++) {
            int rows = uploader.regionRowCount(r);
            if (rows > 0) {
                firsts.setAtIndex(ValueLayout.JAVA_INT, draws, Math.toIntExact(uploader.regionBase(r)));
                counts.setAtIndex(ValueLayout.JAVA_INT, draws, rows);
                draws++;
            }
        }
        if (draws > 0) {
            nglMultiDrawArrays(GL_POINTS, firsts.address(), counts.address(), draws);
        }
        glBindVertexArray(0);
        glUseProgram(0);
    }

    /** Points every attribute at its field's current buffer (after a buffer grew, it is a new object). */
    private void bindAttributes() {
        List<FieldHandle> uploaded = uploader.fields();
        for (int a = 0; a < attributeField.length; a++) {
            int f = attributeField[a];
            if (f < 0) {
                glDisableVertexAttribArray(a);
                glVertexAttrib1f(a, 1f);
                continue;
            }
            glBindBuffer(GL_ARRAY_BUFFER, buffers.buffer(f));
            glVertexAttribPointer(a, 1, glType(uploaded.get(f)), false, 0, 0L);
            glEnableVertexAttribArray(a);
        }
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        attributesStale = false;
    }

    private static int glType(FieldHandle field) {
        return switch (PointStyle.kind(field)) {
            case BYTE -> GL_BYTE;
            case SHORT -> GL_SHORT;
            case INT -> GL_INT;
            case FLOAT -> GL_FLOAT;
            case DOUBLE -> GL_DOUBLE;
            default -> throw new IllegalArgumentException("field " + field.name() + " cannot be drawn");
        };
    }

    private void ensureDrawCapacity(int regions) {
        if (regions <= drawCapacity) {
            return;
        }
        int capacity = Math.max(regions, drawCapacity * 2);
        firsts = arena.allocate(ValueLayout.JAVA_INT, capacity);
        counts = arena.allocate(ValueLayout.JAVA_INT, capacity);
        drawCapacity = capacity;
    }

    private static int compile(int type, String source) {
        int shader = glCreateShader(type);
        glShaderSource(shader, source);
        glCompileShader(shader);
        if (glGetShaderi(shader, GL_COMPILE_STATUS) != GL_TRUE) {
            String log = glGetShaderInfoLog(shader);
            glDeleteShader(shader);
            throw new IllegalStateException("shader did not compile: " + log);
        }
        return shader;
    }

    private static int link(int vertex, int fragment) {
        int program = glCreateProgram();
        glAttachShader(program, vertex);
        glAttachShader(program, fragment);
        glLinkProgram(program);
        glDeleteShader(vertex);
        glDeleteShader(fragment);
        if (glGetProgrami(program, GL_LINK_STATUS) != GL_TRUE) {
            String log = glGetProgramInfoLog(program);
            glDeleteProgram(program);
            throw new IllegalStateException("shader program did not link: " + log);
        }
        return program;
    }

    public PointStyle style() {
        return style;
    }

    /** Deletes the program and the vertex array and frees the draw arrays; closing twice does nothing. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            glDeleteVertexArrays(vertexArray);
            glDeleteProgram(program);
            arena.close();
        }
    }
}
