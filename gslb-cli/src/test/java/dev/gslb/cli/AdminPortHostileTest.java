package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.config.admin.AdminLimits;
import dev.gslb.probe.Awaits;
import dev.gslb.server.GslbServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Type;

/**
 * The admin port tried as an attacker on this host would, over real sockets: bodies where none
 * is taken, bodies before the token, floods of large bodies, idle and greedy connections, slow
 * heads and bodies, requests held open. What must hold: nothing is read that the route does not
 * take, nothing the client did reaches DNS, and the operator's own request still gets through.
 */
class AdminPortHostileTest {
    private static final String HEALTH = "GET /health HTTP/1.1\r\nHost: localhost\r\n";
    private static final int SIXTEEN_MIB = 16 << 20;

    private GslbServer server;
    private final List<Socket> open = new ArrayList<>();

    @AfterEach
    void stop() throws IOException {
        for (Socket s : open) {
            s.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private GslbServer start(AdminLimits limits) throws Exception {
        server = new GslbServer(Isolated.embedded().withAdminLimits(limits));
        server.start();
        return server;
    }

    private InetSocketAddress admin() {
        String a = server.admin().address();
        return new InetSocketAddress(
                InetAddress.getLoopbackAddress(), Integer.parseInt(a.substring(a.lastIndexOf(':') + 1)));
    }

    /** A connection from {@code source} (any 127/8 address is this host's). */
    private Socket connect(String source) throws IOException {
        Socket s = new Socket();
        s.bind(new InetSocketAddress(InetAddress.ofLiteral(source), 0));
        s.connect(admin());
        s.setSoTimeout(10_000);
        open.add(s);
        return s;
    }

    private static void send(Socket s, String text) throws IOException {
        s.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
    }

    /** The status code of the next answer on {@code s}, or -1 when the server closed it without one. */
    private static int status(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                return -1;
            }
            line.append((char) c);
        }
        return Integer.parseInt(line.substring(9, 12));
    }

