package dev.jtecs.bench.peers;

/**
 * The workload components as each peer engine expects them: plain objects for Dominion, {@code Component}
 * subclasses for Artemis-odb (which pools them per type) and {@code Component} implementations for Ashley.
 * Fields are mutable where the peer's idiom is to fill a component in place.
 */
public final class PeerComponents {
    private PeerComponents() {}

    /** Dominion: any object is a component; mutable so systems update it in place. */
    public static final class DominionPosition {
        public float x;
        public float y;

        public DominionPosition(float x, float y) {
            this.x = x;
            this.y = y;
        }
    }

    /** Dominion velocity. */
    public static final class DominionVelocity {
        public float x;
        public float y;

        public DominionVelocity(float x, float y) {
            this.x = x;
            this.y = y;
        }
    }

    /** Dominion mass (the third component of {@code iterate_read}). */
    public static final class DominionMass {
        public float m;

        public DominionMass(float m) {
            this.m = m;
        }
    }

    /** Artemis-odb mass. */
    public static final class ArtemisMass extends com.artemis.Component {
        public float m;
    }

    /** Ashley mass. */
    public static final class AshleyMass implements com.badlogic.ashley.core.Component {
        public float m;
    }

    /** Dominion: a tag is an instance of an empty class; one shared instance serves every entity. */
    public static final class DominionTag {
        public static final DominionTag INSTANCE = new DominionTag();
    }

    /** Artemis-odb: components extend {@code Component} and are created (pooled) by a mapper. */
    public static final class ArtemisPosition extends com.artemis.Component {
        public float x;
        public float y;
    }

    /** Artemis-odb velocity. */
    public static final class ArtemisVelocity extends com.artemis.Component {
        public float x;
        public float y;
    }

    /** Artemis-odb: a tag is a field-less component created and removed through its mapper. */
    public static final class ArtemisTag extends com.artemis.Component {}

    /** Ashley: components implement {@code Component}; one instance per entity. */
    public static final class AshleyPosition implements com.badlogic.ashley.core.Component {
        public float x;
        public float y;
    }

    /** Ashley velocity. */
    public static final class AshleyVelocity implements com.badlogic.ashley.core.Component {
        public float x;
        public float y;
    }

    /** Ashley: a tag instance carries no state, so one shared instance serves every entity. */
    public static final class AshleyTag implements com.badlogic.ashley.core.Component {
        public static final AshleyTag INSTANCE = new AshleyTag();
    }

    /** Dominion lifetime (the {@code particles} workload): seconds to live, and the lifetime it started with. */
    public static final class DominionLifetime {
        public double startingTime;
        public double remaining;

        public DominionLifetime(double startingTime, double remaining) {
            this.startingTime = startingTime;
            this.remaining = remaining;
        }
    }

    /** Artemis-odb lifetime. */
    public static final class ArtemisLifetime extends com.artemis.Component {
        public double startingTime;
        public double remaining;
    }

    /** Ashley lifetime. */
    public static final class AshleyLifetime implements com.badlogic.ashley.core.Component {
        public double startingTime;
        public double remaining;
    }
}
