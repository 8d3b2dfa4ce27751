package dev.gslb.probe;

import dev.gslb.probe.snmp.SnmpAgent;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * net-snmp's snmpd on a free loopback port (the same port again after a restart), serving the
 * community {@code gslb-test} and the v3 user {@code gslbuser} (SHA {@code authpass123}, AES
 * {@code privpass123}), with the test's own lines added: the agent of a router or a server.
 */
public final class Snmpd implements AutoCloseable {
    public static final InetAddress LOOPBACK = InetAddress.ofLiteral("127.0.0.1");

    private final Path dir;
    private final String moreLines;
    public final int port;
    private Process process;

    public Snmpd(Path dir, String moreLines) throws IOException {
        this.dir = dir;
        this.moreLines = moreLines;
        try (DatagramSocket s = new DatagramSocket(0, LOOPBACK)) {
            port = s.getLocalPort();
        }
    }

    /** Starts it, and waits until it answers. */
    public void start() throws IOException, InterruptedException {
        Path conf = dir.resolve("snmpd.conf");
        Files.writeString(conf, """
                agentaddress udp:127.0.0.1:%d
                rocommunity gslb-test 127.0.0.1
                createUser gslbuser SHA "authpass123" AES "privpass123"
                rouser gslbuser priv
                """.formatted(port) + moreLines);
        ProcessBuilder pb = new ProcessBuilder(
                        "snmpd",
                        "-f",
                        "-Lf",
                        dir.resolve("snmpd.log").toString(),
                        "-C",
                        "-c",
                        conf.toString(),
                        "-p",
                        dir.resolve("snmpd.pid").toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("snmpd.out").toFile());
        pb.environment().put("SNMP_PERSISTENT_DIR", dir.resolve("persist").toString());
        process = pb.start();
        // 30 s: on a loaded CI host snmpd once took over 10 s to answer; its log tells why when it never does.
        try (SnmpAgent agent = new SnmpAgent(new InetSocketAddress(LOOPBACK, port), "gslb-test", null, "snmpd")) {
            Awaits.until("snmpd answering on port " + port, Duration.ofSeconds(30), () -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException("snmpd exited with " + process.exitValue() + ": " + output());
                }
                try {
                    agent.get(Duration.ofMillis(300), List.of());
                    return true;
                } catch (IOException notYet) {
                    return false;
                }
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; snmpd said: " + output(), e);
        }
    }

    private String output() {
        StringBuilder out = new StringBuilder();
        for (String f : List.of("snmpd.out", "snmpd.log")) {
            try {
                out.append(Files.readString(dir.resolve(f))).append(' ');
            } catch (IOException e) {
                out.append("(no ").append(f).append(") ");
            }
        }
        return out.toString().strip();
    }

    /** Stops it (it may be started again). */
    @Override
    public void close() throws InterruptedException {
        if (process != null) {
            process.destroy();
            process.waitFor(5, TimeUnit.SECONDS);
            process = null;
        }
    }
}
