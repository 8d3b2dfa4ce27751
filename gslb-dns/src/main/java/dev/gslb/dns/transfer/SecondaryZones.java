package dev.gslb.dns.transfer;

import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.answer.NotifyReceiver;
import dev.gslb.dns.answer.ThrottledLog;
import dev.gslb.dns.tsig.TsigKeys;
import dev.gslb.dns.zone.SecondarySettings;
import dev.gslb.dns.zone.Zone;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;

/**
 * The secondary zones ({@code zones: - {origin, primary, tsig}}): one {@link SecondaryZone} each,
 * started and stopped as configurations come and go, their copies put in place of the stand-ins a
 * configuration holds ({@link #fill}), and the primaries' NOTIFY taken.
 */
public final class SecondaryZones implements NotifyReceiver, AutoCloseable {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(SecondaryZones.class);
    private final Path folder;
    private final Clock clock;
    private final SecondaryZone.Limits limits;
    private final Consumer<Zone> changed;
    private final ThrottledLog refusals = new ThrottledLog("gslb.transfer");
    private volatile Map<Name, SecondaryZone> zones = Map.of();

    /**
     * Copies kept in {@code folder} (null: none kept); {@code changed} is told of each new copy or
     * expiry, from the zone's own thread.
     */
    public SecondaryZones(Path folder, Clock clock, Consumer<Zone> changed) {
        this(folder, clock, SecondaryZone.Limits.DEFAULTS, changed);
    }

    SecondaryZones(Path folder, Clock clock, SecondaryZone.Limits limits, Consumer<Zone> changed) {
        this.folder = folder;
        this.clock = clock;
        this.limits = limits;
        this.changed = changed;
    }

    /** Starts the secondary zones of {@code authority} not running, stops those gone or changed. */
    public synchronized void configure(Authority authority, TsigKeys keys) {
        Map<Name, SecondaryZone> before = zones;
        Map<Name, SecondaryZone> now = new HashMap<>();
        for (Zone z : authority.zones().all()) {
            SecondarySettings s = z.secondary();
            if (s == null) {
                continue;
            }
            SecondaryZone running = before.get(z.origin());
            var key = s.tsig() == null ? null : keys.find(s.tsig());
            List<Name> wideIps = authority.wideIps().keySet().stream()
                    .filter(w -> authority.zones().find(w) == z)
                    .toList();
            if (running != null && running.settings().equals(s) && Objects.equals(running.key(), key)) {
                running.wideIps(wideIps);
                now.put(z.origin(), running);
            } else {
                if (running != null) {
                    running.close();
                }
                Path copy = folder == null ? null : folder.resolve(copyName(z.origin()));
                now.put(z.origin(), new SecondaryZone(z.origin(), s, key, copy, limits, clock, changed, wideIps));
            }
        }
        before.forEach((origin, zone) -> {
            if (now.get(origin) != zone) {
                zone.close();
            }
        });
        zones = Map.copyOf(now);
    }

    /**
     * The file a zone's copy is kept in: its name with every character but letters, digits, '.',
     * '-' and '_' written %XX, so a label holding '/' (a name a peer's configuration may carry)
     * cannot reach outside the folder.
     */
    static String copyName(Name origin) {
        StringBuilder out = new StringBuilder();
        for (byte b : origin.toString()
                .toLowerCase(java.util.Locale.ROOT)
                .getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xFF);
            if (c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
                out.append(c);
            } else {
                out.append('%').append(String.format("%02X", b & 0xFF));
            }
        }
        return out.append("zone").toString();
    }

    /** {@code authority} with each secondary zone's stand-in replaced by the copy held (its transfer: kept). */
    public Authority fill(Authority authority) {
        Map<Name, SecondaryZone> held = zones;
        if (held.isEmpty()) {
            return authority;
        }
        List<Zone> filled = new ArrayList<>();
        for (Zone z : authority.zones().all()) {
            SecondaryZone s = z.secondary() == null ? null : held.get(z.origin());
            filled.add(s == null ? z : s.held().withTransfer(z.transfer()));
        }
        return new Authority(filled, List.copyOf(authority.wideIps().values()));
    }

    /** Transfers taken into every secondary zone running, of {@code type} AXFR or IXFR. */
    public long taken(int type) {
        return zones.values().stream().mapToLong(z -> z.taken(type)).sum();
    }

    @Override
    public boolean fromPrimary(InetAddress from) {
        for (SecondaryZone z : zones.values()) {
            if (z.settings().isPrimary(from)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int notified(Name zone, InetAddress from, Name key) {
        SecondaryZone z = zones.get(zone);
        if (z == null) {
            refused(zone, from, "not a secondary zone here");
            return Rcode.NOTAUTH;
        }
        if (!z.settings().isPrimary(from)) {
            refused(zone, from, "not from a primary of the zone");
            return Rcode.REFUSED;
        }
        if (z.settings().tsig() != null && !z.settings().tsig().equals(key)) {
            refused(
                    zone,
                    from,
                    key == null ? "unsigned (the zone's key is " + z.settings().tsig() + ")" : "signed with " + key);
            return Rcode.REFUSED;
        }
        log.debug("zone {}: NOTIFY from {}, refreshing", zone, from.getHostAddress());
        z.notified();
        return Rcode.NOERROR;
    }

    private void refused(Name zone, InetAddress from, String why) {
        if (refusals.admit()) {
            refusals.line("NOTIFY for " + zone + " from " + from.getHostAddress() + " refused: " + why);
        }
    }

    @Override
    public synchronized void close() {
        zones.values().forEach(SecondaryZone::close);
        zones = Map.of();
        refusals.close();
    }
}
