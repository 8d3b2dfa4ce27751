package dev.gslb.probe;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Datagrams the kernel dropped at this host's UDP sockets on one port (their receive queue was full): what a test
 * counts, with what the server or client took, to know every datagram sent has been dealt with.
 */
public final class UdpDrops {
    private UdpDrops() {}

    /** The sum of the drops column (the last) of /proc/net/udp and /proc/net/udp6 for sockets bound to {@code port}. */
    public static long at(int port) {
        String local = String.format(":%04X", port);
        long drops = 0;
        for (String table : List.of("/proc/net/udp", "/proc/net/udp6")) {
            try {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] c = line.strip().split("\\s+");
                    if (c.length > 1 && c[1].endsWith(local)) {
                        drops += Long.parseLong(c[c.length - 1]);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return drops;
    }
}
