package dev.gslb.sync;

import dev.gslb.probe.store.StateFile;
import dev.gslb.topology.Address;
import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The paired peers, kept in a properties file readable by this user only (it decides who may
 * write paths here): peer.N.name, peer.N.datacenter, peer.N.addresses (host:port, comma-separated),
 * peer.N.fingerprint (SHA-256 of its certificate, hex). `gslb peer join` and a pairing write it;
 * an operator may too. A file that group or others can read or write is refused.
 */
final class PeersFile {
    private PeersFile() {}

    static List<Peer> read(Path file) throws IOException {
        List<Peer> peers = new ArrayList<>();
        if (!Files.exists(file)) {
            return peers;
        }
        StateFile.requirePrivate(file);
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        }
        for (int i = 0; p.containsKey("peer." + i + ".name"); i++) {
            String prefix = "peer." + i + ".";
            List<InetSocketAddress> addresses = new ArrayList<>();
            for (String a : p.getProperty(prefix + "addresses", "").split(",")) {
                if (!a.isBlank()) {
                    addresses.add(parse(a.strip()));
                }
            }
            if (p.containsKey(prefix + "key")) {
                throw new IOException(file + ": peer." + i + " was paired with a shared key (sync protocol v1); "
                        + "remove this file and pair again with `gslb peer pair` / `gslb peer join`");
            }
            try {
                peers.add(new Peer(
                        p.getProperty(prefix + "name"),
                        p.getProperty(prefix + "datacenter"),
                        addresses,
                        p.getProperty(prefix + "fingerprint", "")));
            } catch (IllegalArgumentException e) {
                throw new IOException(file + ": peer." + i + ": " + e.getMessage());
            }
        }
        return peers;
    }

    static void write(Path file, List<Peer> peers) throws IOException {
        Properties p = new Properties();
        for (int i = 0; i < peers.size(); i++) {
            Peer peer = peers.get(i);
            p.setProperty("peer." + i + ".name", peer.name());
            p.setProperty("peer." + i + ".datacenter", peer.dataCenter());
            p.setProperty(
                    "peer." + i + ".addresses",
                    String.join(
                            ",",
                            peer.addresses().stream().map(Address::hostPort).toList()));
            p.setProperty("peer." + i + ".fingerprint", peer.fingerprint());
        }
        StringWriter w = new StringWriter();
        p.store(w, "gslb peers: written by `gslb peer pair` / `gslb peer join`; the pinned certificates");
        StateFile.writePrivate(file, w.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    static InetSocketAddress parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("'" + text + "' needs a port (host:port)");
        }
        String host = text.substring(0, colon).replace("[", "").replace("]", "");
        return new InetSocketAddress(InetAddress.ofLiteral(host), Integer.parseInt(text.substring(colon + 1)));
    }
}
