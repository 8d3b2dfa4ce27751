package dev.gslb.dns.answer;

import dev.gslb.dns.dnssec.KeyRing;
import dev.gslb.dns.dnssec.Signer;
import dev.gslb.dns.dnssec.SigningBudget;
import dev.gslb.dns.wideip.CnameTarget;
import dev.gslb.dns.wideip.WideIp;
import dev.gslb.dns.zone.Zone;
import dev.gslb.dns.zone.Zones;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Type;

/**
 * Everything a server answers from: the zones and the wide IPs inside them. Immutable; a reload
 * builds a new one and swaps it in whole, so a query sees either the old or the new data.
 */
public final class Authority {
    private final Zones zones;
    private final Map<Name, WideIp> wideIps;
    /**
     * The same wide IPs by lower-case wire name, so the query path finds one straight from the
     * packet's bytes without building a name.
     */
    private final NameTable<WideIp> byWire;
    /** Wildcard wide IPs ({@code *.cdn.example.com}) by their parent, the closest encloser they answer for. */
    private final Map<Name, WideIp> wildcards;

    private final NameTable<WideIp> wildcardsByWire;
    /** The hash of each wildcard wide IP's own name: every name it answers is rate-limited under it. */
    private final java.util.IdentityHashMap<WideIp, Long> wildcardHashes = new java.util.IdentityHashMap<>();
    /**
     * Every name that exists at or below a wildcard's parent (zone names, wide IPs, the empty
     * non-terminals above them): walking up from a query name, the first one met is its closest
     * encloser (RFC 4592 3.3.1), and only that one's wildcard may answer.
     */
    private final Set<Name> enclosers;

    private final NameTable<Boolean> enclosersByWire;
    /** Names that exist only as the ancestors of wide IPs (no records in their zone): NODATA, not NXDOMAIN. */
    private final Set<Name> emptyNonTerminals;
    /** The CNAME pools' targets inside a served zone: their answer continues here, as a zone's chain does. */
    private final Set<Name> servedTargets;
    /** The zone each wide IP lies in. */
    private final java.util.IdentityHashMap<WideIp, Zone> zoneOf = new java.util.IdentityHashMap<>();
    /** The signers of the zones signed with the keys this authority was given ({@link #withKeys}). */
    private final Signatures signatures;
    /** The zones by their origins' lower-case wire names, for a question read in place. */
    private final NameTable<Zone> zonesByWire;
    /** Each zone's NXDOMAIN, its negative SOA alone: one body for every name the zone does not hold. */
    private final java.util.IdentityHashMap<Zone, AnswerBody> nxdomains = new java.util.IdentityHashMap<>();
    /** Every name that exists here: the zones' names, the wide IPs and the names above them. */
    private final NameHashes held;
    /** The zone cuts below the zones' apexes. */
    private final NameHashes cuts;
    /** The names with a wildcard child: the zones' and the wildcard wide IPs'. */
    private final NameHashes wildcardParents;

    public Authority(List<Zone> zones, List<WideIp> wideIps) {
        this.signatures = Signatures.NONE;
        this.zones = new Zones(zones);
        Map<Name, WideIp> byName = new HashMap<>();
        Map<Name, WideIp> wild = new HashMap<>();
        for (WideIp w : wideIps) {
            checkPlacement(this.zones, w.name());
            if (byName.put(w.name(), w) != null) {
                throw new IllegalArgumentException("wide IP " + w.name() + " is defined twice");
            }
            if (w.name().isWild()) {
                wild.put(parent(w.name()), w);
                wildcardHashes.put(w, WireName.hash(w.name()));
            }
        }
        this.wideIps = Map.copyOf(byName);
        this.byWire = new NameTable<>(byName);
        this.wildcards = Map.copyOf(wild);
        this.wildcardsByWire = new NameTable<>(wild);
        Set<Name> encloser = new HashSet<>();
        Set<Name> ents = new HashSet<>();
        Set<Name> targets = new HashSet<>();
        for (WideIp w : wideIps) {
            Zone zone = this.zones.find(w.name());
            zoneOf.put(w, zone);
            for (Name n = parent(w.name()); n.labels() > zone.origin().labels(); n = parent(n)) {
                if (!zone.exists(n)) {
                    ents.add(n);
                }
            }
            for (dev.gslb.dns.wideip.Pool p : w.pools()) {
                for (CnameTarget t : p.targets()) {
                    if (this.zones.find(t.name()) != null) {
                        targets.add(t.name());
                    }
                }
            }
        }
        for (Name p : wild.keySet()) {
            encloser.add(p);
            this.zones.find(p).names().stream().filter(n -> n.subdomain(p)).forEach(encloser::add);
            for (Name w : byName.keySet()) {
                for (Name n = w; n.subdomain(p); n = parent(n)) {
                    encloser.add(n);
                }
            }
        }
        this.enclosers = Set.copyOf(encloser);
        this.enclosersByWire =
                new NameTable<>(encloser.stream().collect(java.util.stream.Collectors.toMap(n -> n, n -> true)));
        this.emptyNonTerminals = Set.copyOf(ents);
        this.servedTargets = Set.copyOf(targets);
        Map<Name, Zone> origins = new HashMap<>();
        List<Name> names = new java.util.ArrayList<>(byName.keySet());
        names.addAll(ents);
        List<Name> cutNames = new java.util.ArrayList<>();
        List<Name> wildcardNames = new java.util.ArrayList<>(wild.keySet());
        for (Zone z : zones) {
            origins.put(z.origin(), z);
            nxdomains.put(z, nxdomainOf(z));
            names.addAll(z.names());
            cutNames.addAll(z.cuts());
            wildcardNames.addAll(z.wildcardParents());
        }
        this.zonesByWire = new NameTable<>(origins);
        this.held = new NameHashes(names);
        this.cuts = new NameHashes(cutNames);
        this.wildcardParents = new NameHashes(wildcardNames);
    }

