package dev.gslb.config;

import static java.util.Objects.requireNonNullElse;

import com.fasterxml.jackson.annotation.JsonCreator;
import dev.gslb.dns.answer.Authority;
import dev.gslb.dns.tsig.TsigKey;
import dev.gslb.dns.tsig.TsigKeys;
import dev.gslb.dns.wideip.Failure;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.zone.DnssecSettings;
import dev.gslb.dns.zone.SecondarySettings;
import dev.gslb.dns.zone.TransferSettings;
import dev.gslb.dns.zone.Zone;
import dev.gslb.dns.zone.ZoneException;
import dev.gslb.dns.zone.ZoneFile;
import dev.gslb.dns.zone.Zones;
import dev.gslb.settings.Bounds;
import dev.gslb.settings.Section;
import dev.gslb.settings.SettingsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.xbill.DNS.Name;

/** The {@code zones:} and {@code wide-ips:} sections: the zone files served and the wide IPs inside them. */
final class ZoneBinder extends Sections {
    /** One entry of {@code zones:} as written. */
    record ZoneEntry(
            Path file,
            Name origin,
            DnssecSettings dnssec,
            TransferSettings transfer,
            List<String> primary,
            String tsig,
            Boolean catalog) {
        static final Section<List<ZoneEntry>> SECTION = Section.list("zones", ZoneEntry.class);
    }

    /** One entry of {@code wide-ips:} as written: its pools by name. */
    record WideIpEntry(
            Name name,
            List<PoolChoiceEntry> pools,
            Duration ttl,
            WideIp.PoolMethod poolMethod,
            Failure failure,
            Boolean decisionLog,
            Duration persistenceTtl,
            String lastResort) {
        static final Section<List<WideIpEntry>> SECTION = Section.list("wide-ips", WideIpEntry.class);
    }

    /** One of a wide IP's {@code pools:}: a pool's name, or {@code {name: web, ratio: 3}} (ratio 1 when not given). */
    record PoolChoiceEntry(String name, Integer ratio) {
        @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
        PoolChoiceEntry {}

        @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
        static PoolChoiceEntry named(String name) {
            return new PoolChoiceEntry(name, null);
        }
    }

    ZoneBinder(Sections shared) {
        super(shared);
    }

    /** The {@code tsig-keys:} section: the keys transfers, NOTIFY and signed queries are checked with. */
    TsigKeys tsigKeys() throws SettingsException {
        List<TsigKeySpec> given = section(TsigKeySpec.SECTION);
        List<TsigKey> keys = new ArrayList<>();
        Set<Name> names = new HashSet<>();
        for (int i = 0; i < given.size(); i++) {
            TsigKey k = given.get(i).key();
            if (!names.add(k.name())) {
                throw file.error("TSIG key " + k.name() + " is defined twice", "tsig-keys", i);
            }
            keys.add(k);
        }
        return new TsigKeys(keys);
    }

    List<Zone> zones(TsigKeys keys) throws SettingsException {
        List<ZoneEntry> given = section(ZoneEntry.SECTION);
        if (given.isEmpty()) {
            throw file.error("no zones: add at least one under 'zones:' (file: path/to/zone)");
        }
        List<Zone> zones = new ArrayList<>();
        for (int i = 0; i < given.size(); i++) {
            ZoneEntry z = given.get(i);
            if (Boolean.TRUE.equals(z.catalog())) {
                zones.add(catalog(z, keys, i));
                continue;
            }
            if (z.primary() != null) {
                zones.add(secondary(z, keys, i));
                continue;
            }
            if (z.file() == null) {
                throw file.error(
                        "zone needs 'file:' (path to an RFC 1035 zone file), or 'primary:' (a secondary zone)",
                        "zones",
                        i);
            }
            if (z.tsig() != null) {
                throw file.error(
                        "'tsig:' is the key of a secondary zone's transfers: add 'primary:', or remove it",
                        "zones",
                        i,
                        "tsig");
            }
            if (!Files.isRegularFile(z.file())) {
                throw file.error("zone file " + z.file() + " does not exist", "zones", i, "file");
            }
            checkTransfer(z, keys, i);
            try {
                zones.add(ZoneFile.load(z.file(), z.origin())
                        .withDnssec(z.dnssec())
                        .withTransfer(z.transfer()));
            } catch (ZoneException e) { // where the zone is configured, then the zone file's own file:line
                throw file.error(
                        "zone " + (z.origin() == null ? z.file().getFileName() : z.origin()) + ": " + e.getMessage(),
                        "zones",
                        i);
            }
        }
        return List.copyOf(zones);
    }

