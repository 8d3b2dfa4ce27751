package dev.gslb.dns.dnstap;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * A dnstap stream to a reader on a Unix socket, as fstrm writes it: READY (naming dnstap's
 * content type), the reader's ACCEPT, START, the data frames, STOP, the reader's FINISH. Writes
 * block the writer thread only; the query path never waits for the reader.
 */
final class FrameSocket extends FrameStream {
    /** How long the reader has to answer READY or STOP. */
    static final long HANDSHAKE_MILLIS = 5000;

    private final SocketChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(64 << 10);

    private FrameSocket(SocketChannel channel) {
        this.channel = channel;
    }

    /**
     * Connects to the reader on {@code path} and opens the stream.
     *
     * @throws IOException when no reader listens there or it does not take dnstap
     */
    static FrameSocket connect(Path path) throws IOException {
        SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            channel.connect(UnixDomainSocketAddress.of(path));
            FrameSocket s = new FrameSocket(channel);
            s.send(control(READY, true));
            expect(s.readControl(), ACCEPT);
            s.send(control(START, true));
            return s;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    private void send(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            channel.write(b);
        }
    }

    /** One control frame from the reader, from its type on; waits at most {@link #HANDSHAKE_MILLIS}. */
    private ByteBuffer readControl() throws IOException {
        ByteBuffer head = ByteBuffer.allocate(8);
        read(head);
        int escape = head.getInt(0);
        int length = head.getInt(4);
        if (escape != 0 || length < 4 || length > MAX_CONTROL) {
            throw new IOException("the reader did not answer with a Frame Streams control frame");
        }
        ByteBuffer frame = ByteBuffer.allocate(length);
        read(frame);
        return frame.flip();
    }

    /** Fills {@code b} from the reader within the handshake time; the channel is blocking again after. */
    private void read(ByteBuffer b) throws IOException {
        long deadline = System.nanoTime() + HANDSHAKE_MILLIS * 1_000_000;
        channel.configureBlocking(false);
        try (Selector selector = Selector.open()) {
            channel.register(selector, SelectionKey.OP_READ);
            while (b.hasRemaining()) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    throw new IOException("the reader did not answer within " + HANDSHAKE_MILLIS + " ms");
                }
                selector.select(left);
                if (channel.read(b) < 0) {
                    throw new IOException("the reader closed the connection");
                }
            }
        }
        channel.configureBlocking(true); // closing the selector deregistered the channel
    }

    @Override
    void write(byte[] frame, int offset, int length) throws IOException {
        if (buffer.remaining() < 4 + length) {
            flush();
        }
        if (buffer.remaining() < 4 + length) { // larger than the buffer: sent as it is
            send(ByteBuffer.allocate(4).putInt(0, length));
            send(ByteBuffer.wrap(frame, offset, length));
            return;
        }
        buffer.putInt(length).put(frame, offset, length);
    }

    @Override
    void flush() throws IOException {
        buffer.flip();
        send(buffer);
        buffer.clear();
    }

    /** STOP, then FINISH from the reader (not waited for past the handshake time). */
    @Override
    public void close() throws IOException {
        try (channel) {
            flush();
            send(control(STOP, false));
            expect(readControl(), FINISH);
        }
    }

    /** Closes the connection without the closing handshake (the reader is gone). */
    void abandon() {
        try {
            channel.close();
        } catch (IOException e) {
            // closing a broken connection: nothing to do
        }
    }
}
