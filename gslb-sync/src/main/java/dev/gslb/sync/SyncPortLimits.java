package dev.gslb.sync;

import dev.gslb.settings.Bounds;

/**
 * How many connections the sync port holds (README "The sync port"), each checked at accept:
 * over a limit, the connection is closed at once, before any byte is read.
 *
 * @param maxConnections         all the port's connections, authenticated ones included: far below the
 *                               descriptor limit, so the sync port can never use up the process's descriptors
 * @param maxHandshakes          connections from unknown sources in their handshake at once
 * @param maxHandshakesPerSource of those, from one address (an IPv6 source counts by its /64)
 * @param peerHandshakes         slots of its own for each address a paired peer is known by (its advertised
 *                               addresses and those it has connected from): strangers cannot fill them
 */
public record SyncPortLimits(int maxConnections, int maxHandshakes, int maxHandshakesPerSource, int peerHandshakes) {
    public static final SyncPortLimits DEFAULTS = new SyncPortLimits(256, 64, 8, 4);

    public SyncPortLimits {
        Bounds.within("max-connections", maxConnections, 1, 100_000);
        Bounds.within("max-handshakes", maxHandshakes, 1, 100_000);
        Bounds.within("max-handshakes-per-source", maxHandshakesPerSource, 1, 100_000);
        Bounds.within("peer-handshakes", peerHandshakes, 1, 64);
        if (maxHandshakes > maxConnections || maxHandshakesPerSource > maxHandshakes) {
            throw new IllegalArgumentException("sync max-handshakes-per-source (" + maxHandshakesPerSource
                    + ") must not exceed max-handshakes (" + maxHandshakes + "), nor that max-connections ("
                    + maxConnections + ")");
        }
    }

    /** The same limits with {@code max} handshakes from unknown sources (and as many from one). */
    SyncPortLimits withMaxHandshakes(int max) {
        return new SyncPortLimits(
                Math.max(maxConnections, max), max, Math.min(maxHandshakesPerSource, max), peerHandshakes);
    }
}
