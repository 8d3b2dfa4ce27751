package dev.gslb.dns.transfer;

import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.wideip.Pool;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.zone.Zone;
import dev.gslb.site.VirtualServer;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.util.ArrayList;
import java.util.List;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.CNAMERecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Record;
import org.xbill.DNS.SOARecord;
import org.xbill.DNS.Type;

/**
 * What a secondary receives of a zone: its records as loaded, and for each wide IP in it the one
 * answer a server that cannot decide can give, the one this server falls back to when no method
 * decides: the first pool's first member of each address family (global-availability order), as
 * a static A and AAAA with the wide IP's TTL; a CNAME pool gives a CNAME to its first name.
 */
record ZoneContent(SOARecord soa, List<Record> records, List<Record> standIns) {
    /** The zone's records (its SOA apart) and its wide IPs' stand-ins (among the records, and apart). */
    static ZoneContent of(Authority authority, Zone zone) {
        List<Record> records = new ArrayList<>(zone.recordCount());
        zone.rrsets().forEach(set -> {
            if (set.getType() != Type.SOA) {
                set.rrs(false).forEach(records::add);
            }
        });
        List<Record> standIns = standIns(authority, zone);
        records.addAll(standIns);
        return new ZoneContent(zone.soa(), List.copyOf(records), standIns);
    }

    /** The stand-ins of the wide IPs that lie in {@code zone}. */
    static List<Record> standIns(Authority authority, Zone zone) {
        List<Record> out = new ArrayList<>();
        for (WideIp w : authority.wideIps().values()) {
            if (authority.zones().find(w.name()) == zone) {
                out.addAll(standIns(w));
            }
        }
        return List.copyOf(out);
    }

    static List<Record> standIns(WideIp w) {
        Pool first = w.pools().getFirst();
        if (first.cnames() != null) {
            return List.of(new CNAMERecord(
                    w.name(), DClass.IN, w.ttl(), first.targets().getFirst().name()));
        }
        List<Record> out = new ArrayList<>(2);
        VirtualServer v4 = null;
        VirtualServer v6 = null;
        for (VirtualServer v : first.members()) {
            if (v4 == null && v.address() instanceof Inet4Address) {
                v4 = v;
            } else if (v6 == null && v.address() instanceof Inet6Address) {
                v6 = v;
            }
        }
        if (v4 != null) {
            out.add(new ARecord(w.name(), DClass.IN, w.ttl(), v4.address()));
        }
        if (v6 != null) {
            out.add(new AAAARecord(w.name(), DClass.IN, w.ttl(), v6.address()));
        }
        return out;
    }
}
