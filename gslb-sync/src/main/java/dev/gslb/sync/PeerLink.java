package dev.gslb.sync;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import javax.crypto.Mac;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection this instance dials to one peer, carrying this side's items. The peer's
 * addresses (one per ISP link) are tried in order; a lost connection is redialled with backoff,
 * and every (re)connection starts with a snapshot of everything still fresh, then deltas. The
 * queue is bounded: when it overflows, items are dropped and counted, and a new snapshot heals.
 */
final class PeerLink {
    private static final Logger log = LoggerFactory.getLogger(PeerLink.class);
    private static final int BATCH = 1000;
    private static final SecureRandom RANDOM = new SecureRandom();

    enum State { CONNECTING, CONNECTED, DOWN }

    private final Peer peer;
    private final Hello.Factory me;
    private final SyncSettings settings;
    private final Consumer<Consumer<Item>> snapshot;
    private final BlockingQueue<Item> queue;
    final AtomicLong sent = new AtomicLong();
    final AtomicLong dropped = new AtomicLong();
    final AtomicLong bytes = new AtomicLong();
    volatile State state = State.CONNECTING;
    volatile InetSocketAddress inUse;
    volatile long lastHeard;
    private volatile boolean resnapshot;
    private volatile boolean running = true;
    private volatile Socket socket;
    private final Thread thread;

    PeerLink(Peer peer, Hello.Factory me, SyncSettings settings, Consumer<Consumer<Item>> snapshot) {
        this.peer = peer;
        this.me = me;
        this.settings = settings;
        this.snapshot = snapshot;
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
            resnapshot = true;
        }
    }

    private void run() {
        long backoff = 500;
        while (running) {
            for (InetSocketAddress address : peer.addresses()) {
                if (!running) {
                    return;
                }
                try (Socket s = new Socket()) {
                    socket = s;
                    s.connect(address, 2000);
                    s.setTcpNoDelay(true);
                    inUse = address;
                    session(s);
                } catch (Wire.AuthException e) {
                    log.warn("peer {} at {} refused the session: {}", peer.name(), PeersFile.format(address), e.getMessage());
                } catch (IOException e) {
                    if (state == State.CONNECTED) {
                        log.warn("peer {}: connection over {} lost: {}", peer.name(), PeersFile.format(address), e.getMessage());
                    }
                } catch (InterruptedException e) {
                    return;
                } finally {
                    if (state == State.CONNECTED) {
                        backoff = 500;
                    }
                    state = State.DOWN;
                    inUse = null;
                }
            }
            try {
                Thread.sleep(backoff);
            } catch (InterruptedException e) {
                return;
            }
            backoff = Math.min(backoff * 2, 10_000);
        }
    }

    private void session(Socket s) throws IOException, InterruptedException {
        DataOutputStream out = new DataOutputStream(new CountingOutput(new BufferedOutputStream(s.getOutputStream(), 65536), bytes));
        DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
        byte[] nonce = new byte[16];
        RANDOM.nextBytes(nonce);
        Mac shared = Wire.mac(peer.key());
        Wire.write(out, shared, Wire.Type.HELLO, 0, me.hello(nonce).encode());
        s.setSoTimeout((int) settings.deadAfter().toMillis());
        Wire.Frame ackFrame = Wire.read(in);
        if (ackFrame.type() != Wire.Type.HELLO_ACK) {
            throw new Wire.AuthException("expected HELLO_ACK, got " + ackFrame.type());
        }
        Wire.verify(shared, ackFrame, 0);
        Hello ack = Hello.decode(ackFrame.body());
        if (ack.version() != Wire.PROTOCOL_VERSION) {
            throw new Wire.AuthException("peer speaks sync protocol v" + ack.version() + ", this instance v"
                    + Wire.PROTOCOL_VERSION + "; upgrade one side");
        }
        Mac send = Wire.mac(Wire.sessionKey(peer.key(), nonce, ack.nonce(), true));
        Mac receive = Wire.mac(Wire.sessionKey(peer.key(), nonce, ack.nonce(), false));
        state = State.CONNECTED;
        lastHeard = System.currentTimeMillis();
        log.info("peer {} ({}) connected over {}", peer.name(), peer.dataCenter(), PeersFile.format(inUse));
        Thread reader = Thread.ofVirtual().start(() -> readHeartbeats(s, in, receive));
        try {
            long[] seq = {1};
            resnapshot = false;
            queue.clear(); // the snapshot carries everything still fresh
            sendSnapshot(out, send, seq);
            long nextBeat = 0;
            List<Item> batch = new ArrayList<>(BATCH);
            while (running && !s.isClosed()) {
                long now = System.currentTimeMillis();
                if (now >= nextBeat) {
                    Wire.heartbeat(out, send, seq[0]++, now);
                    nextBeat = now + settings.heartbeat().toMillis();
                }
                if (now - lastHeard > settings.deadAfter().toMillis()) {
                    throw new IOException("no heartbeat for " + settings.deadAfter().toSeconds() + " s");
                }
                Item first = queue.poll(Math.max(1, nextBeat - now), TimeUnit.MILLISECONDS);
                if (first != null) {
                    batch.add(first);
                    queue.drainTo(batch, BATCH - 1);
                    sendBatch(out, send, seq, batch);
                    batch.clear();
                } else if (resnapshot) {
                    resnapshot = false;
                    sendSnapshot(out, send, seq);
                }
            }
        } finally {
            s.close();
            reader.interrupt();
        }
    }

    private void sendSnapshot(DataOutputStream out, Mac send, long[] seq) throws IOException {
        List<Item> all = new ArrayList<>();
        snapshot.accept(all::add);
        List<Item> batch = new ArrayList<>(BATCH);
        for (Item it : all) {
            batch.add(it);
            if (batch.size() == BATCH) {
                sendBatch(out, send, seq, batch);
                batch.clear();
            }
        }
        sendBatch(out, send, seq, batch);
    }

    /** Items of a batch go out grouped by kind, at most {@value #BATCH} to a frame; expired ones are dropped. */
    private void sendBatch(DataOutputStream out, Mac send, long[] seq, List<Item> batch) throws IOException {
        long now = System.currentTimeMillis();
        for (Wire.Type type : new Wire.Type[] {Wire.Type.PATHS, Wire.Type.HEALTH, Wire.Type.PROBE}) {
            List<Item> ofType = new ArrayList<>();
            for (Item it : batch) {
                if (it.type() == type && !it.expired(now)) {
                    ofType.add(it);
                }
            }
            if (!ofType.isEmpty()) {
                Wire.write(out, send, type, seq[0]++, Item.encode(type, ofType, me.dataCenter(), me.instance()));
                sent.addAndGet(ofType.size());
            }
        }
    }

    private void readHeartbeats(Socket s, DataInputStream in, Mac receive) {
        long expected = 1;
        try {
            while (!s.isClosed()) {
                Wire.Frame f = Wire.read(in);
                Wire.verify(receive, f, expected++);
                lastHeard = System.currentTimeMillis();
            }
        } catch (IOException e) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }

    void close() {
        running = false;
        thread.interrupt();
        Socket s = socket;
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }

    /** Counts the bytes that go on the wire, for the bytes-per-update figure. */
    private static final class CountingOutput extends java.io.FilterOutputStream {
        private final AtomicLong count;

        CountingOutput(java.io.OutputStream out, AtomicLong count) {
            super(out);
            this.count = count;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count.incrementAndGet();
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count.addAndGet(len);
        }
    }
}
