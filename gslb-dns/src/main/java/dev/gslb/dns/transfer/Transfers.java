package dev.gslb.dns.transfer;

import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.answer.ThrottledLog;
import dev.gslb.dns.tsig.TsigKeys;
import dev.gslb.dns.zone.TransferSettings;
import dev.gslb.dns.zone.Zone;
import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import java.util.stream.Stream;
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
import org.xbill.DNS.Serial;
import org.xbill.DNS.TSIGRecord;
import org.xbill.DNS.Type;

/**
 * Zone transfers out (RFC 5936 AXFR, RFC 1995 IXFR) over TCP, to the addresses and TSIG keys a
 * zone's {@code transfer:} allows, and NOTIFY to its secondaries when its serial moves. Holds the
 * zones offered and their journals, replaced whole on each reload ({@link #update}); a transfer in
 * flight finishes on the copy it started with.
 */
public final class Transfers implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Transfers.class);
    /** Transfers out at once (BIND's transfers-out is 10): more are refused, and retried by their secondaries. */
    public static final int MAX_CONCURRENT = 10;
    /** Bytes of records one message carries at most before compression (a message may not pass 64 KiB). */
    private static final int MESSAGE_BYTES = 16_000;

    /** A zone offered: its content as transferred, and its journal. */
    private record Offered(Zone zone, ZoneContent content, ZoneJournal journal) {}

    private volatile Map<Name, Offered> offered = Map.of();
    private volatile TsigKeys keys = TsigKeys.NONE;
    private final Semaphore running = new Semaphore(MAX_CONCURRENT);
    private final ThrottledLog refusals = new ThrottledLog("gslb.transfer");
    private final Notifier notifier;
    private final java.util.concurrent.atomic.AtomicLong axfrs = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong ixfrs = new java.util.concurrent.atomic.AtomicLong();

    public Transfers(Notifier notifier) {
        this.notifier = notifier;
    }

    /**
     * Takes the zones of {@code authority} and the keys: a zone whose serial went forward gets its
     * change journaled and its secondaries notified. Called by one thread at a time (a reload).
     */
    public synchronized void update(Authority authority, TsigKeys tsigKeys) {
        Map<Name, Offered> before = offered;
        Map<Name, Offered> now = new HashMap<>();
        List<Offered> changed = new ArrayList<>();
        for (Zone z : authority.zones().all()) {
            if (z.transfer() == null || z.expired()) { // a secondary zone not held is not handed on
                continue;
            }
            Offered old = before.get(z.origin());
            if (old != null
                    && old.zone().sameData(z)
                    && old.zone().transfer().equals(z.transfer())
                    && old.content().standIns().equals(ZoneContent.standIns(authority, z))) {
                now.put(z.origin(), new Offered(z, old.content(), old.journal())); // untouched: not compared again
                continue;
            }
            ZoneContent content = ZoneContent.of(authority, z);
            ZoneJournal journal = ZoneJournal.EMPTY;
            if (old != null) {
                journal = old.journal().after(old.content(), content);
                long from = old.content().soa().getSerial();
                long to = content.soa().getSerial();
                if (Serial.compare(to, from) < 0) {
                    log.warn(
                            "zone {}: serial went back from {} to {}; secondaries keep {} until they expire it",
                            z.origin(),
                            from,
                            to,
                            from);
                } else if (from == to && journal != old.journal()) {
                    log.warn(
                            "zone {}: records changed but serial {} did not; secondaries will not see the change",
                            z.origin(),
                            to);
                }
            }
            Offered o = new Offered(z, content, journal);
            now.put(z.origin(), o);
            if (old == null || old.content().soa().getSerial() != content.soa().getSerial()) {
                changed.add(o);
            }
        }
        keys = tsigKeys;
        offered = Map.copyOf(now);
        for (Offered o : changed) {
            notifier.announce(o.zone().origin(), o.content().soa(), o.zone().transfer(), tsigKeys);
        }
    }

    /** The journal's changes kept for {@code origin} (for the status of a zone, and tests). */
    public int journaled(Name origin) {
        Offered o = offered.get(origin);
        return o == null ? 0 : o.journal().changes().size();
    }

    /** Transfers sent: AXFR (the whole zone, asked by AXFR or IXFR) or IXFR (changes from the journal). */
    public long sent(int type) {
        return type == Type.IXFR ? ixfrs.get() : axfrs.get();
    }

    /**
     * Whether {@code packet[0, length)} asks for a transfer (a question of type AXFR or IXFR):
     * read on the raw bytes, so the TCP path tells one from a query without parsing it.
     */
    public static boolean isTransfer(byte[] packet, int length) {
        if (length < 17 || (packet[2] & 0x80) != 0 || packet[4] != 0 || packet[5] != 1) {
            return false;
        }
        int p = 12;
        for (int labels = 0; p < length && labels < 128; labels++) {
            int len = packet[p] & 0xFF;
            if (len == 0) {
                p++;
                if (p + 2 > length) {
                    return false;
                }
                int type = (packet[p] & 0xFF) << 8 | (packet[p + 1] & 0xFF);
                return type == Type.AXFR || type == Type.IXFR;
            }
            if (len > 63) {
                return false;
            }
            p += len + 1;
        }
        return false;
    }

    /**
     * Answers the transfer request {@code packet[0, length)} from {@code client}, each message
     * handed to {@code send} in order (which may block while the client reads). A request not
     * allowed, or not for a zone offered here, gets one REFUSED message, and a line in the log.
     */
    public void answer(byte[] packet, int length, InetAddress client, Consumer<byte[]> send) {
        TsigKeys.Checked q;
        try {
            q = keys.check(packet, length);
        } catch (IOException e) {
            refused(client, "?", "malformed request (" + e.getMessage() + ")");
            return; // not a message: no answer, the connection is closed
        }
        if (q.error() != Rcode.NOERROR) {
            Record asked = q.message().getQuestion();
            refused(client, asked == null ? "?" : asked.getName().toString(), "TSIG " + Rcode.TSIGstring(q.error()));
            send.accept(q.errorAnswer());
            return;
        }
        Message m = q.message();
        Record question = m.getQuestion();
        if (m.getHeader().getOpcode() != Opcode.QUERY || question == null || question.getDClass() != DClass.IN) {
            send.accept(error(q, Rcode.FORMERR));
            return;
        }
        Offered o = offered.get(question.getName());
        Name key = q.key() == null ? null : q.key().name();
        if (o == null) {
            refused(client, question.getName().toString(), "no zone of that name is offered for transfer");
            send.accept(error(q, Rcode.REFUSED));
            return;
        }
        TransferSettings acl = o.zone().transfer();
        if (!acl.permits(client, key)) {
            refused(
                    client,
                    question.getName().toString(),
                    key == null ? "not allowed (unsigned)" : "not allowed with key " + key);
            send.accept(error(q, Rcode.REFUSED));
            return;
        }
        if (!running.tryAcquire()) {
            refused(client, question.getName().toString(), MAX_CONCURRENT + " transfers are running already");
            send.accept(error(q, Rcode.REFUSED));
            return;
        }
        try {
            Iterator<Record> records = question.getType() == Type.IXFR ? ixfr(o, m) : axfr(o);
            if (records == null) {
                send.accept(error(q, Rcode.FORMERR)); // an IXFR without the secondary's SOA
                return;
            }
            stream(q, records, send);
            log.info(
                    "zone {}: {} to {}{} (serial {})",
                    o.zone().origin(),
                    Type.string(question.getType()),
                    client.getHostAddress(),
                    key == null ? "" : " with key " + key,
                    o.content().soa().getSerial());
        } finally {
            running.release();
        }
    }

    private Iterator<Record> axfr(Offered o) {
        axfrs.incrementAndGet();
        SOARecord soa = o.content().soa();
        return Stream.concat(Stream.concat(Stream.of(soa), o.content().records().stream()), Stream.of(soa))
                .iterator();
    }

    /**
     * RFC 1995 4: the SOA alone when the secondary is current; the changes since its serial when
     * the journal holds them all; else the whole zone, as AXFR sends it.
     */
    private Iterator<Record> ixfr(Offered o, Message m) {
        List<Record> authority = m.getSection(Section.AUTHORITY);
        if (authority.size() != 1 || !(authority.getFirst() instanceof SOARecord theirs)) {
            return null;
        }
        SOARecord soa = o.content().soa();
        if (Serial.compare(theirs.getSerial(), soa.getSerial()) >= 0) {
            return List.<Record>of(soa).iterator();
        }
        List<ZoneJournal.Change> changes = o.journal().since(theirs.getSerial());
        if (changes == null) {
            return axfr(o);
        }
        ixfrs.incrementAndGet();
        List<Record> out = new ArrayList<>();
        out.add(soa);
        for (ZoneJournal.Change c : changes) {
            out.add(c.from());
            out.addAll(c.deleted());
            out.add(c.to());
            out.addAll(c.added());
        }
        out.add(soa);
        return out.iterator();
    }

    /** The records in messages of at most {@link #MESSAGE_BYTES}, each signed when the request was (RFC 8945 5.3.1). */
    private static void stream(TsigKeys.Checked q, Iterator<Record> records, Consumer<byte[]> send) {
        Message query = q.message();
        TSIGRecord previous = q.tsig();
        boolean first = true;
        Record pending = null;
        while (records.hasNext() || pending != null) {
            Message m = response(query, Rcode.NOERROR);
            int bytes = 0;
            while (records.hasNext() || pending != null) {
                Record r = pending != null ? pending : records.next();
                pending = null;
                int size = r.getName().length() + 10 + r.rdataToWireCanonical().length;
                if (bytes > 0 && bytes + size > MESSAGE_BYTES) { // full: this record opens the next message
                    pending = r;
                    break;
                }
                m.addRecord(r, Section.ANSWER);
                bytes += size;
            }
            if (q.key() != null) {
                q.key().tsig().apply(m, previous, first);
                previous = m.getTSIG();
            }
            first = false;
            send.accept(m.toWire());
        }
    }

    private static Message response(Message query, int rcode) {
        Message m = new Message(query.getHeader().getID());
        m.getHeader().setFlag(Flags.QR);
        m.getHeader().setFlag(Flags.AA);
        m.getHeader().setRcode(rcode);
        Record question = query.getQuestion();
        if (question != null) {
            m.addRecord(question, Section.QUESTION);
        }
        return m;
    }

    private static byte[] error(TsigKeys.Checked q, int rcode) {
        Message m = response(q.message(), rcode);
        m.getHeader().unsetFlag(Flags.AA);
        q.sign(m);
        return m.toWire();
    }

    private void refused(InetAddress client, String what, String why) {
        if (refusals.admit()) {
            refusals.line("transfer of " + what + " to " + client.getHostAddress() + " refused: " + why);
        }
    }

    @Override
    public void close() {
        refusals.close();
        notifier.close();
    }
}
