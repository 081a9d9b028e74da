package dev.jtecs.bench.peers;

/**
 * Twenty-six distinct tag types per peer engine for the fragmented workloads ({@code integrate_frag}): each
 * entity carries one of them, which splits the population over 26 archetypes (or 26 composition variants).
 * They are plain empty types, one per letter (written out by a script: Java has no way to mint types).
 */
public final class PeerTags {
    private PeerTags() {}
    public static final class DominionA {}
    public static final class DominionB {}
    public static final class DominionC {}
    public static final class DominionD {}
    public static final class DominionE {}
    public static final class DominionF {}
    public static final class DominionG {}
    public static final class DominionH {}
    public static final class DominionI {}
    public static final class DominionJ {}
    public static final class DominionK {}
    public static final class DominionL {}
    public static final class DominionM {}
    public static final class DominionN {}
    public static final class DominionO {}
    public static final class DominionP {}
    public static final class DominionQ {}
    public static final class DominionR {}
    public static final class DominionS {}
    public static final class DominionT {}
    public static final class DominionU {}
    public static final class DominionV {}
    public static final class DominionW {}
    public static final class DominionX {}
    public static final class DominionY {}
    public static final class DominionZ {}
    public static final class ArtemisA extends com.artemis.Component {}
    public static final class ArtemisB extends com.artemis.Component {}
    public static final class ArtemisC extends com.artemis.Component {}
    public static final class ArtemisD extends com.artemis.Component {}
    public static final class ArtemisE extends com.artemis.Component {}
    public static final class ArtemisF extends com.artemis.Component {}
    public static final class ArtemisG extends com.artemis.Component {}
    public static final class ArtemisH extends com.artemis.Component {}
    public static final class ArtemisI extends com.artemis.Component {}
    public static final class ArtemisJ extends com.artemis.Component {}
    public static final class ArtemisK extends com.artemis.Component {}
    public static final class ArtemisL extends com.artemis.Component {}
    public static final class ArtemisM extends com.artemis.Component {}
    public static final class ArtemisN extends com.artemis.Component {}
    public static final class ArtemisO extends com.artemis.Component {}
    public static final class ArtemisP extends com.artemis.Component {}
    public static final class ArtemisQ extends com.artemis.Component {}
    public static final class ArtemisR extends com.artemis.Component {}
    public static final class ArtemisS extends com.artemis.Component {}
    public static final class ArtemisT extends com.artemis.Component {}
    public static final class ArtemisU extends com.artemis.Component {}
    public static final class ArtemisV extends com.artemis.Component {}
    public static final class ArtemisW extends com.artemis.Component {}
    public static final class ArtemisX extends com.artemis.Component {}
    public static final class ArtemisY extends com.artemis.Component {}
    public static final class ArtemisZ extends com.artemis.Component {}
    public static final class AshleyA implements com.badlogic.ashley.core.Component {}
    public static final class AshleyB implements com.badlogic.ashley.core.Component {}
    public static final class AshleyC implements com.badlogic.ashley.core.Component {}
    public static final class AshleyD implements com.badlogic.ashley.core.Component {}
    public static final class AshleyE implements com.badlogic.ashley.core.Component {}
    public static final class AshleyF implements com.badlogic.ashley.core.Component {}
    public static final class AshleyG implements com.badlogic.ashley.core.Component {}
    public static final class AshleyH implements com.badlogic.ashley.core.Component {}
    public static final class AshleyI implements com.badlogic.ashley.core.Component {}
    public static final class AshleyJ implements com.badlogic.ashley.core.Component {}
    public static final class AshleyK implements com.badlogic.ashley.core.Component {}
    public static final class AshleyL implements com.badlogic.ashley.core.Component {}
    public static final class AshleyM implements com.badlogic.ashley.core.Component {}
    public static final class AshleyN implements com.badlogic.ashley.core.Component {}
    public static final class AshleyO implements com.badlogic.ashley.core.Component {}
    public static final class AshleyP implements com.badlogic.ashley.core.Component {}
    public static final class AshleyQ implements com.badlogic.ashley.core.Component {}
    public static final class AshleyR implements com.badlogic.ashley.core.Component {}
    public static final class AshleyS implements com.badlogic.ashley.core.Component {}
    public static final class AshleyT implements com.badlogic.ashley.core.Component {}
    public static final class AshleyU implements com.badlogic.ashley.core.Component {}
    public static final class AshleyV implements com.badlogic.ashley.core.Component {}
    public static final class AshleyW implements com.badlogic.ashley.core.Component {}
    public static final class AshleyX implements com.badlogic.ashley.core.Component {}
    public static final class AshleyY implements com.badlogic.ashley.core.Component {}
    public static final class AshleyZ implements com.badlogic.ashley.core.Component {}

    /** The Dominion tag types in letter order. */
    public static final Class<?>[] DOMINION = {
        DominionA.class, DominionB.class, DominionC.class, DominionD.class, DominionE.class, DominionF.class,
        DominionG.class, DominionH.class, DominionI.class, DominionJ.class, DominionK.class, DominionL.class,
        DominionM.class, DominionN.class, DominionO.class, DominionP.class, DominionQ.class, DominionR.class,
        DominionS.class, DominionT.class, DominionU.class, DominionV.class, DominionW.class, DominionX.class,
        DominionY.class, DominionZ.class
    };

    /** The Artemis-odb tag types in letter order. */
    @SuppressWarnings("unchecked")
    public static final Class<? extends com.artemis.Component>[] ARTEMIS = (Class<? extends com.artemis.Component>[])
            new Class<?>[] {
        ArtemisA.class, ArtemisB.class, ArtemisC.class, ArtemisD.class, ArtemisE.class, ArtemisF.class,
        ArtemisG.class, ArtemisH.class, ArtemisI.class, ArtemisJ.class, ArtemisK.class, ArtemisL.class,
        ArtemisM.class, ArtemisN.class, ArtemisO.class, ArtemisP.class, ArtemisQ.class, ArtemisR.class,
        ArtemisS.class, ArtemisT.class, ArtemisU.class, ArtemisV.class, ArtemisW.class, ArtemisX.class,
        ArtemisY.class, ArtemisZ.class
    };

    /** The Ashley tag types in letter order. */
    @SuppressWarnings("unchecked")
    public static final Class<? extends com.badlogic.ashley.core.Component>[] ASHLEY =
            (Class<? extends com.badlogic.ashley.core.Component>[]) new Class<?>[] {
        AshleyA.class, AshleyB.class, AshleyC.class, AshleyD.class, AshleyE.class, AshleyF.class, AshleyG.class,
        AshleyH.class, AshleyI.class, AshleyJ.class, AshleyK.class, AshleyL.class, AshleyM.class, AshleyN.class,
        AshleyO.class, AshleyP.class, AshleyQ.class, AshleyR.class, AshleyS.class, AshleyT.class, AshleyU.class,
        AshleyV.class, AshleyW.class, AshleyX.class, AshleyY.class, AshleyZ.class
    };
}
