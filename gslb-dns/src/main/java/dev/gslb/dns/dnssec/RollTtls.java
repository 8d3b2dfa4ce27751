package dev.gslb.dns.dnssec;

import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.zone.DnssecSettings;
import dev.gslb.dns.zone.Zone;
import java.time.Duration;
import java.util.Collection;
import org.xbill.DNS.Name;
import org.xbill.DNS.RRset;

/**
 * The TTLs a roll waits for (RFC 7583): a new key is used only once every cache can have it, an
 * old one leaves only once no cache can hold what it signed.
 *
 * @param dnskeyTtl   the TTL of DNSKEY, CDS and CDNSKEY
 * @param largestTtl  the largest TTL of the zone's RRsets, its negative TTL and its wide IPs' TTLs
 * @param propagation the zone's propagation-delay
 * @param dsTtl       the parent's DS TTL (not known here: a day, the usual one)
 */
public record RollTtls(Duration dnskeyTtl, Duration largestTtl, Duration propagation, Duration dsTtl) {
    public static final Duration DS_TTL = Duration.ofDays(1);

    /** The TTLs of {@code zone} signed as {@code settings} say, with the wide IPs answered in it. */
    public static RollTtls of(Zone zone, DnssecSettings settings, Collection<WideIp> wideIps) {
        long largest = zone.negativeSoa().getTTL();
        for (Name n : zone.names()) {
            for (int type : zone.types(n)) {
                RRset r = zone.rrset(n, type);
                if (r != null) {
                    largest = Math.max(largest, r.getTTL());
                }
            }
        }
        for (WideIp w : wideIps) {
            if (w.name().subdomain(zone.origin())) {
                largest = Math.max(largest, w.ttl());
            }
        }
        Duration dnskey = settings.dnskeyTtl() != null
                ? settings.dnskeyTtl()
                : Duration.ofSeconds(zone.soa().getTTL());
        largest = Math.max(largest, dnskey.toSeconds());
        return new RollTtls(dnskey, Duration.ofSeconds(largest), settings.propagationDelay(), DS_TTL);
    }

    /** How long after a key is published it may be used: every cache has the new DNSKEY RRset. */
    public Duration keyKnown() {
        return dnskeyTtl.plus(propagation);
    }

    /** How long after a ZSK stops signing it may leave: no cache holds a signature of it. */
    public Duration signaturesGone() {
        return largestTtl.plus(propagation);
    }

    /** How long after the parent's DS changed the old KSK may leave. */
    public Duration dsKnown() {
        return dsTtl.plus(propagation);
    }
}
