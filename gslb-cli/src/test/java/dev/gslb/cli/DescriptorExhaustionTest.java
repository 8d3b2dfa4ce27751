package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.Awaits;
import dev.gslb.probe.FreePorts;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/**
 * The server as a process with few descriptors (`ulimit -n 320`), flooded with connections as an
 * attacker would: the caps keep an admin flood from taking DNS over TCP's descriptors, and when a
 * misconfigured cap lets DNS over TCP run the process out of descriptors, every listener keeps
 * going and serves again once the flood ends.
 */
class DescriptorExhaustionTest {
    private static final int LIMIT = 320;
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    private Process server;
    private final List<Socket> open = new ArrayList<>();
    private int dnsPort;
    private int adminPort;
    private int syncPort;

    @AfterEach
    void stop() throws Exception {
        closeAll();
        if (server != null) {
            server.destroyForcibly().waitFor();
        }
    }

    private void closeAll() throws IOException {
        for (Socket s : open) {
            s.close();
        }
        open.clear();
    }

    private void start() throws Exception {
        dnsPort = FreePorts.udpAndTcp();
        adminPort = FreePorts.udpAndTcp();
        syncPort = FreePorts.udpAndTcp();
        Files.copy(Path.of("../zones/example.com.zone"), dir.resolve("example.com.zone"));
        Path config = dir.resolve("gslb.yaml");
        Files.writeString(config, """
                instance: {name: gslb-fd, datacenter: CNC}
                dns: {listen: ["127.0.0.1:%d"], threads: 1}
                admin: {listen: "127.0.0.1:%d"}
                probe: {store: proximity, protocols: [udp]}
                sync: {listen: ["127.0.0.1:%d"], peers-file: peers}
                """.formatted(dnsPort, adminPort, syncPort) + LoopbackConfig.shared(""));
        List<String> cmd =
                new java.util.ArrayList<>(List.of("bash", "-c", "ulimit -n " + LIMIT + " && exec \"$@\"", "gslb"));
        cmd.addAll(Isolated.serveProcess(config));
        server = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("server.log").toFile())
                .start();
        Awaits.until("the server's /health", Duration.ofSeconds(60), () -> {
            if (!server.isAlive()) {
                throw new AssertionError("the server exited " + server.exitValue() + ":\n" + log());
            }
            return health() == 200;
        });
    }

    private String log() {
        try {
            return Files.readString(dir.resolve("server.log"));
        } catch (IOException e) {
            return e.toString();
        }
    }

    private int health() {
        try {
            return HTTP.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/health"))
                                    .timeout(Duration.ofSeconds(5))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private long descriptors() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/" + server.pid() + "/fd"))) {
            return fds.count();
        }
    }

    /** Opens {@code n} connections to {@code port} from {@code source}, keeping them; those refused are kept too. */
    private void flood(int port, String source, int n) throws IOException {
        for (int i = 0; i < n; i++) {
            Socket s = new Socket();
            s.bind(new InetSocketAddress(InetAddress.ofLiteral(source), 0));
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
            open.add(s);
        }
    }

    /** One query over a new TCP connection: the answer's records, or null when it was not answered. */
    private List<Record> askTcp() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), dnsPort), 5000);
            s.setSoTimeout(5000);
            byte[] q = Message.newQuery(Record.newRecord(Name.fromString("www.example.com."), Type.A, DClass.IN))
                    .toWire();
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.writeShort(q.length);
            out.write(q);
            DataInputStream in = new DataInputStream(s.getInputStream());
            return new Message(in.readNBytes(in.readUnsignedShort())).getSection(Section.ANSWER);
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Whether the sync port still accepts: a connection that sends garbage instead of a TLS hello is
     * answered with an alert and closed by an accepting server; one that no longer accepts leaves it
     * in the queue, unread.
     */
    private boolean syncAccepts() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), syncPort), 5000);
            s.setSoTimeout(10_000);
            s.getOutputStream().write("not a TLS hello\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            s.getInputStream().read(); // a TLS alert, or the end: either way it was read
            return true;
        } catch (java.net.SocketTimeoutException leftInTheQueue) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    @Test
    void anAdminFloodCannotTakeDnsDescriptorsAndExhaustionIsSurvived() throws Exception {
        start();
        assertThat(log())
                .as("the start warns that the caps do not fit the limit")
                .contains("descriptors: this process may open " + LIMIT);
        long idle = descriptors();

        // two clients, 1,000 admin connections each: the per-source cap closes all but 32 of each
        flood(adminPort, "127.0.50.1", 1000);
        flood(adminPort, "127.0.50.2", 1000);
        long during = descriptors();
        List<Record> answer = askTcp();
        System.out.printf(
                "descriptors: %d idle, %d with 2,000 admin connections tried (limit %d); DNS over TCP %s%n",
                idle, during, LIMIT, answer == null ? "not answered" : "answered");
        assertThat(during).as("the admin caps hold").isLessThan(idle + 2 * 32 + 8);
        assertThat(answer).as("DNS over TCP during the admin flood").hasSize(1);
        assertThat(health()).isEqualTo(200);
        assertThat(syncAccepts()).as("the sync port during the admin flood").isTrue();
        closeAll();

        // DNS over TCP's own cap (1,024) is over the limit here: 400 sources run the process out
        for (int i = 0; i < 400; i++) {
            flood(dnsPort, "127.6." + (i / 200) + "." + (i % 200 + 1), 1);
        }
        Awaits.until(
                "accept failing for want of descriptors",
                Duration.ofSeconds(30),
                () -> log().lines()
                        .anyMatch(l -> l.contains("cannot accept a connection") && l.contains("Too many open files")));
        System.out.printf("descriptors: %d with 400 DNS connections held (limit %d)%n", descriptors(), LIMIT);
        closeAll();
        Awaits.until("DNS over TCP answering again", Duration.ofSeconds(30), () -> askTcp() != null);
        Awaits.until("the admin API answering again", Duration.ofSeconds(30), () -> health() == 200);
        Awaits.until("the sync port accepting again", Duration.ofSeconds(30), this::syncAccepts);
        assertThat(server.isAlive()).isTrue();
    }
}
