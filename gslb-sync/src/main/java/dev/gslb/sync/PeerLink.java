package dev.gslb.sync;

import dev.gslb.topology.Address;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection this instance dials to one peer, carrying this side's items, over TLS 1.3 that
 * accepts only the peer's pinned certificate. The peer's addresses (one per ISP link) are tried in
 * order; a lost connection is redialled with backoff (cut short when the peer's own connection to
 * us works), and every (re)connection starts with a snapshot of everything still fresh, then
 * deltas. The queue is bounded: when it overflows, items are dropped and counted, and a new
 * snapshot heals. Losing the peer and getting it back are logged once each, with the reason.
 */
final class PeerLink {
    private static final Logger log = LoggerFactory.getLogger(PeerLink.class);
    private static final int BATCH = 1000;
    private static final long MIN_BACKOFF = 500;
    private static final long MAX_BACKOFF = 10_000;
    private static final String JOIN_REFUSED = "it refused this instance's certificate: the join token was already used"
            + " or has expired, or its terms refuse this instance's name or data center (its log says which;"
            + " run `gslb peer pair` there again)";

    enum State {
        CONNECTING,
        CONNECTED,
        DOWN
    }

    private final Peer peer;
    private final Hello.Factory me;
    private final SyncSettings settings;
    private final SSLContext tls;
    private final Consumer<Consumer<Item>> snapshot;
    private final BlockingQueue<Item> queue;
    private volatile byte[] joinSecret;
    /** Completes with null at the first authenticated session, or with why none could be made (for `peer join`). */
    final CompletableFuture<String> first = new CompletableFuture<>();

    final AtomicLong sent = new AtomicLong();
    final AtomicLong dropped = new AtomicLong();
    final AtomicLong bytes = new AtomicLong();
    volatile State state = State.CONNECTING;
    volatile InetSocketAddress inUse;
    volatile long lastHeard;
    private volatile String lastFailure;
    private volatile String lossReason;
    private volatile boolean resnapshot;
    private volatile boolean running = true;
    private volatile Socket socket;
    private final Object backoffLock = new Object();
    private boolean woken;
    private final Thread thread;

    PeerLink(
            Peer peer,
            Hello.Factory me,
            SyncSettings settings,
            SSLContext tls,
            Consumer<Consumer<Item>> snapshot,
            byte[] joinSecret) {
        this.peer = peer;
        this.me = me;
        this.settings = settings;
        this.tls = tls;
        this.snapshot = snapshot;
        this.joinSecret = joinSecret;
        this.queue = new ArrayBlockingQueue<>(settings.queue());
        this.thread = Thread.ofVirtual().name("sync-to-" + peer.name()).start(this::run);
    }

    Peer peer() {
        return peer;
    }

    int queued() {
        return queue.size();
    }

    /** Never blocks: a full queue drops the item and schedules a snapshot. */
    void offer(Item item) {
        if (!queue.offer(item)) {
            dropped.incrementAndGet();
            resnapshot();
        }
    }

    /** A snapshot again, once what is queued has gone (at the latest a heartbeat from now). */
    void resnapshot() {
        resnapshot = true;
    }

    /** The peer reached us: the path works, so redial now instead of waiting out the backoff. */
    void wake() {
        synchronized (backoffLock) {
            woken = true;
            backoffLock.notifyAll();
        }
    }

