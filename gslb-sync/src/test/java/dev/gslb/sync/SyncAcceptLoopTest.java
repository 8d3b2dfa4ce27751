package dev.gslb.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gslb.probe.Awaits;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sync port's accept loop against what can go wrong under it, on real sockets. */
class SyncAcceptLoopTest {
    @TempDir
    Path dir;

    @Test
    void whateverAHandOffThrowsEndsThatConnectionNotTheLoop() throws Exception {
        List<Socket> handedOff = new CopyOnWriteArrayList<>();
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        AtomicInteger calls = new AtomicInteger();
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            AcceptLoop loop = new AcceptLoop(
                    server,
                    s -> {
                        switch (calls.incrementAndGet()) {
                            case 1 -> throw new OutOfMemoryError("unable to create native thread");
                            case 2 -> throw new IllegalStateException("a bug");
                            default -> handedOff.add(s);
                        }
                    },
                    () -> true,
                    counter(),
                    (who, t) -> errors.add(t));
            Thread.ofVirtual().start(loop);
            List<Socket> clients = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Socket c = new Socket(server.getInetAddress(), server.getLocalPort());
                c.setSoTimeout(5000);
                clients.add(c);
            }
            Awaits.until("the third connection handed off", Duration.ofSeconds(5), () -> handedOff.size() == 1);
            assertThat(errors)
                    .extracting(Throwable::getMessage)
                    .containsExactly("unable to create native thread", "a bug");
            assertThat(clients.get(0).getInputStream().read()).as("closed").isEqualTo(-1);
            assertThat(clients.get(1).getInputStream().read()).as("closed").isEqualTo(-1);
            assertThat(loop.failure()).isNull();
            for (Socket c : clients) {
                c.close();
            }
            handedOff.getFirst().close();
        }
    }

    @Test
    void failedAcceptsAreCountedAndRetriedUntilOneWorks() throws Exception {
        Counter errors = counter();
        List<Socket> handedOff = new CopyOnWriteArrayList<>();
        // the accepts fail as EMFILE does (a unit test of the loop's logic; the real EMFILE is below)
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress()) {
                    private int failures = 5;

                    @Override
                    public Socket accept() throws IOException {
                        if (failures-- > 0) {
                            throw new IOException("Too many open files");
                        }
                        return super.accept();
                    }
                };
                Socket client = new Socket()) {
            AcceptLoop loop = new AcceptLoop(server, handedOff::add, () -> true, errors, (who, t) -> {});
            Thread.ofVirtual().start(loop);
            client.connect(server.getLocalSocketAddress());
            Awaits.until("the connection handed off", Duration.ofSeconds(10), () -> handedOff.size() == 1);
            assertThat(errors.count()).isEqualTo(5);
            assertThat(loop.failure()).isNull();
            handedOff.getFirst().close();
        }
    }

    @Test
    void aSocketClosedUnderTheRunningLoopIsReported() throws Exception {
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        AcceptLoop loop = new AcceptLoop(server, Handshake::closeQuietly, () -> true, counter(), (who, t) -> {});
        Thread.ofVirtual().start(loop);
        server.close();
        Awaits.until("the failure reported", Duration.ofSeconds(5), () -> loop.failure() != null);
        assertThat(loop.failure())
                .startsWith("peer sync stopped accepting on " + loop.where() + ": its socket was closed");

        ServerSocket closedByItsListener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        boolean[] running = {true};
        AcceptLoop ended = new AcceptLoop(
                closedByItsListener, Handshake::closeQuietly, () -> running[0], counter(), (who, t) -> {});
        Thread t = Thread.ofVirtual().start(ended);
        running[0] = false;
        closedByItsListener.close();
        t.join(5000);
        assertThat(t.isAlive()).isFalse();
        assertThat(ended.failure())
                .as("a listener that was closed has not failed")
                .isNull();
    }

    @Test
    void theSyncPortAcceptsAgainAfterRunningOutOfDescriptors() throws Exception {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        classpath,
                        DescriptorStarvedNode.class.getName(),
                        dir.toString())
                .redirectError(dir.resolve("child.log").toFile())
                .start();
        List<Socket> held = new ArrayList<>();
        try (Node b = new Node("b", "TEL", "127.0.0.3", 9, dir, List.of());
                BufferedReader from =
                        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
                PrintWriter to = new PrintWriter(child.getOutputStream(), true, StandardCharsets.UTF_8)) {
            String[] ready = from.readLine().split(" "); // ready PORT TOKEN OPEN LIMIT CLASSES-PRELOADED
            InetSocketAddress port =
                    new InetSocketAddress(InetAddress.ofLiteral("127.0.0.2"), Integer.parseInt(ready[1]));
            long[] status = new long[3];
            Runnable ask = () -> {
                to.println("status");
                try {
                    String[] f = from.readLine().split(" "); // status ACCEPT-ERRORS FAILURES OPEN
                    for (int i = 0; i < 3; i++) {
                        status[i] = Long.parseLong(f[i + 1]);
                    }
                } catch (IOException | RuntimeException e) {
                    throw new AssertionError("the child stopped answering: see " + dir.resolve("child.log"), e);
                }
            };
            // connections that stay in their handshake: each holds a descriptor of the child
            for (int i = 0; i < 2 * DescriptorStarvedNode.HEADROOM; i++) {
                Socket s = new Socket();
                s.bind(new InetSocketAddress(InetAddress.ofLiteral("127.0.0.9"), 0));
                s.connect(port, 2000);
                s.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x40, 0x00, 0x01});
                held.add(s);
            }
            Awaits.until("accept failing in the child", Duration.ofSeconds(20), () -> {
                ask.run();
                return status[0] > 0;
            });
            System.out.printf(
                    "descriptors: the child (%s classes preloaded) had %s open, limit %s; %d connections held,"
                            + " %d accept errors, %s%n",
                    ready[5],
                    ready[3],
                    ready[4],
                    held.size(),
                    status[0],
                    status[2] < 0 ? "no descriptor left even to list them" : status[2] + " open");
            for (Socket s : held) {
                s.close();
            }
            held.clear();
            // the episode ends when the child has descriptors again (before, even loading a class could fail)
            Awaits.until("descriptors free in the child", Duration.ofSeconds(20), () -> {
                ask.run();
                return status[2] >= 0 && status[2] < Long.parseLong(ready[4]) - 4;
            });
            String joined = b.sync.join(ready[2]);
            ask.run();
            System.out.printf(
                    "after the connections closed: joined %s; %d accept errors in all, %d listener failures,"
                            + " %d descriptors open%n",
                    joined, status[0], status[1], status[2]);
            assertThat(joined).as("a join after the episode is accepted").isEqualTo("a");
            assertThat(status[1]).as("listener failures").isZero();
        } catch (Exception | AssertionError e) {
            System.out.println("the child's log:\n" + java.nio.file.Files.readString(dir.resolve("child.log")));
            throw e;
        } finally {
            for (Socket s : held) {
                s.close();
            }
            child.destroy();
            child.waitFor();
        }
    }

    private static Counter counter() {
        return new SimpleMeterRegistry().counter("errors");
    }
}
