package dev.gslb.cli;

import dev.gslb.config.ConfigLoader;
import dev.gslb.config.GslbConfig;
import dev.gslb.probe.store.StateFile;
import dev.gslb.server.GslbServer;
import dev.gslb.settings.HostPort;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.xbill.DNS.CookieOption;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.Record;
import org.xbill.DNS.Type;

/**
 * The training run of serve's AOT cache (JEP 483/515): the embedded configuration, its zone signed
 * and loopback counted by the rate limiter at 5 answers a second, served on loopback ports of the
 * system's choosing from a temporary state folder, then asked what a server is asked in its first
 * minutes: wide-IP and static questions, with and without EDNS, DO and a cookie, over UDP and
 * TCP, malformed datagrams, rate-limited answers, an admin request. So a started server finds
 * these paths' classes loaded and linked, with profiles, instead of loading them under its first
 * queries (one of the cold stalls of the first contact). Runs in a few seconds; talks to loopback
 * only.
 */
final class ServeTraining {
    private static final String[][] QUESTIONS = {
        {"www.example.com.", "A"},
        {"www.example.com.", "AAAA"},
        {"example.com.", "SOA"},
        {"example.com.", "MX"},
        {"example.com.", "NS"},
        {"api.example.com.", "A"},
        {"nope.example.com.", "A"},
        {"_sip._udp.example.com.", "SRV"},
        {"example.com.", "DNSKEY"},
        {"example.net.", "A"}
    };

    private final Path home;

    ServeTraining(Path home) {
        this.home = home;
    }

    void run() throws Exception {
        Path state = Files.createTempDirectory("gslb-aot-training-");
        try {
            GslbServer server = new GslbServer(config(state));
            try {
                server.start();
                InetSocketAddress dns = server.dns().boundAddresses().getFirst();
                ask(dns);
                admin(server.admin().address());
            } finally {
                server.close();
            }
        } finally {
            StateFile.deleteTree(state);
        }
    }

    private GslbConfig config(Path state) throws Exception {
        String text = ConfigLoader.embeddedText();
        text = edited(text, "listen: [\"127.0.0.1:5353\"]", """
                listen: ["127.0.0.1:0"]
                  rate-limit: {responses-per-second: 5, exempt: [192.0.2.0/24]}""");
        text = edited(text, "listen: 127.0.0.1:8053", "listen: 127.0.0.1:0");
        text = edited(text, "  - file: zones/example.com.zone\n", "  - file: zones/example.com.zone\n    dnssec: {}\n");
        GslbConfig c = ConfigLoader.parse("aot-training", text, home).withStateDir(state);
        return c.withSync(c.sync().listeningOn(List.of(new InetSocketAddress("127.0.0.1", 0))));
    }

    /**
     * {@code text} with {@code from} replaced: a default that no longer has it fails the training
     * loudly (the launchers then start without the cache) instead of training on fixed ports.
     */
    private static String edited(String text, String from, String to) {
        if (!text.contains(from)) {
            throw new IllegalStateException("the embedded configuration has no '" + from + "' to edit");
        }
        return text.replace(from, to);
    }

    /** Every question in every form, twice over (the second round is rate-limited), and malformed datagrams. */
    private static void ask(InetSocketAddress dns) throws IOException {
        Random random = new Random(1);
        try (DatagramSocket udp = new DatagramSocket()) {
            udp.setSoTimeout(50); // a rate-limited or malformed question may go unanswered
            for (int round = 0; round < 2; round++) {
                for (String[] q : QUESTIONS) {
                    for (int form = 0; form < 3; form++) {
                        byte[] wire = query(q[0], q[1], form, random).toWire();
                        udp.send(new DatagramPacket(wire, wire.length, dns));
                        receive(udp);
                    }
                }
            }
            for (int i = 0; i < 64; i++) {
                byte[] junk = new byte[1 + random.nextInt(64)];
                random.nextBytes(junk);
                udp.send(new DatagramPacket(junk, junk.length, dns));
            }
            while (receive(udp)) {
                // what the malformed datagrams drew (FORMERR), until nothing more comes
            }
        }
        try (Socket tcp = new Socket()) {
            tcp.connect(dns, 2000);
            tcp.setSoTimeout(2000);
            DataOutputStream out = new DataOutputStream(tcp.getOutputStream());
            DataInputStream in = new DataInputStream(tcp.getInputStream());
            for (String[] q : QUESTIONS) { // pipelined: all written, then all read
                byte[] wire = query(q[0], q[1], 1, random).toWire();
                out.writeShort(wire.length);
                out.write(wire);
            }
            out.flush();
            for (int i = 0; i < QUESTIONS.length; i++) {
                in.readFully(new byte[in.readUnsignedShort()]);
            }
        }
    }

    /** Form 0: no EDNS; 1: EDNS with DO; 2: EDNS with a client cookie. */
    private static Message query(String name, String type, int form, Random random) throws IOException {
        Message m = Message.newQuery(Record.newRecord(Name.fromString(name), Type.value(type), DClass.IN));
        m.getHeader().setID(random.nextInt(0x10000));
        if (form == 1) {
            m.addRecord(new OPTRecord(1232, 0, 0, Flags.DO), org.xbill.DNS.Section.ADDITIONAL);
        } else if (form == 2) {
            byte[] client = new byte[8];
            random.nextBytes(client);
            m.addRecord(
                    new OPTRecord(1232, 0, 0, 0, List.of(new CookieOption(client))), org.xbill.DNS.Section.ADDITIONAL);
        }
        return m;
    }

    private static boolean receive(DatagramSocket udp) throws IOException {
        try {
            udp.receive(new DatagramPacket(new byte[4096], 4096));
            return true;
        } catch (java.net.SocketTimeoutException unanswered) {
            return false;
        }
    }

    /**
     * The admin server's answers to two requests, over a plain socket: java.net.http's client would
     * put its own classes and TLS's (about 680 that serve never loads) in the cache, loaded at
     * every start.
     */
    private static void admin(String hostPort) throws IOException {
        InetSocketAddress address = HostPort.parse(hostPort, 0);
        for (String path : List.of("/health", "/status")) {
            try (Socket http = new Socket()) {
                http.connect(address, 2000);
                http.setSoTimeout(2000);
                http.getOutputStream()
                        .write(("GET " + path + " HTTP/1.1\r\nHost: " + hostPort + "\r\nConnection: close\r\n\r\n")
                                .getBytes(StandardCharsets.US_ASCII));
                http.getInputStream().readAllBytes();
            }
        }
    }
}
