package dev.gslb.dns.dnstap;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A Frame Streams (fstrm) writer, the transport of dnstap: data frames (a 32-bit big-endian length,
 * then the bytes) between a START control frame naming the content type and a STOP. To a file the
 * stream is one-way; to a reader on a socket it opens with READY/ACCEPT and closes with FINISH.
 */
abstract sealed class FrameStream implements Closeable permits FrameFile, FrameSocket {
    static final byte[] CONTENT_TYPE = "protobuf:dnstap.Dnstap".getBytes(StandardCharsets.US_ASCII);

    static final int ACCEPT = 0x01;
    static final int START = 0x02;
    static final int STOP = 0x03;
    static final int READY = 0x04;
    static final int FINISH = 0x05;
    /** The control field naming a content type. */
    static final int FIELD_CONTENT_TYPE = 0x01;
    /** fstrm's bound on a control frame's length. */
    static final int MAX_CONTROL = 512;

    /** Writes one data frame. */
    abstract void write(byte[] frame, int offset, int length) throws IOException;

    /** Sends what is buffered. */
    abstract void flush() throws IOException;

    /** Ends the stream (STOP; on a socket, waits a little for FINISH) and closes it. */
    @Override
    public abstract void close() throws IOException;

    /** A control frame of {@code type}, with the dnstap content type when {@code typed}: escape, length, type, fields. */
    static ByteBuffer control(int type, boolean typed) {
        int length = 4 + (typed ? 8 + CONTENT_TYPE.length : 0);
        ByteBuffer b = ByteBuffer.allocate(8 + length);
        b.putInt(0).putInt(length).putInt(type);
        if (typed) {
            b.putInt(FIELD_CONTENT_TYPE).putInt(CONTENT_TYPE.length).put(CONTENT_TYPE);
        }
        return b.flip();
    }

    /**
     * Checks a control frame read whole ({@code frame}: from its type on) is of {@code type} and,
     * when it names content types, names dnstap's.
     *
     * @throws IOException saying what the reader sent instead
     */
    static void expect(ByteBuffer frame, int type) throws IOException {
        int got = frame.getInt();
        if (got != type) {
            throw new IOException("the reader sent control frame " + got + ", not " + type);
        }
        boolean named = false;
        boolean ours = false;
        while (frame.remaining() >= 8) {
            int field = frame.getInt();
            int length = frame.getInt();
            if (length < 0 || length > frame.remaining()) {
                throw new IOException("the reader sent a malformed control frame");
            }
            byte[] value = new byte[length];
            frame.get(value);
            if (field == FIELD_CONTENT_TYPE) {
                named = true;
                ours |= java.util.Arrays.equals(value, CONTENT_TYPE);
            }
        }
        if (named && !ours) {
            throw new IOException("the reader does not accept " + new String(CONTENT_TYPE, StandardCharsets.US_ASCII));
        }
    }
}
