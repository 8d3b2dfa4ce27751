package dev.gslb.sync;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Objects;

/**
 * Frames on a peer connection, inside TLS 1.3: {@code u32 length | u8 type | body}. TLS with
 * pinned certificates authenticates, encrypts and orders them, so a frame carries no MAC of its
 * own; the length is checked before anything is allocated.
 */
final class Wire {
    /**
     * 3: link items; 4: the shared configuration, persistence; 5: runtime states (RUNTIME frames);
     * 6: server loads (LOADS frames); 7: DNSSEC keys (KEYS frames).
     */
    static final int PROTOCOL_VERSION = 7;
    /** A batch of 1,000 paths is about 30 KB; nothing legitimate comes near this. */
    static final int MAX_FRAME = 1 << 20;
    /** A shared configuration travels in one frame: zone files and topology lists, zipped. */
    static final int MAX_CONFIG_FRAME = 64 << 20;
    /**
     * The runtime states' content in a RUNTIME frame (so it fits an ordinary frame): a few tens of
     * bytes of JSON per disabled, drained or enabled object, so thousands of them; the owner parses
     * at most this much per offer a peer sends.
     */
    static final int MAX_RUNTIME_STATES = 256 << 10;
    /**
     * The DNSSEC keys' content in a KEYS frame: the key folder zipped, a zone's key pair files are
     * under 1 KiB, so a few hundred signed zones; the owner unzips at most this much per offer.
     */
    static final int MAX_KEYS = 64 << 10;

    enum Type {
        HELLO,
        JOIN,
        PATHS,
        HEALTH,
        PROBE,
        HEARTBEAT,
        LINKS,
        CONFIG,
        PERSIST,
        RUNTIME,
        LOADS,
        KEYS;

        static Type of(int code) throws ProtocolException {
            if (code < 0 || code >= values().length) {
                throw new ProtocolException("unknown frame type " + code);
            }
            return values()[code];
        }
    }

    record Frame(Type type, byte[] body) {}

    /** What the other side sent cannot be accepted: the connection is closed, the reason logged. */
    static final class ProtocolException extends IOException {
        ProtocolException(String message) {
            super(message);
        }
    }

    private Wire() {}

    static void write(DataOutputStream out, Type type, byte[] body) throws IOException {
        out.writeInt(1 + body.length);
        out.writeByte(type.ordinal());
        out.write(body);
        out.flush();
    }

    /** A heartbeat: the sender's clock, from which the receiver shows the lag. */
    static void heartbeat(DataOutputStream out, long sentAt) throws IOException {
        write(out, Type.HEARTBEAT, body(o -> o.writeLong(sentAt)));
    }

    /** A frame of an authenticated peer: at most {@value #MAX_FRAME} bytes, a CONFIG frame {@value #MAX_CONFIG_FRAME}. */
    static Frame read(DataInputStream in) throws IOException {
        return read(in, false);
    }

    /**
     * The one frame read before authentication: a HELLO or JOIN of at most {@link Hello#MAX_BYTES}.
     * Anyone who completes TLS while a pairing waits gets this far, so nothing larger is allocated.
     */
    static Frame readHello(DataInputStream in) throws IOException {
        return read(in, true);
    }

    private static Frame read(DataInputStream in, boolean hello) throws IOException {
        int length = in.readInt();
        Type type = Type.of(in.readUnsignedByte()); // the type decides the bound, before anything is allocated
        if (hello && type != Type.HELLO && type != Type.JOIN) {
            throw new ProtocolException("expected HELLO, got " + type);
        }
        int max = hello ? 1 + Hello.MAX_BYTES : type == Type.CONFIG ? MAX_CONFIG_FRAME : MAX_FRAME;
        if (length < 1 || length > max) {
            throw new ProtocolException(
                    "frame length " + length + " out of range for " + type + " (at most " + max + ")");
        }
        byte[] body = new byte[length - 1];
        in.readFully(body);
        return new Frame(type, body);
    }

    /** Writes a body with DataOutputStream; bodies are small and built once per frame. */
    interface BodyWriter {
        void write(DataOutputStream out) throws IOException;
    }

    static byte[] body(BodyWriter w) {
        Body b = new Body();
        try (DataOutputStream out = new DataOutputStream(b)) {
            w.write(out);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return Arrays.copyOf(b.bytes, b.count);
    }

    /**
     * A frame's body as it is written: ByteArrayOutputStream without its lock, which every
     * byte of a snapshot's millions of items paid for.
     */
    private static final class Body extends OutputStream {
        byte[] bytes = new byte[256];
        int count;

        @Override
        public void write(int b) {
            room(1);
            bytes[count++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            Objects.checkFromIndexSize(off, len, b.length);
            room(len);
            System.arraycopy(b, off, bytes, count, len);
            count += len;
        }

        private void room(int n) {
            if (bytes.length - count < n) {
                bytes = Arrays.copyOf(bytes, Math.max(2 * bytes.length, count + n));
            }
        }
    }

    static DataInputStream reader(byte[] body) {
        return new DataInputStream(new java.io.ByteArrayInputStream(body));
    }

    static void writeName(DataOutputStream out, String name) throws IOException {
        byte[] b = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeShort(b.length);
        out.write(b);
    }

    /** A string of at most {@code max} bytes (names from the other side are length-capped). */
    static String readName(DataInputStream in, int max) throws IOException {
        int n = in.readUnsignedShort();
        if (n > max) {
            throw new ProtocolException("a name of " + n + " bytes (at most " + max + ")");
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return new String(b, java.nio.charset.StandardCharsets.UTF_8);
    }
}
