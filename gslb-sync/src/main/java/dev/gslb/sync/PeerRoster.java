package dev.gslb.sync;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The paired peers, one {@link PeerLink} to each, and the peers file that keeps them across
 * restarts. The links are also kept as a list replaced on every change, which the querying
 * thread walks by index, allocating nothing.
 */
final class PeerRoster {
    private static final Logger log = LoggerFactory.getLogger(PeerSync.class);

    private final Path peersFile;
    private final Map<String, PeerLink> links = new ConcurrentHashMap<>();
    private volatile List<PeerLink> list = List.of();

    PeerRoster(Path peersFile) {
        this.peersFile = peersFile;
    }

    /** The links now, as one immutable list. */
    List<PeerLink> list() {
        return list;
    }

    Collection<PeerLink> all() {
        return links.values();
    }

    PeerLink get(String name) {
        return links.get(name);
    }

    /** Puts {@code link} in the place of its peer's; the one it replaces is closed. */
    synchronized void put(PeerLink link) {
        PeerLink old = links.put(link.peer().name(), link);
        list = List.copyOf(links.values());
        if (old != null) {
            old.close();
        }
    }

    /** Takes out {@code name}'s link if it is still {@code link} (a join that failed). */
    synchronized void withdraw(String name, PeerLink link) {
        links.remove(name, link);
        list = List.copyOf(links.values());
    }

    /** Takes out {@code name}'s link and saves the rest; null when there was none. */
    synchronized PeerLink remove(String name) {
        PeerLink link = links.remove(name);
        if (link != null) {
            list = List.copyOf(links.values());
            save(peers());
        }
        return link;
    }

    /** Saves {@code peer} in the place of its older self, with the others. */
    synchronized void save(Peer peer) {
        List<Peer> peers =
                new ArrayList<>(peers().stream().filter(p -> !p.equals(peer)).toList());
        peers.add(peer);
        save(peers);
    }

    List<Peer> peers() {
        return links.values().stream().map(PeerLink::peer).toList();
    }

    Peer byFingerprint(String fingerprint) {
        for (PeerLink l : links.values()) {
            if (l.peer().fingerprint().equals(fingerprint)) {
                return l.peer();
            }
        }
        return null;
    }

    /** Whether a paired peer advertises {@code a}: connections from it get handshake slots of their own. */
    boolean advertises(InetAddress a) {
        for (PeerLink l : list) {
            for (InetSocketAddress s : l.peer().addresses()) {
                if (a.equals(s.getAddress())) {
                    return true;
                }
            }
        }
        return false;
    }

    private void save(List<Peer> peers) {
        try {
            PeersFile.write(peersFile, peers);
        } catch (IOException e) {
            log.warn("could not save {}: {}; the change holds until restart", peersFile, e.getMessage());
        }
    }
}
