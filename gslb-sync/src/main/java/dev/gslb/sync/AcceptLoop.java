package dev.gslb.sync;

import dev.gslb.topology.Address;
import io.micrometer.core.instrument.Counter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Accepts connections on one server socket until the listener closes it, through any error. An
 * accept that fails (no descriptor left: EMFILE, ENFILE; or anything else) is counted and retried
 * after a pause that grows from 10 ms to 1 s, so the loop neither spins nor gives up; the episode
 * is logged once when it starts and once when accepting works again. Whatever the hand-off of an
 * accepted connection throws closes that connection, not the loop. Only a server socket closed
 * while the listener still runs stops it, and that is reported ({@link #failure()}).
 */
final class AcceptLoop implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(AcceptLoop.class);
    static final long MIN_PAUSE_MILLIS = 10;
    static final long MAX_PAUSE_MILLIS = 1000;

    private final ServerSocket server;
    private final String where;
    private final Consumer<Socket> handOff;
    private final BooleanSupplier running;
    private final Counter errors;
    private final BiConsumer<String, Throwable> handOffErrors;
    private volatile String failure;

    /**
     * {@code running}: whether the listener still runs (when not, a closed socket is the normal
     * end); {@code errors} counts failed accepts; {@code handOffErrors} hears what a hand-off threw.
     */
    AcceptLoop(
            ServerSocket server,
            Consumer<Socket> handOff,
            BooleanSupplier running,
            Counter errors,
            BiConsumer<String, Throwable> handOffErrors) {
        this.server = server;
        this.where = Address.hostPort((InetSocketAddress) server.getLocalSocketAddress());
        this.handOff = handOff;
        this.running = running;
        this.errors = errors;
        this.handOffErrors = handOffErrors;
    }

    /** Why this loop stopped accepting while the listener runs, or null while it accepts. */
    String failure() {
        return failure;
    }

    String where() {
        return where;
    }

    @Override
    public void run() {
        try {
            accept();
        } catch (Throwable t) { // not even the loop's own error handling may end it silently
            stopped(t.toString());
        }
    }

    private void accept() throws InterruptedException {
        long pause = 0;
        long failed = 0;
        while (running.getAsBoolean()) {
            Socket s;
            try {
                s = server.accept();
            } catch (Throwable e) { // an Error too: one failed accept is not the end of the port
                if (!running.getAsBoolean()) {
                    return;
                }
                if (server.isClosed()) {
                    stopped("its socket was closed (" + e.getMessage() + ")");
                    return;
                }
                errors.increment();
                if (failed++ == 0) {
                    log.warn(
                            "peer sync: accepting on {} failed: {}; retrying every {} ms to {} s until it works"
                                    + " (logged again only then)",
                            where,
                            e.getMessage() == null ? e.toString() : e.getMessage(),
                            MIN_PAUSE_MILLIS,
                            MAX_PAUSE_MILLIS / 1000);
                }
                pause = Math.min(Math.max(MIN_PAUSE_MILLIS, pause * 2), MAX_PAUSE_MILLIS);
                Thread.sleep(pause);
                continue;
            }
            if (failed > 0) {
                log.info("peer sync: accepting on {} again after {} failed accepts", where, failed);
                failed = 0;
                pause = 0;
            }
            try {
                handOff.accept(s);
            } catch (Throwable t) { // a bug or no memory for one connection: that connection ends
                Handshake.closeQuietly(s);
                handOffErrors.accept(s.getInetAddress().getHostAddress(), t);
            }
        }
    }

    private void stopped(String why) {
        if (running.getAsBoolean()) {
            failure = "peer sync stopped accepting on " + where + ": " + why;
            log.error("{}; restart the instance to accept peers again", failure);
        }
    }
}
