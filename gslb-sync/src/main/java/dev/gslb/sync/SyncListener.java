package dev.gslb.sync;

import dev.gslb.topology.Address;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The accepting side of peer sync: listens, and authenticates each connection within limits set
 * before any byte is read. At most max-handshakes connections are in their handshake at once (more
 * are closed at once), each has a hard deadline, and only then does {@link Admission} decide who
 * the peer is; an admitted connection goes to its {@link Session}.
 */
final class SyncListener implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SyncListener.class);
    private static final int MAX_WARNED = 1000;

    /** Which peer an authenticated connection is, or a refusal with the reason. */
    interface Admission {
        Peer admit(Hello hello, String fingerprint) throws Wire.ProtocolException;
    }

    /** What an admitted connection does until it ends. */
    interface Session {
        void run(Handshake.Channel ch, Peer peer) throws IOException;
    }

    private final SyncSettings settings;
    private final SSLContext tls;
    private final Supplier<Hello> me;
    private final Admission admission;
    private final Session session;
    private final Semaphore handshakes;
    private final ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("sync-deadlines").factory());
    private final List<ServerSocket> servers = new CopyOnWriteArrayList<>();
    private final Set<String> warned = ConcurrentHashMap.newKeySet();
    private final Counter refused;
    private volatile boolean running = true;

    SyncListener(
            SyncSettings settings,
            SSLContext tls,
            Supplier<Hello> me,
            Admission admission,
            Session session,
            MeterRegistry registry) {
        this.settings = settings;
        this.tls = tls;
        this.me = me;
        this.admission = admission;
        this.session = session;
        this.handshakes = new Semaphore(settings.maxHandshakes());
        this.refused = Counter.builder("sync_connections_refused")
                .description(
                        "Peer connections refused: not pinned, bad hello, wrong data center, handshake timeout or cap")
                .register(registry);
    }

    /** Binds {@code address} and accepts on it; the bound address (a port 0 filled in). */
    InetSocketAddress listen(InetSocketAddress address) throws IOException {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        try {
            s.bind(address, 128);
        } catch (BindException e) {
            s.close();
            throw new BindException("cannot listen for peer sync on " + Address.hostPort(address) + ": "
                    + e.getMessage() + " (another gslb serve? stop it, or change sync.listen / serve --sync)");
        }
        servers.add(s);
        Thread.ofVirtual().name("sync-accept").start(() -> accept(s));
        return (InetSocketAddress) s.getLocalSocketAddress();
    }

    List<InetSocketAddress> listening() {
        return servers.stream()
                .map(s -> (InetSocketAddress) s.getLocalSocketAddress())
                .toList();
    }

    private void accept(ServerSocket server) {
        while (running) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return;
            }
            if (!handshakes.tryAcquire()) {
                refused.increment();
                Handshake.closeQuietly(s);
                continue;
            }
            Thread.ofVirtual()
                    .name("sync-from-" + s.getInetAddress().getHostAddress())
                    .start(() -> serve(s));
        }
    }

    private void serve(Socket raw) {
        String who = raw.getInetAddress().getHostAddress();
        boolean[] authenticated = {false};
        ScheduledFuture<?> deadline = deadlines.schedule(
                () -> {
                    if (!authenticated[0]) {
                        Handshake.closeQuietly(raw);
                    }
                },
                settings.handshakeTimeout().toMillis(),
                TimeUnit.MILLISECONDS);
        Peer peer = null;
        try (raw) {
            Handshake.Channel ch = Handshake.open(tls, raw, false, settings.handshakeTimeout(), null);
            ch.start();
            String fingerprint = ch.peerFingerprint();
            Hello hello = ch.receive();
            who = hello.instance() + " (" + who + ")";
            peer = admission.admit(hello, fingerprint);
            ch.send(me.get());
            authenticated[0] = true;
            deadline.cancel(false);
            handshakes.release();
            session.run(ch.authenticated(), peer);
        } catch (SocketTimeoutException e) {
            if (peer != null) { // the link that dials it logs the loss, once
                log.debug(
                        "peer {}: no heartbeat for {} s on its connection; closed",
                        peer.name(),
                        settings.deadAfter().toSeconds());
            } else {
                refuse(who, "no handshake within " + settings.handshakeTimeout().toSeconds() + " s");
            }
        } catch (Wire.ProtocolException | SSLException e) {
            if (peer == null) {
                refuse(who, e.getMessage());
            } else {
                log.warn("peer {}: {}; connection closed", peer.name(), e.getMessage());
            }
        } catch (IOException e) {
            log.debug("peer sync: connection from {} ended: {}", who, e.toString());
        } finally {
            if (!authenticated[0]) {
                deadline.cancel(false);
                handshakes.release();
            }
        }
    }

    private void refuse(String who, String why) {
        refused.increment();
        if (warned.size() >= MAX_WARNED) {
            warned.clear(); // the memory of what was logged is bounded
        }
        if (warned.add(who + why)) { // once per source and reason
            log.warn("peer sync: refused {}: {}", who, why);
        }
    }

    @Override
    public void close() {
        running = false;
        servers.forEach(Handshake::closeQuietly);
        deadlines.shutdownNow();
    }
}