    /** {@code base} answering with {@code signatures}: the same data, shared. */
    private Authority(Authority base, Signatures signatures) {
        this.zones = base.zones;
        this.wideIps = base.wideIps;
        this.byWire = base.byWire;
        this.wildcards = base.wildcards;
        this.wildcardsByWire = base.wildcardsByWire;
        this.wildcardHashes.putAll(base.wildcardHashes);
        this.enclosers = base.enclosers;
        this.enclosersByWire = base.enclosersByWire;
        this.emptyNonTerminals = base.emptyNonTerminals;
        this.servedTargets = base.servedTargets;
        this.zoneOf.putAll(base.zoneOf);
        this.signatures = signatures;
        this.zonesByWire = base.zonesByWire;
        this.nxdomains.putAll(base.nxdomains);
        this.held = base.held;
        this.cuts = base.cuts;
        this.wildcardParents = base.wildcardParents;
    }

    /**
     * The same zones and wide IPs, those with {@code dnssec:} whose keys {@code ring} holds signed
     * with them (the others unsigned); {@code clock} gives signatures their times, {@code counts}
     * counts them, {@code budget} bounds how many are made a second.
     */
    public Authority withKeys(
            KeyRing ring, java.util.function.LongSupplier clock, Signer.Counts counts, SigningBudget budget) {
        Signatures s = new Signatures(zones, ring, clock, counts, budget);
        if (s.all().isEmpty()) {
            return signatures == Signatures.NONE ? this : new Authority(this, Signatures.NONE);
        }
        return new Authority(this, s);
    }

    /** The signer of {@code zone}, or null when it is not signed here now. */
    Signer signer(Zone zone) {
        return signatures.of(zone);
    }

    /** The signer of the zone {@code name} lies in, or null when none served here is signed now. */
    Signer signerFor(Name name) {
        Zone zone = zones.find(name);
        return zone == null ? null : signatures.of(zone);
    }

    Signatures signatures() {
        return signatures;
    }

    /** The zone {@code w} lies in. */
    Zone zoneOf(WideIp w) {
        return zoneOf.get(w);
    }

    private static Name parent(Name name) {
        return new Name(name, 1);
    }

    /**
     * A wide IP must be inside a served zone, at a name that is not also an alias (CNAME); a
     * wildcard one not at or below a zone cut (the names there are another server's).
     */
    public static void checkPlacement(Zones zones, Name wideIp) {
        Zone zone = zones.find(wideIp);
        if (zone == null) {
            throw new IllegalArgumentException("wide IP " + wideIp + " is not inside any served zone");
        }
        // A and AAAA records at the name are allowed: only the return-to-dns method answers them.
        if (zone.rrset(wideIp, Type.CNAME) != null) {
            throw new IllegalArgumentException("wide IP " + wideIp + " also has a CNAME in zone " + zone.origin()
                    + "; a name is either an alias or a wide IP");
        }
        if (wideIp.isWild() && zone.delegated(wideIp)) {
            throw new IllegalArgumentException("wildcard wide IP " + wideIp + " is at or below a delegation in zone "
                    + zone.origin() + "; the names there are answered by the delegated servers");
        }
    }

    public Zones zones() {
        return zones;
    }

    /**
     * The wide IP that answers {@code name}: the one of that name, else the wildcard at its closest
     * encloser when the name does not exist (RFC 4592), or null.
     */
    public WideIp wideIp(Name name) {
        WideIp w = wideIps.get(name);
        if (w != null || wildcards.isEmpty()) {
            return w;
        }
        for (int strip = 0; strip < name.labels() - 1; strip++) {
            Name n = strip == 0 ? name : new Name(name, strip);
            if (enclosers.contains(n)) {
                return strip == 0 ? null : wildcards.get(n);
            }
        }
        return null;
    }

