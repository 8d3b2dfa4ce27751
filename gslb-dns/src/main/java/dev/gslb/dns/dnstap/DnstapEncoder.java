package dev.gslb.dns.dnstap;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes the protobuf of a dnstap message (dnstap.proto: {@code Dnstap} with {@code identity},
 * {@code version}, {@code extra}, {@code message}, {@code type = MESSAGE}; its {@code Message} of
 * type AUTH_QUERY or AUTH_RESPONSE). The few fields are written by hand: protobuf's wire format
 * for them is tags, varints, fixed32 and length-prefixed bytes. Used by the writer thread only;
 * its buffers are reused.
 */
final class DnstapEncoder {
    static final int AUTH_QUERY = 1;
    static final int AUTH_RESPONSE = 2;

    private static final int VARINT = 0;
    private static final int BYTES = 2;
    private static final int FIXED32 = 5;
    private static final int MESSAGE = 1; // Dnstap.Type.MESSAGE
    private static final int INET = 1;
    private static final int INET6 = 2;
    private static final int UDP = 1;
    private static final int TCP = 2;

    private final byte[] identity;
    private final byte[] version;
    private final Buffer message = new Buffer();
    private final Buffer frame = new Buffer();
    private final byte[] address = new byte[16];

    DnstapEncoder(String identity, String version) {
        this.identity = identity.getBytes(StandardCharsets.UTF_8);
        this.version = version.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The {@code Dnstap} of {@code r} as message {@code type}, with {@code extra} (null: none);
     * valid until the next call.
     */
    Buffer encode(TapRecord r, int type, byte[] extra) {
        Buffer m = message.clear();
        m.varintField(1, type);
        boolean v4 = r.hi == 0 && (r.lo >>> 32) == 0xFFFFL;
        m.varintField(2, v4 ? INET : INET6);
        m.varintField(3, r.tcp ? TCP : UDP);
        int length = addressOf(r.hi, r.lo, v4);
        m.bytesField(4, address, 0, length);
        m.varintField(6, r.port);
        long seconds = Math.floorDiv(r.millis, 1000);
        int nanos = (int) Math.floorMod(r.millis, 1000) * 1_000_000;
        m.varintField(8, seconds);
        m.fixed32Field(9, nanos);
        if (type == AUTH_QUERY) {
            m.bytesField(10, r.bytes, 0, r.queryLength);
        } else {
            m.varintField(12, seconds); // the answer goes out in the same millisecond the query came in
            m.fixed32Field(13, nanos);
            m.bytesField(14, r.bytes, r.queryLength, r.responseLength);
        }
        Buffer f = frame.clear();
        f.bytesField(1, identity, 0, identity.length);
        f.bytesField(2, version, 0, version.length);
        if (extra != null) {
            f.bytesField(3, extra, 0, extra.length);
        }
        f.bytesField(14, m.bytes, 0, m.length);
        f.varintField(15, MESSAGE);
        return f;
    }

    /** The client's address in its wire length: 4 bytes for IPv4 (mapped in the 128-bit form), else 16. */
    private int addressOf(long hi, long lo, boolean v4) {
        if (v4) {
            for (int i = 0; i < 4; i++) {
                address[i] = (byte) (lo >>> (24 - 8 * i));
            }
            return 4;
        }
        for (int i = 0; i < 8; i++) {
            address[i] = (byte) (hi >>> (56 - 8 * i));
            address[8 + i] = (byte) (lo >>> (56 - 8 * i));
        }
        return 16;
    }

    /** A growing byte array protobuf fields are written to. */
    static final class Buffer {
        byte[] bytes = new byte[1024];
        int length;

        Buffer clear() {
            length = 0;
            return this;
        }

        private void room(int n) {
            if (length + n > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + n));
            }
        }

        private void varint(long v) {
            room(10);
            while ((v & ~0x7FL) != 0) {
                bytes[length++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            bytes[length++] = (byte) v;
        }

        void varintField(int field, long v) {
            varint((long) field << 3 | VARINT);
            varint(v);
        }

        void fixed32Field(int field, int v) {
            varint((long) field << 3 | FIXED32);
            room(4);
            for (int i = 0; i < 4; i++) {
                bytes[length++] = (byte) (v >>> (8 * i)); // little-endian, as protobuf writes fixed32
            }
        }

        void bytesField(int field, byte[] b, int offset, int n) {
            varint((long) field << 3 | BYTES);
            varint(n);
            room(n);
            System.arraycopy(b, offset, bytes, length, n);
            length += n;
        }
    }
}
