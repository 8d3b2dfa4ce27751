package dev.gslb.sync;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSocket;

/**
 * What both ends of a sync connection do before any item flows: TLS 1.3 over the TCP connection
 * (each side's trust pins the other's certificate), framed streams over it, then HELLO each way
 * (the dialler speaks first) and the check that a paired peer says what it was paired as.
 */
final class Handshake {
    private Handshake() {}

    /**
     * A TLS connection with its framed streams. Until {@link #authenticated()} they carry only the
     * hello, unbuffered on the way in and through a hello-sized buffer out: a connection that has
     * not proved who it is costs no 64 KiB buffers.
     */
    record Channel(SSLSocket socket, DataInputStream in, DataOutputStream out, AtomicLong bytesOut) {
        /** Runs the TLS handshake (the certificate checks happen here). */
        void start() throws IOException {
            socket.startHandshake();
        }

        /** The SHA-256 fingerprint of the certificate the other side presented. */
        String peerFingerprint() throws SSLPeerUnverifiedException {
            return SyncIdentity.fingerprint(socket.getSession().getPeerCertificates()[0]);
        }

        void send(Hello hello) throws IOException {
            Wire.write(out, hello.type(), hello.encode());
        }

        /** The other side's hello, read within its bound ({@link Wire#readHello}). */
        Hello receive() throws IOException {
            return Hello.decode(Wire.readHello(in));
        }

        /** The same connection once the hellos are exchanged: buffered for the items that follow. */
        Channel authenticated() throws IOException {
            return new Channel(
                    socket,
                    new DataInputStream(new BufferedInputStream(socket.getInputStream(), BUFFER)),
                    streamOut(new BufferedOutputStream(socket.getOutputStream(), BUFFER), bytesOut),
                    bytesOut);
        }
    }

    private static final int BUFFER = 65536;

    /**
     * TLS over {@code raw}, as client (the dialler) or server; reads time out after
     * {@code timeout} until the session sets its own. {@code bytesOut}, when not null, counts what
     * is written before encryption.
     */
    static Channel open(SSLContext tls, Socket raw, boolean client, Duration timeout, AtomicLong bytesOut)
            throws IOException {
        raw.setSoTimeout((int) timeout.toMillis());
        raw.setTcpNoDelay(true);
        SSLSocket s = SyncIdentity.over(tls, raw, client);
        return new Channel(
                s,
                new DataInputStream(s.getInputStream()), // reads exactly the hello: nothing is left behind
                streamOut(new BufferedOutputStream(s.getOutputStream(), 5 + Hello.MAX_BYTES), bytesOut),
                bytesOut);
    }

    private static DataOutputStream streamOut(OutputStream buffered, AtomicLong bytesOut) {
        return new DataOutputStream(bytesOut == null ? buffered : new Counting(buffered, bytesOut));
    }

    /** A paired peer must say the name and data center it was paired as; it cannot become another. */
    static void checkClaims(Hello theirs, Peer paired) throws Wire.ProtocolException {
        if (!theirs.instance().equals(paired.name()) || !theirs.dataCenter().equals(paired.dataCenter())) {
            throw new Wire.ProtocolException("it says it is " + theirs.instance() + " in data center "
                    + theirs.dataCenter() + " but was paired as " + paired.name() + " in " + paired.dataCenter());
        }
    }

    /** Closes a socket whose connection is over anyway; a failure to close changes nothing. */
    static void closeQuietly(Closeable c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // closing
        }
    }

    /** Counts bytes written (the bytes-per-update figure of the sync benchmark). */
    private static final class Counting extends FilterOutputStream {
        private final AtomicLong count;

        Counting(OutputStream out, AtomicLong count) {
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