    /**
     * A catalog zone ({@code origin}, {@code catalog: true}, {@code transfer}): its records are made
     * by the server from the zones offered for transfer, so it has no file, primary or signing.
     */
    private Zone catalog(ZoneEntry z, TsigKeys keys, int i) throws SettingsException {
        if (z.origin() == null) {
            throw file.error("a catalog zone needs 'origin:' (its name, e.g. catalog.example.net)", "zones", i);
        }
        if (z.file() != null || z.primary() != null || z.dnssec() != null || z.tsig() != null) {
            throw file.error(
                    "a catalog zone's records are made here: it takes no 'file:', 'primary:', 'tsig:' or 'dnssec:'",
                    "zones",
                    i);
        }
        if (z.transfer() == null) {
            throw file.error(
                    "a catalog zone is for secondaries: give it 'transfer:' (who may take it, whom to notify)",
                    "zones",
                    i,
                    "catalog");
        }
        checkTransfer(z, keys, i);
        return Zone.placeholder(z.origin(), null).withTransfer(z.transfer()).asCatalog();
    }

    /**
     * A secondary zone ({@code origin}, {@code primary}, {@code tsig}): a stand-in until its first
     * transfer, which answers SERVFAIL; not signed here (its primary signs it, or nobody).
     */
    private Zone secondary(ZoneEntry z, TsigKeys keys, int i) throws SettingsException {
        if (z.file() != null) {
            throw file.error("a zone has 'file:' or 'primary:', not both", "zones", i, "primary");
        }
        if (z.origin() == null) {
            throw file.error("a secondary zone needs 'origin:' (the zone's name)", "zones", i);
        }
        if (z.dnssec() != null) {
            throw file.error(
                    "a secondary zone is signed by its primary, not here: remove 'dnssec:'", "zones", i, "dnssec");
        }
        if (z.primary().isEmpty()) {
            throw file.error("'primary:' lists no address", "zones", i, "primary");
        }
        List<java.net.InetSocketAddress> primaries = new ArrayList<>();
        for (int p = 0; p < z.primary().size(); p++) {
            try {
                primaries.add(TransferSettings.address(z.primary().get(p)));
            } catch (IllegalArgumentException e) {
                throw file.error(e.getMessage().replace("transfer.notify", "primary"), "zones", i, "primary", p);
            }
        }
        Name key = null;
        if (z.tsig() != null) {
            try {
                key = Name.fromString(z.tsig(), Name.root);
            } catch (org.xbill.DNS.TextParseException e) {
                throw file.error("'" + z.tsig() + "' is not a key name", "zones", i, "tsig");
            }
            if (keys.find(key) == null) {
                throw file.error(
                        "tsig names key " + key + ", which tsig-keys: does not define; defined: " + keys.names(),
                        "zones",
                        i,
                        "tsig");
            }
        }
        checkTransfer(z, keys, i);
        return Zone.placeholder(z.origin(), new SecondarySettings(primaries, key))
                .withTransfer(z.transfer());
    }

