package dev.gslb.dns.transfer;

import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.zone.Zone;
import dev.gslb.dns.zone.ZoneException;
import dev.gslb.dns.zone.ZoneFile;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.xbill.DNS.DClass;
import org.xbill.DNS.NSRecord;
import org.xbill.DNS.Name;
import org.xbill.DNS.PTRRecord;
import org.xbill.DNS.Record;
import org.xbill.DNS.SOARecord;
import org.xbill.DNS.Serial;
import org.xbill.DNS.TXTRecord;

/**
 * Catalog zones (RFC 9432, schema version 2): a zone that lists the zones offered for transfer
 * (those with {@code transfer:}), so a Knot or BIND secondary that takes it learns our zones by
 * itself. Each member is {@code <id>.zones.<catalog> PTR <zone>}, its id the first 8 bytes of the
 * SHA-256 of the zone's name, so it stays the same across reloads and instances. The serial moves
 * only when the members change: to the time in seconds, or one past the last when that is not
 * more (RFC 1982).
 */
public final class CatalogZones {
    private static final Name INVALID = Name.fromConstantString("invalid.");

    private final Clock clock;
    /** Each catalog's members and serial as last made. */
    private final Map<Name, Made> made = new HashMap<>();

    private record Made(List<Name> members, long serial) {}

    public CatalogZones(Clock clock) {
        this.clock = clock;
    }

    /** {@code authority} with each catalog zone's records made from the zones it offers. */
    public synchronized Authority fill(Authority authority) {
        List<Zone> zones = authority.zones().all();
        if (zones.stream().noneMatch(Zone::catalog)) {
            return authority;
        }
        List<Name> members = zones.stream()
                .filter(z -> z.transfer() != null && !z.catalog())
                .map(Zone::origin)
                .sorted()
                .toList();
        List<Zone> filled = new ArrayList<>(zones.size());
        for (Zone z : zones) {
            filled.add(z.catalog() ? catalog(z, members) : z);
        }
        return new Authority(filled, List.copyOf(authority.wideIps().values()));
    }

    private Zone catalog(Zone stand, List<Name> members) {
        Made before = made.get(stand.origin());
        long serial;
        if (before != null && before.members().equals(members)) {
            serial = before.serial();
        } else {
            long now = clock.instant().getEpochSecond() & 0xFFFF_FFFFL;
            serial = before == null || Serial.compare(now, before.serial()) > 0
                    ? now
                    : Serial.increment(before.serial());
            made.put(stand.origin(), new Made(members, serial));
        }
        try {
            return ZoneFile.of("catalog " + stand.origin(), stand.origin(), records(stand.origin(), members, serial))
                    .withTransfer(stand.transfer())
                    .asCatalog();
        } catch (ZoneException e) {
            throw new IllegalStateException(
                    "the catalog " + stand.origin() + " breaks a zone rule: " + e.getMessage(), e);
        }
    }

    /** RFC 9432 4: SOA and NS "invalid.", version "2", one PTR per member zone; TTL 0 throughout. */
    static List<Record> records(Name catalog, List<Name> members, long serial) {
        List<Record> records = new ArrayList<>();
        records.add(new SOARecord(catalog, DClass.IN, 0, INVALID, INVALID, serial, 3600, 600, 2_419_200, 0));
        records.add(new NSRecord(catalog, DClass.IN, 0, INVALID));
        try {
            records.add(new TXTRecord(new Name("version", catalog), DClass.IN, 0, "2"));
            Name zonesLabel = new Name("zones", catalog);
            for (Name member : members) {
                records.add(new PTRRecord(new Name(id(member), zonesLabel), DClass.IN, 0, member));
            }
        } catch (org.xbill.DNS.TextParseException e) {
            throw new IllegalStateException(e); // fixed labels: cannot happen
        }
        return records;
    }

    /** A member's unique id: hex of the first 8 bytes of SHA-256 over its lower-case wire name. */
    static String id(Name zone) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(zone.toWireCanonical());
            return HexFormat.of().formatHex(hash, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
    }
}