    private void run() {
        long backoff = MIN_BACKOFF;
        while (running) {
            List<String> failures = new ArrayList<>();
            for (InetSocketAddress address : peer.addresses()) {
                if (!running) {
                    return;
                }
                try (Socket raw = new Socket()) {
                    socket = raw;
                    raw.connect(address, 2000);
                    raw.setTcpNoDelay(true);
                    inUse = address;
                    session(raw, address);
                } catch (IOException e) {
                    failures.add(Address.hostPort(address) + ": " + reason(e));
                } catch (InterruptedException e) {
                    return;
                } finally {
                    if (state == State.CONNECTED) {
                        backoff = MIN_BACKOFF;
                        String why =
                                lossReason != null ? lossReason : failures.isEmpty() ? "closed" : failures.getLast();
                        log.warn("peer {} lost: {}", peer.name(), why);
                        lastFailure = null;
                    }
                    lossReason = null;
                    state = State.DOWN;
                    inUse = null;
                }
            }
            String why = peer.addresses().isEmpty() ? "no address to dial" : String.join("; ", failures);
            if (!first.isDone() && joinSecret != null) {
                first.complete(why.isEmpty() ? "no address to dial" : why);
                running = false;
                return;
            }
            // once per different reason, not once per retry; none when every session ended after it
            // connected (its loss is logged above)
            if (!why.isEmpty() && !why.equals(lastFailure)) {
                lastFailure = why;
                log.warn("peer {} unreachable: {}", peer.name(), why);
            }
            synchronized (backoffLock) {
                try {
                    if (!woken) {
                        backoffLock.wait(backoff);
                    }
                } catch (InterruptedException e) {
                    return;
                }
                backoff = woken ? MIN_BACKOFF : Math.min(backoff * 2, MAX_BACKOFF);
                woken = false;
            }
        }
    }

