package dev.jtecs.storage.internal;

/**
 * Which columns copy where when a row moves from one archetype to another; computed once per pair of tables
 * and cached on the source.
 *
 * <p>{@code missingPositions} lists the destination component positions the source lacks: the mover must write
 * a value or default into each of them.
 */
final class MovePlan {
    final Table destination;
    final int[] nativeSource;
    final int[] nativeDestination;
    final int[] nativeBytes;
    final int[] heapSource;
    final int[] heapDestination;
    final int[] missingPositions;

    private MovePlan(Table destination, int[] nativeSource, int[] nativeDestination, int[] nativeBytes,
            int[] heapSource, int[] heapDestination, int[] missingPositions) {
        this.destination = destination;
        this.nativeSource = nativeSource;
        this.nativeDestination = nativeDestination;
        this.nativeBytes = nativeBytes;
        this.heapSource = heapSource;
        this.heapDestination = heapDestination;
        this.missingPositions = missingPositions;
    }

    static MovePlan between(Table source, Table destination) {
        int[] dstSignature = destination.signatureUnsafe();
        int nativeCount = 0;
        int heapCount = 0;
        int missing = 0;
        for (int q = 0; q < dstSignature.length; q++) {
            int p = source.position(dstSignature[q]);
            if (p < 0) {
                missing++;
            } else {
                nativeCount += destination.nativeCountAt(q);
                heapCount += destination.heapIndexAt(q) >= 0 ? 1 : 0;
            }
        }
        int[] ns = new int[nativeCount];
        int[] nd = new int[nativeCount];
        int[] nb = new int[nativeCount];
        int[] hs = new int[heapCount];
        int[] hd = new int[heapCount];
        int[] miss = new int[missing];
        int n = 0;
        int h = 0;
        int m = 0;
        for (int q = 0; q < dstSignature.length; q++) {
            int p = source.position(dstSignature[q]);
            if (p < 0) {
                miss[m++] = q;
                continue;
            }
            for (int f = 0; f < destination.nativeCountAt(q); f++) {
                ns[n] = source.nativeStartAt(p) + f;
                nd[n] = destination.nativeStartAt(q) + f;
                nb[n] = destination.nativeKind(nd[n]).byteSize();
                n++;
            }
            if (destination.heapIndexAt(q) >= 0) {
                hs[h] = source.heapIndexAt(p);
                hd[h] = destination.heapIndexAt(q);
                h++;
            }
        }
        return new MovePlan(destination, ns, nd, nb, hs, hd, miss);
    }
}
