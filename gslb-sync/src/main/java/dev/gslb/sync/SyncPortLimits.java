package dev.gslb.sync;

import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;

/**
 * How many connections the sync port holds (docs/security.md "Peer sync"), each checked at accept:
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
    public static final Setting<Integer> MAX_CONNECTIONS = Setting.integer(
            "max-connections", 256, 1, 100_000, "all the sync port's connections; more are closed at accept");
    public static final Setting<Integer> MAX_HANDSHAKES =
            Setting.integer("max-handshakes", 64, 1, 100_000, "from unknown sources, in their handshake at once");
    public static final Setting<Integer> MAX_HANDSHAKES_PER_SOURCE =
            Setting.integer("max-handshakes-per-source", 8, 1, 100_000, "of those, from one address (IPv6: one /64)");
    public static final Setting<Integer> PEER_HANDSHAKES =
            Setting.integer("peer-handshakes", 4, 1, 64, "slots of its own for each address a paired peer is known by");

    public static final SettingsTable<SyncPortLimits> SETTINGS = SettingsTable.of(
            SyncPortLimits.class, MAX_CONNECTIONS, MAX_HANDSHAKES, MAX_HANDSHAKES_PER_SOURCE, PEER_HANDSHAKES);

    public static final SyncPortLimits DEFAULTS = SETTINGS.defaults();

    /** The limits' own rule, across keys (each key's range is its {@link Setting}'s). */
    public SyncPortLimits {
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