    /** Why a dial failed, in the operator's words. */
    private String reason(IOException e) {
        if (e instanceof ConnectException) {
            return "connection refused";
        }
        if (e instanceof SocketTimeoutException) {
            return "no answer (timeout)";
        }
        if (e instanceof java.io.EOFException) {
            return "the peer closed the connection";
        }
        if (e instanceof Refused) {
            return joinSecret != null
                    ? JOIN_REFUSED
                    : "it closed the connection after TLS: it refused this instance's certificate (not paired there:"
                            + " pair again) or its hello (its log says which)";
        }
        if (e instanceof SSLException) {
            String m = String.valueOf(e.getMessage());
            if (m.contains("not pinned")) {
                return "it presented a certificate other than " + peer.name() + "'s (not the paired instance)";
            }
            if (m.contains("certificate_unknown") || m.contains("bad_certificate")) {
                return joinSecret != null
                        ? JOIN_REFUSED
                        : "it refused this instance's certificate (not paired there: pair again)";
            }
            return "TLS failed: " + m;
        }
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    private void session(Socket raw, InetSocketAddress address) throws IOException, InterruptedException {
        Handshake.Channel ch = Handshake.open(tls, raw, true, settings.handshakeTimeout(), bytes);
        SSLSocket s = ch.socket();
        socket = s;
        byte[] secret = joinSecret;
        Hello theirs;
        try {
            ch.start();
            ch.send(secret == null ? me.hello() : me.join(secret));
            theirs = ch.receive();
        } catch (Wire.ProtocolException | SocketTimeoutException e) {
            throw e;
        } catch (IOException e) {
            if (String.valueOf(e.getMessage()).contains("not pinned")) {
                throw e; // this side refused the other's certificate
            }
            // TLS 1.3 finishes on the client's side before the server has checked its certificate:
            // a refusal shows up here, as an alert or a closed connection.
            throw new Refused(e);
        }
        Handshake.checkClaims(theirs, peer);
        Handshake.Channel live = ch.authenticated();
        DataOutputStream out = live.out();
        DataInputStream in = live.in();
        s.setSoTimeout((int) settings.deadAfter().toMillis());
        joinSecret = null; // used: from now on both sides have pinned each other
        state = State.CONNECTED;
        lastHeard = System.currentTimeMillis();
        log.info("peer {} ({}) connected over {}", peer.name(), peer.dataCenter(), Address.hostPort(address));
        first.complete(null);
        Thread reader = Thread.ofVirtual().start(() -> readHeartbeats(s, in));
        try {
            resnapshot = false;
            queue.clear(); // the snapshot carries everything still fresh
            sendSnapshot(out);
            long nextBeat = 0;
            List<Item> batch = new ArrayList<>(BATCH);
            while (running && !s.isClosed()) {
                long now = System.currentTimeMillis();
                if (now >= nextBeat) {
                    Wire.heartbeat(out, now);
                    nextBeat = now + settings.heartbeat().toMillis();
                }
                Item item = queue.poll(Math.max(1, nextBeat - now), TimeUnit.MILLISECONDS);
                if (item != null) {
                    batch.add(item);
                    queue.drainTo(batch, BATCH - 1);
                    sendBatch(out, batch);
                    batch.clear();
                } else if (resnapshot) {
                    resnapshot = false;
                    sendSnapshot(out);
                }
            }
        } finally {
            s.close();
            reader.interrupt();
        }
    }

    /**
     * The snapshot goes out a batch at a time as the table is walked: gathered whole first, three
     * million LDNS held 220 MB of items on the sender's heap for each peer (re)connecting, and the
     * peer waited for the whole walk before its first frame.
     */
    private void sendSnapshot(DataOutputStream out) throws IOException {
        List<Item> batch = new ArrayList<>(BATCH);
        try {
            snapshot.accept(item -> {
                batch.add(item);
                if (batch.size() == BATCH) {
                    try {
                        sendBatch(out, batch);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e); // out of the walk, rethrown below
                    }
                    batch.clear();
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        sendBatch(out, batch);
    }

    /** Items of a batch go out grouped by kind, at most {@value #BATCH} to a frame; expired ones are dropped. */
    private void sendBatch(DataOutputStream out, List<Item> batch) throws IOException {
        long now = System.currentTimeMillis();
        for (Wire.Type type : new Wire.Type[] {
            Wire.Type.PATHS, Wire.Type.HEALTH, Wire.Type.LINKS, Wire.Type.LOADS, Wire.Type.PROBE, Wire.Type.PERSIST
        }) {
            List<Item> ofType = new ArrayList<>();
            for (Item it : batch) {
                if (it.type() == type && !it.expired(now)) {
                    ofType.add(it);
                }
            }
            if (!ofType.isEmpty()) {
                Wire.write(out, type, Item.encode(type, ofType));
                sent.addAndGet(ofType.size());
            }
        }
        // the configuration first: runtime states name its objects
        for (Wire.Type whole : new Wire.Type[] {Wire.Type.CONFIG, Wire.Type.RUNTIME, Wire.Type.KEYS}) {
            for (Item it : newestWhole(batch, whole)) {
                Wire.write(out, whole, Item.encode(whole, List.of(it)));
                sent.incrementAndGet();
            }
        }
    }

    /**
     * What goes out of a batch's items of one whole kind: only the newest, each being the whole
     * configuration, all the runtime states or keys. But a configuration's content is never dropped
     * for a state told after it (a heartbeat's, which carries none): the newest content goes
     * first, then that state, and the peer takes the content.
     */
    static List<Item> newestWhole(List<Item> batch, Wire.Type whole) {
        Item newest = null;
        Item content = null;
        for (Item it : batch) {
            if (it.type() == whole) {
                newest = it;
                if (it instanceof Item.ConfigItem c && c.offer().bundle().length > 0) {
                    content = it;
                }
            }
        }
        if (newest == null) {
            return List.of();
        }
        return content == null || content == newest ? List.of(newest) : List.of(content, newest);
    }

    /** The other side sends heartbeats on this connection; silence for dead-after ends it. */
    private void readHeartbeats(Socket s, DataInputStream in) {
        try {
            while (!s.isClosed()) {
                Wire.Frame f = Wire.read(in);
                if (f.type() != Wire.Type.HEARTBEAT) {
                    throw new Wire.ProtocolException("unexpected " + f.type() + " frame");
                }
                lastHeard = System.currentTimeMillis();
            }
        } catch (SocketTimeoutException e) {
            lossReason = "no heartbeat for " + settings.deadAfter().toSeconds() + " s";
        } catch (IOException e) {
            lossReason = s.isClosed() ? null : reason(e);
        } finally {
            Handshake.closeQuietly(s);
        }
    }

    void close() {
        running = false;
        first.complete("closed");
        thread.interrupt();
        Socket s = socket;
        if (s != null) {
            Handshake.closeQuietly(s);
        }
    }

    /** The peer ended the connection between the TLS handshake and its hello. */
    private static final class Refused extends IOException {
        Refused(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }
}
