package dev.gslb.server;

import dev.gslb.api.PeerStatus;
import dev.gslb.dns.answer.Authority;
import java.util.List;
import java.util.function.Supplier;

/**
 * The one line `systemctl status gslb` shows for the server ("serving 3 wide IP(s) in 1 zone(s);
 * peers 1/1 connected"), sent to the service manager at start, after each reload, and whenever it
 * changes (looked at every few seconds: peers come and go without telling this).
 */
final class ServiceStatus implements AutoCloseable {
    private static final long EVERY_MILLIS = 5_000;

    private final ServiceManagerNotifier to;
    private final Supplier<Authority> authority;
    private final Supplier<List<PeerStatus>> peers;
    private final Supplier<List<String>> failures;
    private volatile String refusal;
    private volatile boolean closed;
    private Thread watcher;

    ServiceStatus(
            ServiceManagerNotifier to,
            Supplier<Authority> authority,
            Supplier<List<PeerStatus>> peers,
            Supplier<List<String>> failures) {
        this.to = to;
        this.authority = authority;
        this.peers = peers;
        this.failures = failures;
    }

    /** A reload's outcome: null when applied, else why it was refused (shown until one is applied). */
    void reloaded(String refused) {
        this.refusal = refused;
    }

    String line() {
        Authority a = authority.get();
        StringBuilder s = new StringBuilder()
                .append("serving ")
                .append(a.wideIps().size())
                .append(" wide IP(s) in ")
                .append(a.zones().all().size())
                .append(" zone(s)");
        List<PeerStatus> p = peers.get();
        if (!p.isEmpty()) {
            long connected =
                    p.stream().filter(x -> "connected".equals(x.state())).count();
            s.append("; peers ").append(connected).append('/').append(p.size()).append(" connected");
        }
        List<String> failing = failures.get();
        if (!failing.isEmpty()) {
            s.append("; ")
                    .append(failing.size())
                    .append(" listener(s) failed: ")
                    .append(failing.getFirst());
        }
        String r = refusal;
        if (r != null) {
            s.append("; last reload refused: ").append(r.lines().findFirst().orElse(""));
        }
        return s.toString();
    }

    /** Sends the line whenever it changes, until closed. */
    void start() {
        if (to == ServiceManagerNotifier.NONE) {
            return;
        }
        watcher = Thread.ofVirtual().name("service-status").start(() -> {
            String sent = line();
            while (!closed) {
                try {
                    Thread.sleep(EVERY_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
                String now = line();
                if (!now.equals(sent) && !closed) {
                    to.status(now);
                    sent = now;
                }
            }
        });
    }

    @Override
    public void close() {
        closed = true;
        if (watcher != null) {
            watcher.interrupt();
        }
    }
}
