package dev.jtecs.query.internal;

/** What a query needs from its world: the scopes that iteration raises, and the world's checks. */
public interface QueryHost {
    /** Opens the scope of a visit ({@code forEach}): no {@code unwind()} closes it before {@link #exitScope}. */
    void enterScope();

    void exitScope(boolean publishIfOutermost);

    /** Opens a cursor's scope (an {@code unwind()} closes it); returns the token {@link #closeCursorScope} takes. */
    int openCursorScope();

    /** Closes a cursor's scope, unless an {@code unwind()} closed it already. */
    void closeCursorScope(int token);

    /** Throws unless the world is open and the calling thread owns it. */
    void checkOpen();

    /** Throws {@link WrongThreadException} unless the calling thread owns the world (closed or not). */
    void checkThread();
}
