package dev.gslb.dns.tsig;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.TSIG;
import org.xbill.DNS.TSIGRecord;

/**
 * The TSIG keys this server knows ({@code tsig-keys:}), and the check of a signed message against
 * them (RFC 8945 5.2): the key and algorithm, then the MAC, then the time, each failure answered
 * with its own error. Immutable; a reload makes a new one.
 */
public final class TsigKeys {
    public static final TsigKeys NONE = new TsigKeys(List.of());

    private final Map<Name, TsigKey> byName;

    public TsigKeys(List<TsigKey> keys) {
        Map<Name, TsigKey> m = new HashMap<>();
        for (TsigKey k : keys) {
            if (m.put(k.name(), k) != null) {
                throw new IllegalArgumentException("TSIG key " + k.name() + " is defined twice");
            }
        }
        this.byName = Map.copyOf(m);
    }

    public boolean isEmpty() {
        return byName.isEmpty();
    }

    /** The key of that name, or null. */
    public TsigKey find(Name name) {
        return byName.get(name);
    }

    public Set<Name> names() {
        return byName.keySet();
    }

    /**
     * A message read and its TSIG checked: {@code error} is {@link Rcode#NOERROR} (verified, or not
     * signed: {@code key} null) or the TSIG error to answer with ({@code BADKEY}, {@code BADSIG},
     * {@code BADTIME}).
     */
    public record Checked(Message message, TsigKey key, TSIGRecord tsig, int error) {
        public boolean signed() {
            return tsig != null;
        }

        /** Signs {@code response} to this query (the first or only message: the query's MAC is in it). */
        public void sign(Message response) {
            if (key != null) {
                key.tsig().apply(response, tsig);
            }
        }

        /**
         * The RFC 8945 5.3.2 answer to a query that failed its check: NOTAUTH, the question, and a
         * TSIG record with the error; unsigned for BADKEY and BADSIG, signed for BADTIME (with our
         * time in its other data).
         */
        public byte[] errorAnswer() {
            Message response = new Message(message.getHeader().getID());
            response.getHeader().setFlag(Flags.QR);
            response.getHeader().setOpcode(message.getHeader().getOpcode());
            response.getHeader().setRcode(Rcode.NOTAUTH);
            Record question = message.getQuestion();
            if (question != null) {
                response.addRecord(question, Section.QUESTION);
            }
            TSIG signer = key != null ? key.tsig() : unsigning(tsig);
            byte[] wire = response.toWire();
            response.addRecord(signer.generate(response, wire, error, tsig), Section.ADDITIONAL);
            return response.toWire();
        }
    }

    /** A TSIG for an unknown key, only to write its error record (which carries no MAC). */
    private static TSIG unsigning(TSIGRecord tsig) {
        try {
            return new TSIG(tsig.getAlgorithm(), tsig.getName(), new byte[32]);
        } catch (IllegalArgumentException unknownAlgorithm) {
            return new TSIG(TSIG.HMAC_SHA256, tsig.getName(), new byte[32]);
        }
    }

    /**
     * Reads {@code packet[0, length)} and checks its TSIG, if it has one, against these keys.
     *
     * @throws IOException when it is not a DNS message at all
     */
    public Checked check(byte[] packet, int length) throws IOException {
        byte[] wire = length == packet.length ? packet : java.util.Arrays.copyOf(packet, length);
        Message m;
        TSIGRecord tsig;
        try {
            m = new Message(wire);
            tsig = m.getTSIG();
        } catch (RuntimeException e) { // dnsjava on a message cut short in a section it counts (a fuzz finding)
            throw new IOException("malformed message: " + e.getClass().getSimpleName());
        }
        if (tsig == null) {
            return new Checked(m, null, null, Rcode.NOERROR);
        }
        TsigKey key = byName.get(tsig.getName());
        if (key == null || !key.algorithm().equals(tsig.getAlgorithm())) {
            return new Checked(m, null, tsig, Rcode.BADKEY);
        }
        int result = key.tsig().verify(m, wire, null);
        return new Checked(m, key, tsig, result == Rcode.FORMERR ? Rcode.BADSIG : result);
    }
}
