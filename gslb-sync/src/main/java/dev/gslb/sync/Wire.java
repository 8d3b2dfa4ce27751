package dev.gslb.sync;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Frames on a peer connection: {@code u32 length | u8 type | u64 seq | body | HMAC-SHA256}. The
 * HELLO exchange is authenticated with the pair's shared key and carries a fresh nonce from each
 * side; every later frame is authenticated with a key derived from both nonces and the direction,
 * and its sequence number must be exactly one more than the last. So a peer without the key, a
 * changed byte, a frame replayed from any connection, or reflected back, is refused.
 */
final class Wire {
    static final int PROTOCOL_VERSION = 1;
    static final int MAX_FRAME = 4 << 20;
    static final int MAC_BYTES = 32;

    enum Type {
        HELLO, HELLO_ACK, PATHS, HEALTH, PROBE, HEARTBEAT;

        static Type of(int code) throws AuthException {
            if (code < 0 || code >= values().length) {
                throw new AuthException("unknown frame type " + code);
            }
            return values()[code];
        }
    }

    record Frame(Type type, long seq, byte[] body, byte[] mac) {}

    /** A frame that must be refused: bad MAC, wrong sequence, wrong version, unknown peer. */
    static final class AuthException extends IOException {
        AuthException(String message) {
            super(message);
        }
    }

    private Wire() {}

    static Mac mac(byte[] key) {
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(new SecretKeySpec(key, "HmacSHA256"));
            return m;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The key of one direction of one session. */
    static byte[] sessionKey(byte[] shared, byte[] dialerNonce, byte[] acceptorNonce, boolean fromDialer) {
        Mac m = mac(shared);
        m.update("gslb-sync-session".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        m.update(dialerNonce);
        m.update(acceptorNonce);
        m.update((byte) (fromDialer ? 'd' : 'a'));
        return m.doFinal();
    }

    static byte[] macOf(Mac m, Type type, long seq, byte[] body) {
        m.update((byte) type.ordinal());
        for (int i = 7; i >= 0; i--) {
            m.update((byte) (seq >>> (8 * i)));
        }
        m.update(body);
        return m.doFinal();
    }

    static void write(DataOutputStream out, Mac m, Type type, long seq, byte[] body) throws IOException {
        byte[] mac = macOf(m, type, seq, body);
        out.writeInt(1 + 8 + body.length + MAC_BYTES);
        out.writeByte(type.ordinal());
        out.writeLong(seq);
        out.write(body);
        out.write(mac);
        out.flush();
    }

    /** A heartbeat: the sender's clock, from which the receiver shows the lag. */
    static void heartbeat(DataOutputStream out, Mac m, long seq, long sentAt) throws IOException {
        write(out, m, Type.HEARTBEAT, seq, body(o -> o.writeLong(sentAt)));
    }

    static Frame read(DataInputStream in) throws IOException {
        int length;
        try {
            length = in.readInt();
        } catch (EOFException e) {
            throw e;
        }
        if (length < 1 + 8 + MAC_BYTES || length > MAX_FRAME) {
            throw new AuthException("frame length " + length + " out of range");
        }
        Type type = Type.of(in.readUnsignedByte());
        long seq = in.readLong();
        byte[] body = new byte[length - 1 - 8 - MAC_BYTES];
        in.readFully(body);
        byte[] mac = new byte[MAC_BYTES];
        in.readFully(mac);
        return new Frame(type, seq, body, mac);
    }

    static void verify(Mac m, Frame f, long expectedSeq) throws AuthException {
        if (!MessageDigest.isEqual(macOf(m, f.type(), f.seq(), f.body()), f.mac())) {
            throw new AuthException("frame authentication failed (wrong key or tampered)");
        }
        if (f.seq() != expectedSeq) {
            throw new AuthException("sequence " + f.seq() + " where " + expectedSeq + " was due (replayed frame?)");
        }
    }

    /** Writes a body with DataOutputStream; bodies are small and built once per frame. */
    interface BodyWriter {
        void write(DataOutputStream out) throws IOException;
    }

    static byte[] body(BodyWriter w) {
        ByteArrayOutputStream b = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(b)) {
            w.write(out);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return b.toByteArray();
    }

    static DataInputStream reader(byte[] body) {
        return new DataInputStream(new java.io.ByteArrayInputStream(body));
    }
}
