package dev.jtecs.bench.frame;

import dev.jtecs.component.FieldHandle;
import dev.jtecs.storage.Archetype;
import dev.jtecs.storage.Column;
import java.lang.foreign.MemorySegment;

/** Typed-handle plumbing shared by the extractor and the checksum: one field's column, whatever its type. */
final class Columns {
    private Columns() {}

    /** The read view of {@code field}'s column in {@code archetype} (marks nothing), or {@code null} if absent. */
    static Column read(Archetype archetype, FieldHandle field) {
        return archetype.column(field);
    }

    /** The segment of {@code field}'s column in {@code archetype}, which must hold the field's component. */
    static MemorySegment segment(Archetype archetype, FieldHandle field) {
        Column column = read(archetype, field);
        if (column == null) {
            throw new IllegalArgumentException("archetype " + archetype + " has no column " + field.name() + " of "
                    + field.component().name());
        }
        return column.segment();
    }

    /** The bytes one row of {@code field} takes. */
    static int elementBytes(FieldHandle field) {
        return field.component().layout().fieldKinds().get(field.field()).byteSize();
    }
}
