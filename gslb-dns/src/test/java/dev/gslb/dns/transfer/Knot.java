package dev.gslb.dns.transfer;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.Type;

/**
 * A real knotd on a free loopback port, a secondary of the server on {@code primary} with the
 * key {@code xfr.}, taking NOTIFY signed with it; the test gives its {@code zone:} lines. And the
 * tests' way of asking any server for a name's addresses.
 */
final class Knot implements AutoCloseable {
    final int port;
    private final Process process;

    Knot(Path dir, int port, int primary, String secret64, String zones) throws Exception {
        this.port = port;
        Files.createDirectories(dir);
        Path conf = dir.resolve("knot.conf");
        Files.writeString(conf, """
                server:
                    listen: 127.0.0.1@%d
                    rundir: "%s"
                log:
                  - target: "%s/knot.log"
                    any: info
                database:
                    storage: "%s"
                key:
                  - id: xfr.
                    algorithm: hmac-sha256
                    secret: %s
                remote:
                  - id: gslb
                    address: 127.0.0.1@%d
                    key: xfr.
                acl:
                  - id: notify-from-gslb
                    address: 127.0.0.0/8
                    key: xfr.
                    action: notify
                template:
                  - id: default
                    storage: "%s"
                    zonefile-sync: -1
                  - id: member
                    storage: "%s"
                    zonefile-sync: -1
                    master: gslb
                    acl: notify-from-gslb
                zone:
                """.formatted(port, dir, dir, dir, secret64, primary, dir, dir) + zones.indent(2));
        process = new ProcessBuilder("knotd", "-c", conf.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("knotd.out").toFile())
                .start();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        process.waitFor();
    }

    /** The A records the server on {@code port} answers for {@code name} (none when it does not answer). */
    static List<String> addresses(int port, String name) {
        try {
            SimpleResolver r = new SimpleResolver(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            r.setTimeout(Duration.ofMillis(500));
            Message m = r.send(Message.newQuery(Record.newRecord(Name.fromString(name), Type.A, DClass.IN)));
            return m.getSection(Section.ANSWER).stream()
                    .filter(rec -> rec.getType() == Type.A)
                    .map(Record::rdataToString)
                    .toList();
        } catch (Exception notYet) {
            return List.of();
        }
    }

    /** Seconds until the server on {@code port} answers {@code address} for {@code name}. */
    static double awaitAnswer(int port, String name, String address, Duration limit) throws Exception {
        long start = System.nanoTime();
        while (System.nanoTime() - start < limit.toNanos()) {
            if (addresses(port, name).contains(address)) {
                return (System.nanoTime() - start) / 1e9;
            }
            Thread.sleep(20); // kept: the secondaries refresh at their own pace
        }
        throw new AssertionError(
                "the server on port " + port + " did not answer " + address + " for " + name + " within " + limit);
    }
}