    /**
     * {@link #wideIp(Name)} for the question of {@code q}, read in place (no name is built), when
     * it is a wide IP's own name; {@link #wildcardWideIp} finds the rest. A probe of a small table.
     */
    WideIp exactWideIp(QueryView q) {
        return byWire.get(q.buf, QueryView.HEADER, q.qnameEnd, q.qnameHash);
    }

    /** The wildcard wide IP that covers {@code q}'s name (not a wide IP itself), or null. */
    WideIp wildcardWideIp(QueryView q) {
        if (wildcards.isEmpty()) {
            return null;
        }
        byte[] b = q.buf;
        for (int at = QueryView.HEADER; b[at] != 0; at += (b[at] & 0xFF) + 1) {
            long hash = at == QueryView.HEADER ? q.qnameHash : WireName.hash(b, at, q.qnameEnd);
            if (enclosersByWire.get(b, at, q.qnameEnd, hash) != null) {
                return at == QueryView.HEADER ? null : wildcardsByWire.get(b, at, q.qnameEnd, hash);
            }
        }
        return null;
    }

    /**
     * The answer to {@code q} when its name is one no zone here holds and nothing else answers it,
     * found from the packet's bytes with nothing built, so a flood of random names allocates
     * nothing: REFUSED when no zone here ends it (or its class or a transfer is asked), else the
     * zone's one NXDOMAIN body; either the
     * same the full lookup gives ({@link MessageAnswerer}). Walking up from the name to the longest
     * origin that ends it: the name is not held, no name on the way is a zone cut or has a wildcard
     * child (a wildcard anywhere above may be the one that answers, so any sends the question the
     * long way). Null whenever the NXDOMAIN is not certain (the sets hold hashes: an equal hash is
     * a "maybe") or must be signed, and for CHAOS: the full lookup decides.
     */
    AnswerBody plainNegative(QueryView q) {
        if (q.qclass == DClass.CH) {
            return null; // the server's identity is asked in CHAOS
        }
        if (q.refusedOutright()) {
            return AnswerBody.REFUSED;
        }
        // still walked when the name may be held: REFUSED outside every zone does not depend on it
        boolean nxdomain = !held.mayHold(q.qnameHash) && !(q.dnssecOk && signatures != Signatures.NONE);
        byte[] b = q.buf;
        for (int at = QueryView.HEADER; ; at += (b[at] & 0xFF) + 1) {
            long hash = at == QueryView.HEADER ? q.qnameHash : WireName.hash(b, at, q.qnameEnd);
            Zone zone = zonesByWire.get(b, at, q.qnameEnd, hash);
            if (zone != null) { // the longest origin: names below it were checked on the way up
                return nxdomain && !zone.expired() && !wildcardParents.mayHold(hash) ? nxdomains.get(zone) : null;
            }
            if (b[at] == 0) {
                return AnswerBody.REFUSED; // in no zone here
            }
            if (cuts.mayHold(hash) || wildcardParents.mayHold(hash)) {
                nxdomain = false; // below a cut or a wildcard's parent: the full lookup decides
            }
        }
    }

    /** {@code zone}'s NXDOMAIN with its negative SOA alone ({@link #plainNegative}). */
    AnswerBody nxdomain(Zone zone) {
        AnswerBody body = nxdomains.get(zone);
        return body != null ? body : nxdomainOf(zone);
    }

    private static AnswerBody nxdomainOf(Zone zone) {
        return AnswerBody.negative(Rcode.NXDOMAIN, zone.negativeSoa(), ResponseClasses.nxdomain(zone));
    }

    /**
     * The name {@code w}'s answer to {@code q} is rate-limited under ({@link WireName#hash}): the
     * question's, or a wildcard wide IP's own, as a zone's wildcard answers are.
     */
    long rateName(WideIp w, QueryView q) {
        Long wildcard = wildcardHashes.isEmpty() ? null : wildcardHashes.get(w);
        return wildcard == null ? q.qnameHash : wildcard;
    }

    /** True when {@code name} exists only as an ancestor of wide IPs: asked, it is NODATA. */
    boolean emptyNonTerminal(Name name) {
        return emptyNonTerminals.contains(name);
    }

    /** True when a CNAME pool's {@code target} is inside a served zone: the answer follows it here. */
    boolean serves(CnameTarget target) {
        return servedTargets.contains(target.name());
    }

    public Map<Name, WideIp> wideIps() {
        return wideIps;
    }

    /**
     * The longest TTL of an answer that may carry a server {@code answered} accepts (pool TTL, else
     * the wide IP's), or 0: how long resolvers may keep sending users there after it fails.
     */
    public long longestAnswerTtl(java.util.function.Predicate<dev.gslb.site.VirtualServer> answered) {
        long ttl = 0;
        for (WideIp w : wideIps.values()) {
            for (dev.gslb.dns.wideip.Pool p : w.pools()) {
                if (p.members().stream().anyMatch(answered)) {
                    ttl = Math.max(ttl, p.ttl() >= 0 ? p.ttl() : w.ttl());
                }
            }
        }
        return ttl;
    }
}
