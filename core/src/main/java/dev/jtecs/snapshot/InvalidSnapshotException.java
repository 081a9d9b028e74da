package dev.jtecs.snapshot;

/**
 * A snapshot that cannot be loaded: bad framing (magic, version, lengths, checksums), an inconsistent or hostile
 * layout (counts, ids, duplicates), a component this process does not know or whose layout or codec changed
 * incompatibly, or a state, phase or random payload the world cannot take. Raised before the world changes
 * anything; the message names what is wrong and where ({@code archetype 2, component game.Velocity: ...}).
 */
public final class InvalidSnapshotException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidSnapshotException(String message) {
        super(message);
    }

    public InvalidSnapshotException(String message, Throwable cause) {
        super(message, cause);
    }
}
