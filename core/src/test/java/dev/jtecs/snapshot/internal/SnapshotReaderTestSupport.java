package dev.jtecs.snapshot.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Test support: a deep copy of a table snapshot's tree, to edit one copy per case. */
final class SnapshotReaderTestSupport {
    private SnapshotReaderTestSupport() {
    }

    static Object deepCopy(Object value) {
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            for (Object element : list) {
                out.add(deepCopy(element));
            }
            return out;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put((String) k, deepCopy(v)));
            return out;
        }
        return value;
    }
}
