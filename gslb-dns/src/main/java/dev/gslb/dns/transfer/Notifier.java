package dev.gslb.dns.transfer;

import dev.gslb.dns.tsig.TsigKey;
import dev.gslb.dns.tsig.TsigKeys;
import dev.gslb.dns.zone.TransferSettings;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Opcode;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.SOARecord;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/**
 * Sends NOTIFY (RFC 1996) to a zone's secondaries when its serial moves: over UDP, signed with the
 * zone's first transfer key when it has one, sent again after 2, 4, 8 and 16 s until the
 * secondary answers (five sends at most). One sender per zone and secondary: a newer serial
 * replaces the sends of the older one.
 */
public final class Notifier implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Notifier.class);
    private static final int SENDS = 5;
    private final Duration firstWait;
    private final Map<String, Thread> senders = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public Notifier() {
        this(Duration.ofSeconds(2));
    }

    /** With the first wait for an answer given (tests shorten it). */
    Notifier(Duration firstWait) {
        this.firstWait = firstWait;
    }

    /** Tells each of {@code transfer}'s secondaries that {@code origin} is at {@code soa}'s serial. */
    public void announce(Name origin, SOARecord soa, TransferSettings transfer, TsigKeys keys) {
        if (closed) {
            return;
        }
        TsigKey key = transfer.notifyKey() == null ? null : keys.find(transfer.notifyKey());
        for (InetSocketAddress target : transfer.notifyAddresses()) {
            String id = origin + " " + target;
            Thread sender = Thread.ofVirtual().name("notify " + id).unstarted(() -> send(origin, soa, key, target));
            Thread before = senders.put(id, sender);
            if (before != null) {
                before.interrupt();
            }
            sender.start();
        }
    }

    private void send(Name origin, SOARecord soa, TsigKey key, InetSocketAddress target) {
        Message notify = new Message();
        notify.getHeader().setOpcode(Opcode.NOTIFY);
        notify.getHeader().setFlag(Flags.AA);
        notify.addRecord(Record.newRecord(origin, Type.SOA, DClass.IN), Section.QUESTION);
        notify.addRecord(soa, Section.ANSWER); // the new serial, a hint (RFC 1996 3.7)
        if (key != null) {
            key.tsig().apply(notify, null);
        }
        byte[] wire = notify.toWire();
        long wait = firstWait.toMillis();
        try (DatagramSocket socket = new DatagramSocket()) {
            socket.connect(target); // only the secondary's own datagrams are read as its answer
            for (int send = 1; send <= SENDS && !closed; send++, wait *= 2) {
                socket.send(new DatagramPacket(wire, wire.length, target));
                socket.setSoTimeout((int) wait);
                if (answered(socket, notify.getHeader().getID(), wait)) {
                    log.debug("zone {}: NOTIFY of serial {} answered by {}", origin, soa.getSerial(), target);
                    return;
                }
            }
            if (!closed) {
                log.warn(
                        "zone {}: NOTIFY of serial {} to {} was not answered after {} sends; it will refresh on its own",
                        origin,
                        soa.getSerial(),
                        target,
                        SENDS);
            }
        } catch (IOException e) {
            if (!Thread.currentThread().isInterrupted()) {
                log.warn("zone {}: NOTIFY to {} failed: {}", origin, target, e.toString());
            }
        } finally {
            senders.remove(origin + " " + target, Thread.currentThread());
        }
    }

    /** Whether an answer to the NOTIFY {@code id} arrives within {@code waitMillis} (others are read past). */
    private static boolean answered(DatagramSocket socket, int id, long waitMillis) throws IOException {
        long until = System.nanoTime() + waitMillis * 1_000_000;
        byte[] buf = new byte[4096];
        while (System.nanoTime() < until && !Thread.currentThread().isInterrupted()) {
            DatagramPacket p = new DatagramPacket(buf, buf.length);
            try {
                socket.receive(p);
            } catch (SocketTimeoutException e) {
                return false;
            }
            if (p.getLength() >= 12 && ((buf[0] & 0xFF) << 8 | (buf[1] & 0xFF)) == id && (buf[2] & 0x80) != 0) {
                int rcode = buf[3] & 0x0F;
                if (rcode != Rcode.NOERROR) {
                    log.warn("NOTIFY answered with {} by {}", Rcode.string(rcode), p.getSocketAddress());
                }
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        closed = true;
        senders.values().forEach(Thread::interrupt);
    }
}
