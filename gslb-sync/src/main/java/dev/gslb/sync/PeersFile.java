package dev.gslb.sync;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Properties;

/**
 * The paired peers, kept in a properties file readable by this user only (it holds the keys):
 * peer.N.name, peer.N.datacenter, peer.N.addresses (host:port, comma-separated), peer.N.key (base64).
 * `gslb peer pair` and `gslb peer join` write it; an operator may too.
 */
final class PeersFile {
    private PeersFile() {}

    static List<Peer> read(Path file) throws IOException {
        List<Peer> peers = new ArrayList<>();
        if (!Files.exists(file)) {
            return peers;
        }
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
            try {
                peers.add(new Peer(p.getProperty(prefix + "name"), p.getProperty(prefix + "datacenter"), addresses,
                        Base64.getDecoder().decode(p.getProperty(prefix + "key", ""))));
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
            p.setProperty("peer." + i + ".addresses", String.join(",", peer.addresses().stream().map(PeersFile::format).toList()));
            p.setProperty("peer." + i + ".key", peer.keyBase64());
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (Writer w = Files.newBufferedWriter(tmp)) {
            p.store(w, "gslb peers: written by `gslb peer pair` / `gslb peer join`; holds the pair keys");
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    static String format(InetSocketAddress a) {
        String host = a.getAddress().getHostAddress();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
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