    /** A zone's transfer: its keys defined; not for a signed zone (signed as answered, it would go out unsigned). */
    private void checkTransfer(ZoneEntry z, TsigKeys keys, int i) throws SettingsException {
        TransferSettings t = z.transfer();
        if (t == null) {
            return;
        }
        if (t.allow().isEmpty() && t.tsig().isEmpty()) {
            throw file.error(
                    "transfer: needs 'allow:' (the secondaries' addresses) or 'tsig:' (key names), or both",
                    "zones",
                    i,
                    "transfer");
        }
        if (z.dnssec() != null) {
            throw file.error(
                    "zone " + z.origin() + " is signed as it is answered (dnssec:), so a secondary would get it"
                            + " unsigned: a signed zone is not offered for transfer (remove transfer: or dnssec:)",
                    "zones",
                    i,
                    "transfer");
        }
        for (int k = 0; k < t.tsig().size(); k++) {
            if (keys.find(t.tsig().get(k)) == null) {
                throw file.error(
                        "transfer names TSIG key " + t.tsig().get(k) + ", which tsig-keys: does not define; defined: "
                                + keys.names(),
                        "zones",
                        i,
                        "transfer",
                        "tsig",
                        k);
            }
        }
    }

    List<WideIpSpec> wideIps(Zones served) throws SettingsException {
        List<WideIpSpec> wideIps = new ArrayList<>();
        Set<Name> names = new HashSet<>();
        List<WideIpEntry> given = section(WideIpEntry.SECTION);
        for (int i = 0; i < given.size(); i++) {
            WideIpEntry w = given.get(i);
            required(w.name(), "wide IP", "name", "wide-ips", i);
            required(w.pools(), "wide IP", "pools", "wide-ips", i);
            List<PoolSpec> wipPools = new ArrayList<>();
            List<Integer> ratios = new ArrayList<>();
            for (int p = 0; p < w.pools().size(); p++) {
                PoolChoiceEntry choice = w.pools().get(p);
                required(choice.name(), "wide IP's pool", "name", "wide-ips", i, "pools", p);
                wipPools.add(pool(w, choice.name(), "wide-ips", i, "pools", p));
                try {
                    ratios.add(Bounds.within("ratio", requireNonNullElse(choice.ratio(), 1), 0, WideIp.MAX_RATIO));
                } catch (IllegalArgumentException e) {
                    throw file.error(
                            "wide IP " + w.name() + ", pool " + choice.name() + ": " + e.getMessage(),
                            "wide-ips",
                            i,
                            "pools",
                            p,
                            "ratio");
                }
            }
            int lastResort = -1;
            if (w.lastResort() != null) { // any defined pool; listed or not, it is tried only after every other
                PoolSpec last = pool(w, w.lastResort(), "wide-ips", i, "last-resort");
                lastResort = wipPools.indexOf(last);
                if (lastResort < 0) {
                    lastResort = wipPools.size();
                    wipPools.add(last);
                    ratios.add(0);
                }
            }
            try {
                Authority.checkPlacement(served, w.name());
                if (!names.add(w.name())) {
                    throw new IllegalArgumentException("wide IP " + w.name() + " is defined twice");
                }
                wideIps.add(new WideIpSpec(
                        w.name(),
                        wipPools,
                        requireNonNullElse(w.poolMethod(), WideIp.PoolMethod.GLOBAL_AVAILABILITY),
                        w.ttl() == null ? WideIp.DEFAULT_TTL : w.ttl().toSeconds(),
                        requireNonNullElse(w.failure(), Failure.DEFAULT),
                        Boolean.TRUE.equals(w.decisionLog()),
                        w.persistenceTtl() == null
                                ? 0
                                : Bounds.within(
                                        "persistence-ttl (seconds)",
                                        (int) Math.min(
                                                Integer.MAX_VALUE,
                                                w.persistenceTtl().toSeconds()),
                                        0,
                                        7 * 86_400),
                        ratios,
                        lastResort));
            } catch (IllegalArgumentException e) {
                throw file.error(e.getMessage(), "wide-ips", i);
            }
        }
        return List.copyOf(wideIps);
    }

    /** The pool a wide IP names at {@code path}, or an error there naming the defined ones. */
    private PoolSpec pool(WideIpEntry w, String name, Object... path) throws SettingsException {
        PoolSpec pool = pools.get(name);
        if (pool == null) {
            throw file.error(
                    "wide IP " + w.name() + " names pool " + name + ", which is not defined; defined: "
                            + pools.keySet(),
                    path);
        }
        return pool;
    }
}
