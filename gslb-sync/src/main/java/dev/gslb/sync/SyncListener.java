package dev.gslb.sync;

import dev.gslb.topology.Address;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The accepting side of peer sync: listens, and authenticates each connection within limits set
 * before any byte is read. Each accepted connection takes its {@link ConnectionSlots} (more than
 * the port's limits are closed at once), has a hard deadline for its handshake, and only then does
 * {@link Admission} decide who the peer is; an admitted connection goes to its {@link Session}.
 * Accepting runs in an {@link AcceptLoop} per address, which no error ends; a connection's handler
 * ends its connection on any error, never the listener.
 */
final class SyncListener implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SyncListener.class);

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
    private final ConnectionSlots slots;
    private final ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("sync-deadlines").factory());
    private final List<ServerSocket> servers = new CopyOnWriteArrayList<>();
    private final List<AcceptLoop> loops = new CopyOnWriteArrayList<>();
    private final LoggedOnce logged = new LoggedOnce();
    private final Counter refused;
    private final Counter acceptErrors;
    private final Counter handlerErrors;
    private volatile boolean running = true;

    /** {@code peerAddress}: whether an address is one a paired peer advertises (it gets the peers' slots). */
    SyncListener(
            SyncSettings settings,
            SSLContext tls,
            Supplier<Hello> me,
            Admission admission,
            Session session,
            Predicate<InetAddress> peerAddress,
            MeterRegistry registry) {
        this.settings = settings;
        this.tls = tls;
        this.me = me;
        this.admission = admission;
        this.session = session;
        this.slots = new ConnectionSlots(settings.limits(), peerAddress);
        this.refused = Counter.builder("sync_connections_refused")
                .description("Peer connections refused: not pinned, bad hello, wrong data center, handshake timeout,"
                        + " or over the port's connection limits")
                .register(registry);
        this.acceptErrors = Counter.builder("sync_accept_errors")
                .description("Failed accepts on the sync port (descriptors exhausted or another error); retried")
                .register(registry);
        this.handlerErrors = Counter.builder("sync_handler_errors")
                .description("Unexpected errors in a sync connection's handler; that connection was closed")
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
        AcceptLoop loop = new AcceptLoop(s, this::handOff, () -> running, acceptErrors, this::unexpected);
        loops.add(loop);
        Thread.ofVirtual().name("sync-accept").start(loop);
        return (InetSocketAddress) s.getLocalSocketAddress();
    }

    List<InetSocketAddress> listening() {
        return servers.stream()
                .map(s -> (InetSocketAddress) s.getLocalSocketAddress())
                .toList();
    }

    /** Why each listener that stopped accepting did (empty while all accept). */
    List<String> failures() {
        return loops.stream().map(AcceptLoop::failure).filter(f -> f != null).toList();
    }

    /** An accepted connection: its slots, or closed at once. */
    private void handOff(Socket s) {
        ConnectionSlots.Slot slot;
        try {
            slot = slots.take(s.getInetAddress());
        } catch (ConnectionSlots.Refused e) {
            Handshake.closeQuietly(s);
            refuse(s.getInetAddress().getHostAddress(), e.getMessage());
            return;
        }
        try {
            Thread.ofVirtual()
                    .name("sync-from-" + s.getInetAddress().getHostAddress())
                    .start(() -> serve(s, slot));
        } catch (Throwable t) { // no thread for it: the connection and its slots are given back
            slot.close();
            throw t;
        }
    }

    /** Connections the sync port holds now. */
    int open() {
        return slots.open();
    }

    private void serve(Socket raw, ConnectionSlots.Slot slot) {
        String who = raw.getInetAddress().getHostAddress();
        boolean[] authenticated = {false};
        ScheduledFuture<?> deadline = null;
        Peer peer = null;
        try (slot;
                raw) {
            deadline = deadlines.schedule(
                    () -> {
                        if (!authenticated[0]) {
                            Handshake.closeQuietly(raw);
                        }
                    },
                    settings.handshakeTimeout().toMillis(),
                    TimeUnit.MILLISECONDS);
            Handshake.Channel ch = Handshake.open(tls, raw, false, settings.handshakeTimeout(), null);
            ch.start();
            String fingerprint = ch.peerFingerprint();
            Hello hello = ch.receive();
            who = hello.instance() + " (" + who + ")";
            peer = admission.admit(hello, fingerprint);
            ch.send(me.get());
            authenticated[0] = true;
            deadline.cancel(false);
            slot.authenticated();
            slots.learn(raw.getInetAddress());
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
        } catch (Throwable t) { // a bug, or no memory: this connection ends, the listener goes on
            unexpected(who, t);
        } finally {
            if (deadline != null) {
                deadline.cancel(false);
            }
        }
    }

    /** Counted, and logged with its stack trace once per kind of error: it is not an expected refusal. */
    private void unexpected(String who, Throwable t) {
        handlerErrors.increment();
        if (logged.first(t.getClass().getName() + ": " + t.getMessage())) {
            log.error("peer sync: the connection from {} failed unexpectedly and was closed", who, t);
        }
    }

    private void refuse(String who, String why) {
        refused.increment();
        if (logged.first(who + why)) { // once per source and reason
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
