package dev.gslb.dns.wideip;

import dev.gslb.settings.Setting;
import dev.gslb.settings.SettingsTable;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What a wide IP answers when no pool can (F5's last resort and failure rcode): fallback
 * addresses, or NOERROR/NODATA, NXDOMAIN, REFUSED or SERVFAIL, each with its own TTL.
 */
public record Failure(Kind kind, List<InetAddress> addresses, long ttl) {
    public enum Kind {
        FALLBACK_IP,
        NODATA,
        NXDOMAIN,
        REFUSED,
        SERVFAIL
    }

    /** The rcodes as written; nodata is noerror's other name. */
    private static final Map<String, Kind> RCODES = Map.of(
            "noerror", Kind.NODATA,
            "nodata", Kind.NODATA,
            "nxdomain", Kind.NXDOMAIN,
            "refused", Kind.REFUSED,
            "servfail", Kind.SERVFAIL);

    public static final Setting<Kind> RCODE = Setting.of(
                    "rcode", String.class, "noerror", "the answer when no pool answers (noerror is NODATA)")
            .check("noerror, nxdomain, refused or servfail", rcode -> {
                if (!RCODES.containsKey(rcode)) {
                    throw new IllegalArgumentException("failure rcode must be noerror, nxdomain, refused or servfail");
                }
            })
            .map(RCODES::get, Kind.NODATA);
    public static final Setting<List<InetAddress>> FALLBACK_IP =
            Setting.list("fallback-ip", InetAddress.class, null, "these addresses instead of an rcode");
    public static final Setting<Long> TTL =
            Setting.duration("ttl", Duration.ofSeconds(30), "the answer's TTL").map(Duration::toSeconds, 30L);

    /** {@code failure: {rcode: noerror|nxdomain|refused|servfail, ttl: 30s}} or {@code {fallback-ip: [...], ttl}}. */
    public static final SettingsTable<Failure> SETTINGS = SettingsTable.of(
                    Failure.class,
                    v -> v.given(FALLBACK_IP)
                            ? new Failure(Kind.FALLBACK_IP, v.get(FALLBACK_IP), v.get(TTL))
                            : new Failure(v.get(RCODE), List.of(), v.get(TTL)))
            .add(RCODE)
            .add(FALLBACK_IP)
            .add(TTL);

    public static final Failure DEFAULT = SETTINGS.defaults();

    public Failure {
        addresses = List.copyOf(addresses);
        if (kind == Kind.FALLBACK_IP && addresses.isEmpty()) {
            throw new IllegalArgumentException("a fallback-ip failure needs at least one address");
        }
    }
}
