package dev.gslb.dns.dnstap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.topology.Address;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Type;

/**
 * The tap without a server: a full ring drops and counts, what was queued reaches the file whole
 * (read back by BIND's dnstap-read), a reader on a Unix socket gets the Frame Streams handshake,
 * and sampling takes exactly its share.
 */
class DnstapTest {
    @TempDir
    Path dir;

    @Test
    void aFullQueueDropsAndCountsAndWhatWasQueuedIsWritten() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Path file = dir.resolve("tap.fstrm");
        DnstapSettings settings = DnstapSettings.SETTINGS
                .change(DnstapSettings.DEFAULTS.toFile(file))
                .set(DnstapSettings.QUEUE, 16)
                .build();
        Dnstap tap = Dnstap.of(settings, "unit", registry); // its writer not started: the ring only fills
        Address client = Address.parse("192.0.2.7");
        for (int i = 0; i < 20; i++) {
            capture(tap, "q" + i + ".example.com.", client, 40000 + i);
        }
        assertThat(tap.dropped()).isEqualTo(4);
        assertThat(registry.get("dnstap_dropped")
                        .tag("reason", "queue-full")
                        .counter()
                        .count())
                .isEqualTo(4);

        tap.startWriter();
        tap.close();
        assertThat(java.nio.file.Files.getPosixFilePermissions(file))
                .as("a query log holds client addresses: owner-only")
                .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        String yaml = DnstapRead.yaml(file);
        assertThat(count(yaml, "type: AUTH_QUERY")).isEqualTo(16);
        assertThat(count(yaml, "type: AUTH_RESPONSE")).isEqualTo(16);
        assertThat(yaml)
                .contains("identity: unit", "query_address: \"192.0.2.7\"", "query_port: 40000", "q15.example.com")
                .doesNotContain("q16.example.com");
        assertThat(registry.get("dnstap_messages")
                        .tag("type", "auth-query")
                        .counter()
                        .count())
                .isEqualTo(16);
        assertThat(registry.get("dnstap_messages")
                        .tag("type", "auth-response")
                        .counter()
                        .count())
                .isEqualTo(16);
    }

    @Test
    void aReaderOnAUnixSocketGetsTheHandshakeAndTheMessages() throws Exception {
        Path socket = dir.resolve("tap.sock");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            CompletableFuture<Reading> reading = CompletableFuture.supplyAsync(() -> read(server));
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            Dnstap tap = Dnstap.start(DnstapSettings.DEFAULTS.toSocket(socket), "unit", registry);
            capture(tap, "www.example.com.", Address.parse("2001:db8::53"), 5353);
            tap.close();
            Reading r = reading.get(30, TimeUnit.SECONDS);
            assertThat(r.controls).containsExactly("READY", "START", "STOP");
            assertThat(r.contentType).isEqualTo("protobuf:dnstap.Dnstap");
            Path file = dir.resolve("from-socket.fstrm");
            Files.write(file, r.asFile());
            String yaml = DnstapRead.yaml(file);
            assertThat(yaml)
                    .contains("type: AUTH_QUERY", "type: AUTH_RESPONSE", "query_address: \"2001:db8::53\"")
                    .contains("socket_family: INET6", "socket_protocol: UDP", "www.example.com");
        }
    }

    @Test
    void samplingTakesItsShareEvenly() {
        assertThat(taken(new Sampling(1, 3), 300)).isEqualTo(100);
        assertThat(taken(Sampling.of(0.25), 1000)).isEqualTo(250);
        assertThat(taken(Sampling.of(1.0), 1000)).isEqualTo(1000);
        assertThat(taken(Sampling.of(0.0), 1000)).isZero();
        assertThat(new Sampling(1, 4).take(0) || new Sampling(1, 4).take(1) || new Sampling(1, 4).take(2))
                .as("one in four: the fourth")
                .isFalse();
        assertThat(new Sampling(1, 4).take(3)).isTrue();
    }

    private static int taken(Sampling s, int n) {
        int taken = 0;
        for (int i = 0; i < n; i++) {
            taken += s.take(i) ? 1 : 0;
        }
        return taken;
    }

    /** A query for {@code name} and an answer to it, captured as the responder would. */
    private static void capture(Dnstap tap, String name, Address client, int port) throws IOException {
        Message q = Message.newQuery(Record.newRecord(Name.fromString(name), Type.A, DClass.IN));
        byte[] query = q.toWire();
        Message a = q.clone();
        a.getHeader().setFlag(org.xbill.DNS.Flags.QR);
        ByteBuf answer = Unpooled.wrappedBuffer(new byte[512]).clear().writeBytes(a.toWire());
        tap.capture(
                query, query.length, false, client.hi(), client.lo(), port, 1_800_000_000_123L, answer, 0, null, null);
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + 1)) {
            n++;
        }
        return n;
    }

    /** What a reader saw: the control frames' names, the content type, the data frames. */
    private record Reading(List<String> controls, String contentType, List<byte[]> frames) {
        /** The same data frames as a unidirectional Frame Streams file (what dnstap-read takes). */
        byte[] asFile() throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            byte[] type = contentType.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            out.writeInt(0);
            out.writeInt(12 + type.length);
            out.writeInt(FrameStream.START);
            out.writeInt(FrameStream.FIELD_CONTENT_TYPE);
            out.writeInt(type.length);
            out.write(type);
            for (byte[] f : frames) {
                out.writeInt(f.length);
                out.write(f);
            }
            out.writeInt(0);
            out.writeInt(4);
            out.writeInt(FrameStream.STOP);
            return bytes.toByteArray();
        }
    }

    /** The reader's side of fstrm's bidirectional handshake, written from the protocol, not from our writer. */
    private static Reading read(ServerSocketChannel server) {
        try (SocketChannel c = server.accept()) {
            DataInputStream in = new DataInputStream(Channels.newInputStream(c));
            DataOutputStream out = new DataOutputStream(Channels.newOutputStream(c));
            List<String> controls = new ArrayList<>();
            List<byte[]> frames = new ArrayList<>();
            String contentType = null;
            while (true) {
                int length = in.readInt();
                if (length != 0) {
                    byte[] f = new byte[length];
                    in.readFully(f);
                    frames.add(f);
                    continue;
                }
                byte[] control = new byte[in.readInt()];
                in.readFully(control);
                var b = java.nio.ByteBuffer.wrap(control);
                int type = b.getInt();
                if (b.remaining() >= 8 && b.getInt() == FrameStream.FIELD_CONTENT_TYPE) {
                    byte[] t = new byte[b.getInt()];
                    b.get(t);
                    contentType = new String(t, java.nio.charset.StandardCharsets.US_ASCII);
                }
                switch (type) {
                    case FrameStream.READY -> {
                        controls.add("READY");
                        reply(out, FrameStream.ACCEPT, contentType);
                    }
                    case FrameStream.START -> controls.add("START");
                    case FrameStream.STOP -> {
                        controls.add("STOP");
                        reply(out, FrameStream.FINISH, null);
                        return new Reading(controls, contentType, frames);
                    }
                    default -> throw new IllegalStateException("unexpected control frame " + type);
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void reply(DataOutputStream out, int type, String contentType) throws IOException {
        byte[] t = contentType == null ? new byte[0] : contentType.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        out.writeInt(0);
        out.writeInt(4 + (t.length == 0 ? 0 : 8 + t.length));
        out.writeInt(type);
        if (t.length > 0) {
            out.writeInt(FrameStream.FIELD_CONTENT_TYPE);
            out.writeInt(t.length);
            out.write(t);
        }
        out.flush();
    }
}
