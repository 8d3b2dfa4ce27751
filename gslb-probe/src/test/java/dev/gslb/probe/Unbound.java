package dev.gslb.probe;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A real unbound on a free loopback port, with the test's own server lines (local zones, ...):
 * the resolver the probe and monitor tests talk to.
 */
public final class Unbound implements AutoCloseable {
    public final int port;
    public final Process process;

    public Unbound(Path dir, String serverLines) throws IOException {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.ofLiteral("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        Path conf = dir.resolve("unbound.conf");
        Files.writeString(conf, """
                server:
                  interface: 127.0.0.1@%d
                  do-daemonize: no
                  chroot: ""
                  username: ""
                  directory: "%s"
                  pidfile: ""
                  use-syslog: no
                  access-control: 127.0.0.0/8 allow
                """.formatted(port, dir) + serverLines.indent(2));
        process = new ProcessBuilder("unbound", "-d", "-c", conf.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("unbound.log").toFile())
                .start();
    }

    @Override
    public void close() {
        process.destroy();
    }
}