    /** Reads the rest of one answer (headers and a Content-Length body). */
    private static void drain(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            head.append((char) in.read());
        }
        String h = head.toString().toLowerCase(java.util.Locale.ROOT);
        int at = h.indexOf("content-length: ");
        int length = Integer.parseInt(h.substring(at + 16, h.indexOf('\r', at)));
        in.readNBytes(length);
    }

    /** Requests and connections the admin API refused for {@code reason} so far. */
    private double refused(String reason) {
        var c = server.registry()
                .find("gslb_admin_refused")
                .tag("reason", reason)
                .counter();
        return c == null ? 0 : c.count();
    }

    private String token() throws Exception {
        return Isolated.bearer(server);
    }

    private int dnsAnswered(int queries) throws Exception {
        int answered = 0;
        try (DatagramSocket udp = new DatagramSocket()) {
            udp.setSoTimeout(2000);
            InetSocketAddress dns = server.dns().boundAddresses().getFirst();
            byte[] q = Message.newQuery(Record.newRecord(Name.fromString("www.example.com."), Type.A, DClass.IN))
                    .toWire();
            for (int i = 0; i < queries; i++) {
                udp.send(new DatagramPacket(q, q.length, dns));
                try {
                    udp.receive(new DatagramPacket(new byte[512], 512));
                    answered++;
                } catch (SocketTimeoutException lost) {
                    // counted as unanswered
                }
            }
        }
        return answered;
    }

    @Test
    void aBodyIsRefusedBeforeItIsReadWhereNoneIsTakenBeforeTheTokenAndOverTheRoutesSize() throws Exception {
        start(AdminLimits.DEFAULTS);
        // each head promises 16 MiB and sends none of it: an answer at once shows nothing waited for it
        Socket get = connect("127.0.0.1");
        send(get, HEALTH + "Content-Length: " + SIXTEEN_MIB + "\r\n\r\n");
        assertThat(status(get)).as("GET /health with a body").isEqualTo(413);

        Socket upload = connect("127.0.0.1");
        send(
                upload,
                "POST /topology/load HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + SIXTEEN_MIB + "\r\n\r\n");
        assertThat(status(upload)).as("an upload without the token").isEqualTo(401);

        Socket command = connect("127.0.0.1");
        send(
                command,
                "POST /peer/pair HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAuthorization: "
                        + token() + "\r\nContent-Length: " + (1 << 20) + "\r\n\r\n");
        assertThat(status(command)).as("a 1 MiB command").isEqualTo(413);

        Socket reload = connect("127.0.0.1");
        send(
                reload,
                "POST /config/reload HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAuthorization: "
                        + token() + "\r\nContent-Length: 2\r\n\r\n{}");
        assertThat(status(reload)).as("a body to a route that takes none").isEqualTo(413);

        Socket keepAlive = connect("127.0.0.1");
        send(keepAlive, HEALTH + "\r\n");
        assertThat(status(keepAlive)).isEqualTo(200);
        drain(keepAlive);
        send(keepAlive, HEALTH + "\r\n");
        assertThat(status(keepAlive))
                .as("a second request on the same connection")
                .isEqualTo(200);
        assertThat(refused("too_large")).isEqualTo(3);
    }

    @Test
    void aFloodOfLargeBodiesLeavesTheHeapAndDnsAlone() throws Exception {
        start(AdminLimits.DEFAULTS);
        Runtime rt = Runtime.getRuntime();
        System.gc();
        long before = rt.totalMemory() - rt.freeMemory();
        AtomicInteger refused = new AtomicInteger();
        List<Thread> attackers = new ArrayList<>();
        byte[] chunk = new byte[64 << 10];
        for (int i = 0; i < 128; i++) {
            String source = "127.0.20." + (i % 16 + 1); // 16 sources, 8 each: within the per-source cap
            attackers.add(Thread.ofVirtual().start(() -> {
                try (Socket s = new Socket()) {
                    s.bind(new InetSocketAddress(InetAddress.ofLiteral(source), 0));
                    s.connect(admin());
                    s.setSoTimeout(30_000);
                    OutputStream out = s.getOutputStream();
                    out.write((HEALTH + "Content-Length: " + SIXTEEN_MIB + "\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
                    try {
                        for (int sent = 0; sent < SIXTEEN_MIB; sent += chunk.length) {
                            out.write(chunk);
                        }
                    } catch (IOException closedOnUs) {
                        // the server answered and closed: the rest of the body is never read
                    }
                    if (status(s) == 413) {
                        refused.incrementAndGet();
                    }
                } catch (IOException e) {
                    // a reset before the answer was read: also refused, counted by the server
                }
            }));
        }
        for (Thread t : attackers) {
            t.join();
        }
        long after = rt.totalMemory() - rt.freeMemory();
        System.gc();
        long settled = rt.totalMemory() - rt.freeMemory();
        int answered = dnsAnswered(20);
        System.out.printf(
                "admin flood: 128 GETs with 16 MiB bodies: %d answered 413 (the rest reset); heap %d MiB before, %d MiB"
                        + " after, %d MiB after a GC; %d of 20 UDP queries answered%n",
                refused.get(), before >> 20, after >> 20, settled >> 20, answered);
        assertThat(answered).as("DNS over UDP after the flood").isEqualTo(20);
        assertThat(refused("too_large")).as("every one refused at its head").isEqualTo(128);
        Socket health = connect("127.0.0.1");
        send(health, HEALTH + "\r\n");
        assertThat(status(health)).isEqualTo(200);
    }

    @Test
    void connectionsAreCappedPerSourceAndAFullTableMakesRoomForTheOperator() throws Exception {
        start(new AdminLimits(64, 8, 32, 8, Duration.ofSeconds(60), Duration.ofSeconds(60)));
        List<Socket> greedy = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            greedy.add(connect("127.0.30.1"));
        }
        Awaits.until(
                "12 of one source's 20 connections closed",
                Duration.ofSeconds(30),
                () -> refused("connections_per_source") == 12);
        for (int i = 0; i < 100; i++) { // 100 sources, one idle connection each: more than the table
            connect("127.0.31." + (i + 1));
        }
        Socket operator = connect("127.0.0.1");
        send(operator, HEALTH + "\r\n");
        assertThat(status(operator))
                .as("the operator's request, with the table full of idle ones")
                .isEqualTo(200);
        double idleClosed = refused("idle_closed");
        System.out.printf(
                "admin connections: 120 idle from 101 sources, cap 64: %.0f closed for newcomers%n", idleClosed);
        assertThat(idleClosed).isEqualTo(8 + 100 + 1 - 64);
    }

    @Test
    void aSlowHeadOrBodyIsCut() throws Exception {
        start(new AdminLimits(256, 32, 32, 8, Duration.ofSeconds(1), Duration.ofSeconds(1)));
        Socket slowHead = connect("127.0.0.1");
        send(slowHead, "GET /health HTTP/1.1\r\nHo");
        assertThat(status(slowHead)).as("closed, never answered").isEqualTo(-1);

        Socket slowBody = connect("127.0.0.1");
        send(
                slowBody,
                "POST /peer/pair HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAuthorization: "
                        + token() + "\r\nContent-Length: 100\r\n\r\n{\"adv");
        assertThat(status(slowBody)).isEqualTo(408);

        Socket idle = connect("127.0.0.1");
        assertThat(status(idle)).as("a connection that sends nothing").isEqualTo(-1);
        assertThat(refused("header_timeout")).isEqualTo(2);
    }

    /** The status of {@code request} sent on a new connection from {@code source}. */
    private int ask(String source, String request) throws IOException {
        Socket s = connect(source);
        send(s, request);
        return status(s);
    }

    @Test
    void requestsHeldOpenAreCappedPerSourceAndUploadsInAll() throws Exception {
        start(new AdminLimits(256, 32, 32, 4, Duration.ofSeconds(60), Duration.ofSeconds(60)));
        String command =
                "POST /peer/pair HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAuthorization: "
                        + token() + "\r\nContent-Length: 100\r\n\r\n";
        for (int i = 0; i < 4; i++) { // four commands whose bodies never come: each holds a slot
            send(connect("127.0.40.1"), command);
        }
        Awaits.until("a fifth request from the same source refused", Duration.ofSeconds(30), () -> {
            try {
                return ask("127.0.40.1", HEALTH + "\r\n") == 503;
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(ask("127.0.41.1", HEALTH + "\r\n")).as("another source").isEqualTo(200);

        String upload = "POST /topology/load HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Authorization: " + token() + "\r\nContent-Length: 1000\r\n\r\n";
        send(connect("127.0.42.1"), upload); // two uploads whose bodies never come
        send(connect("127.0.43.1"), upload);
        Awaits.until("a third upload refused", Duration.ofSeconds(30), () -> {
            try {
                return ask("127.0.44.1", upload) == 503;
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(ask("127.0.45.1", HEALTH + "\r\n"))
                .as("a request that is no upload")
                .isEqualTo(200);
    }
}
