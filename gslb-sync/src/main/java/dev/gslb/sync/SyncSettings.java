package dev.gslb.sync;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Peer sync settings (README "Peer sync" has the defaults).
 *
 * @param listen       where peers connect to this instance
 * @param advertise    the addresses peers should use, one per ISP link, in preference order
 * @param peersFile    where paired peers and their keys are kept (mode 600)
 * @param heartbeat    how often each side shows it is alive
 * @param deadAfter    a connection silent this long is dropped and redialled
 * @param pathTtl      TTL sent with path updates
 * @param healthTtl    TTL sent with health views (they are re-sent every heartbeat)
 * @param probeTtl     TTL of a probe request
 * @param queue        per-peer queue of items waiting to be sent; overflow is dropped and healed by a snapshot
 */
public record SyncSettings(List<InetSocketAddress> listen, List<InetSocketAddress> advertise, Path peersFile,
                           Duration heartbeat, Duration deadAfter, Duration pathTtl, Duration healthTtl,
                           Duration probeTtl, int queue) {
    public SyncSettings {
        listen = List.copyOf(listen);
        advertise = List.copyOf(advertise.isEmpty() ? listen : advertise);
    }

    /** The same settings listening (and advertising) elsewhere. */
    public SyncSettings listeningOn(List<InetSocketAddress> addresses) {
        return new SyncSettings(addresses, List.of(), peersFile, heartbeat, deadAfter, pathTtl, healthTtl, probeTtl, queue);
    }

    /** The same settings keeping the peers in another file. */
    public SyncSettings withPeersFile(Path file) {
        return new SyncSettings(listen, advertise, file, heartbeat, deadAfter, pathTtl, healthTtl, probeTtl, queue);
    }
}
