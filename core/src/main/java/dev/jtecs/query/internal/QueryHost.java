package dev.jtecs.query.internal;

/** What a query needs from its world: the scope that iteration raises, and the world's checks. */
public interface QueryHost {
    void enterScope();

    void exitScope(boolean publishIfOutermost);

    /** Throws unless the world is open and the calling thread owns it. */
    void checkOpen();

    /** Throws {@link WrongThreadException} unless the calling thread owns the world (closed or not). */
    void checkThread();
}
