package dev.gslb.server.dnssec;

import dev.gslb.api.DnssecView;
import dev.gslb.api.PeerStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * What is wrong with signing now, for the alerts: each zone with {@code dnssec:} that is not
 * signed (its keys did not read, or none signs), and signatures that could not be made since the
 * last look (the answers then keep the signatures made before, valid for {@code
 * signature-validity} from when they were made: days, so an alert comes long before they expire),
 * and a clock that cannot be right while zones are signed: before the keys were made, or far from
 * a peer's (the one ahead makes signatures a validator with the right time holds as not valid yet).
 */
public final class SigningWatch {
    /** The problem of signatures that could not be made, under this name (not a zone's). */
    public static final String SIGNATURES = "signatures";
    /** The problem of a clock that cannot be right, under this name. */
    public static final String CLOCK = "clock";
    /**
     * Clocks of a pair further apart than this are a problem: signatures are valid from an hour
     * before they are made, so half of that warns before any validator is hurt.
     */
    static final long CLOCK_LIMIT_MILLIS = 30 * 60_000;

    private final ZoneKeyStore store;
    private final MeterRegistry registry;
    private final Supplier<List<PeerStatus>> peers;
    private double failedBefore;

    public SigningWatch(ZoneKeyStore store, MeterRegistry registry, Supplier<List<PeerStatus>> peers) {
        this.store = store;
        this.registry = registry;
        this.peers = peers;
    }

    /** The first peer whose clock is too far from ours, said as a problem, or null. */
    static String clockApart(List<PeerStatus> peers) {
        for (PeerStatus p : peers) {
            Long ahead = p.clockAheadMillis();
            if (ahead != null && Math.abs(ahead) > CLOCK_LIMIT_MILLIS) {
                return "the clock of peer " + p.name() + " is " + Math.abs(ahead) / 60_000 + " min "
                        + (ahead > 0 ? "ahead of" : "behind") + " ours: signatures made by the one ahead are not"
                        + " valid yet for a validator with the right time (they reach back one hour); check NTP on"
                        + " both";
            }
        }
        return null;
    }

    /** Zone (or {@value #SIGNATURES}, {@value #CLOCK}) -> why, for each problem seen now. */
    public synchronized Map<String, String> problems() {
        Map<String, String> out = new TreeMap<>();
        for (DnssecView.Zone z : store.view().zones()) {
            if (!z.signed()) {
                out.put(z.zone(), "not signed: " + z.why());
            }
        }
        Counter failed = registry.find("dns_signatures").tag("result", "failed").counter();
        double now = failed == null ? 0 : failed.count();
        if (now > failedBefore) {
            out.put(
                    SIGNATURES,
                    (long) (now - failedBefore) + " signature(s) could not be made since the last look;"
                            + " answers keep the signatures made before while they are valid (see the log)");
        }
        failedBefore = now;
        String clock = store.clockProblem();
        if (clock == null && store.view().zones().stream().anyMatch(DnssecView.Zone::signed)) {
            clock = clockApart(peers.get());
        }
        if (clock != null) {
            out.put(CLOCK, clock);
        }
        return out;
    }
}
