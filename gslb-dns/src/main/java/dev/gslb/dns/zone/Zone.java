package dev.gslb.dns.zone;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.xbill.DNS.Name;
import org.xbill.DNS.RRset;
import org.xbill.DNS.Record;
import org.xbill.DNS.SOARecord;
import org.xbill.DNS.Type;

/**
 * One served zone, immutable after construction so listeners read it without locks. Answers a
 * question with the sections an authoritative server returns (RFC 1034 4.3.2, RFC 2308, RFC 8482).
 */
public final class Zone {
    private static final int MAX_CNAME_CHAIN = 8;

    private final Name origin;
    private final SOARecord soa;
    private final Record negativeSoa;
    /** {@link #negativeSoa} as the authority section's set: made once, not per negative answer. */
    private final RRset negativeSoaSet;

    private final Map<Name, Map<Integer, RRset>> nodes;
    /** Every owner name and every empty non-terminal between it and the apex. */
    private final Set<Name> existing;
    /** Wildcard owner names keyed by their parent, the closest encloser they can answer for. */
    private final Map<Name, Name> wildcards;
    /** The owners of NS sets below the apex: the zone cuts, where other servers answer. */
    private final Set<Name> cuts;
    /** How the zone is signed, or null: served unsigned. */
    private final DnssecSettings dnssec;
    /** Who may take the zone by transfer and whom to NOTIFY, or null: no transfers. */
    private final TransferSettings transfer;
    /** Where a secondary zone is transferred from ({@code primary:}), or null: from its file. */
    private final SecondarySettings secondary;
    /** A secondary zone not (or no longer) held: answered SERVFAIL (never loaded, or expired). */
    private final boolean expired;
    /** A catalog zone (RFC 9432): its records list the zones offered for transfer, made by the server. */
    private final boolean catalog;

    Zone(Name origin, SOARecord soa, Map<Name, Map<Integer, List<Record>>> records) {
        this.origin = origin;
        this.soa = soa;
        this.dnssec = null;
        this.transfer = null;
        this.secondary = null;
        this.expired = false;
        this.catalog = false;
        this.negativeSoa = soaWithTtl(soa.getMinimum());
        this.negativeSoaSet = new RRset(negativeSoa);
        Map<Name, Map<Integer, RRset>> n = new HashMap<>();
        Set<Name> names = new HashSet<>();
        Map<Name, Name> wild = new HashMap<>();
        for (var e : records.entrySet()) {
            Map<Integer, RRset> sets = new HashMap<>();
            e.getValue().forEach((type, list) -> sets.put(type, rrset(list)));
            n.put(e.getKey(), Map.copyOf(sets));
            if (e.getKey().isWild()) {
                wild.put(parent(e.getKey()), e.getKey());
            }
            for (Name name = e.getKey(); name.labels() >= origin.labels(); name = parent(name)) {
                names.add(name);
            }
        }
        this.nodes = Map.copyOf(n);
        this.existing = Set.copyOf(names);
        this.wildcards = Map.copyOf(wild);
        this.cuts = nodes.entrySet().stream()
                .filter(e -> !e.getKey().equals(origin) && e.getValue().containsKey(Type.NS))
                .map(Map.Entry::getKey)
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
    }

    /** The same zone signed, transferred and held as given; its data is shared, not copied. */
    private Zone(
            Zone data,
            DnssecSettings settings,
            TransferSettings transfer,
            SecondarySettings secondary,
            boolean expired,
            boolean catalog) {
        this.origin = data.origin;
        this.soa = data.soa;
        this.negativeSoa = data.negativeSoa;
        this.negativeSoaSet = data.negativeSoaSet;
        this.nodes = data.nodes;
        this.existing = data.existing;
        this.wildcards = data.wildcards;
        this.cuts = data.cuts;
        this.dnssec = settings;
        this.transfer = transfer;
        this.secondary = secondary;
        this.expired = expired;
        this.catalog = catalog;
    }

    /** This zone, signed as {@code settings} say (null: unsigned). */
    public Zone withDnssec(DnssecSettings settings) {
        return new Zone(this, settings, transfer, secondary, expired, catalog);
    }

    /** This zone, offered to secondaries as {@code settings} say (null: to nobody). */
    public Zone withTransfer(TransferSettings settings) {
        return new Zone(this, dnssec, settings, secondary, expired, catalog);
    }

    /**
     * A secondary zone before its first transfer: an SOA of serial 0 stands in, and every question
     * for it is answered SERVFAIL, as a secondary answers for a zone it does not hold.
     */
    public static Zone placeholder(Name origin, SecondarySettings secondary) {
        SOARecord soa = new SOARecord(origin, org.xbill.DNS.DClass.IN, 0, origin, origin, 0, 3600, 600, 604800, 0);
        Zone empty = new Zone(origin, soa, Map.of(origin, Map.of(Type.SOA, List.of(soa))));
        return new Zone(empty, null, null, secondary, true, false);
    }

    /** This zone's data, held as a secondary of {@code settings}: served until {@link #asExpired()}. */
    public Zone heldFrom(SecondarySettings settings) {
        return new Zone(this, dnssec, transfer, settings, false, catalog);
    }

    /** This zone, expired: every question for it is answered SERVFAIL. */
    public Zone asExpired() {
        return new Zone(this, dnssec, transfer, secondary, true, catalog);
    }

    /** Whether {@code other} holds this very data (the same load or transfer, however it is served). */
    public boolean sameData(Zone other) {
        return nodes == other.nodes;
    }

    /** This zone as a catalog zone, its records made by the server (RFC 9432). */
    public Zone asCatalog() {
        return new Zone(this, dnssec, transfer, secondary, expired, true);
    }

    /** True for a catalog zone: the server makes its records from the zones it offers. */
    public boolean catalog() {
        return catalog;
    }

    /** Where this secondary zone is transferred from, or null (a zone from a file). */
    public SecondarySettings secondary() {
        return secondary;
    }

    /** True for a secondary zone not held (never transferred, or expired): answered SERVFAIL. */
    public boolean expired() {
        return expired;
    }

    /** Every record, the SOA's included, in no order. */
    public List<Record> records() {
        List<Record> all = new ArrayList<>(recordCount());
        rrsets().forEach(set -> all.addAll(set.rrs(false)));
        return all;
    }

    /** Who may take the zone by transfer, and whom to NOTIFY ({@code transfer:}), or null. */
    public TransferSettings transfer() {
        return transfer;
    }

    /** Every RRset of the zone, the SOA's included, in no order. */
    public java.util.stream.Stream<RRset> rrsets() {
        return nodes.values().stream().flatMap(m -> m.values().stream());
    }

    /** How the zone is signed ({@code dnssec:}), or null when it is served unsigned. */
    public DnssecSettings dnssec() {
        return dnssec;
    }

    /** The types at {@code name} in this zone (none when it holds no records there). */
    public java.util.Set<Integer> types(Name name) {
        Map<Integer, RRset> node = nodes.get(name);
        return node == null ? java.util.Set.of() : node.keySet();
    }

    private static RRset rrset(List<Record> list) {
        // RFC 2181 5.2: one TTL per RRset; use the lowest as BIND does.
        long ttl = list.stream().mapToLong(Record::getTTL).min().orElse(0);
        RRset set = new RRset();
        for (Record r : list) {
            set.addRR(r.getTTL() == ttl ? r : withTtl(r, ttl));
        }
        return set;
    }

    private static Record withTtl(Record r, long ttl) {
        return Record.newRecord(r.getName(), r.getType(), r.getDClass(), ttl, r.rdataToWireCanonical());
    }

    private static Name parent(Name name) {
        return new Name(name, 1);
    }

    public Name origin() {
        return origin;
    }

    public SOARecord soa() {
        return soa;
    }

    public int recordCount() {
        return nodes.values().stream()
                .flatMap(m -> m.values().stream())
                .mapToInt(RRset::size)
                .sum();
    }

    /** The RRset at exactly this owner name, or null. */
    public RRset rrset(Name name, int type) {
        Map<Integer, RRset> node = nodes.get(name);
        return node == null ? null : node.get(type);
    }

    /** True when {@code name} exists here: it owns records or is an empty non-terminal above one. */
    public boolean exists(Name name) {
        return existing.contains(name);
    }

    /** Every name that exists here (owners and empty non-terminals). */
    public Set<Name> names() {
        return existing;
    }

    /** The zone cuts below the apex: the owners of NS sets other than the apex's. */
    public Set<Name> cuts() {
        return cuts;
    }

    /** The names that have a wildcard child ({@code *.name}): the closest enclosers it may answer for. */
    public Set<Name> wildcardParents() {
        return wildcards.keySet();
    }

    /** True when {@code name} is at or below a zone cut below the apex: another server answers for it. */
    public boolean delegated(Name name) {
        return delegationAbove(name, Type.A) != null;
    }

    /** The SOA to put in the authority section of a negative answer, with the RFC 2308 TTL. */
    public Record negativeSoa() {
        return negativeSoa;
    }

    /** The SOA for an authority section, its TTL capped at {@code ttl}. */
    public Record soaWithTtl(long ttl) {
        return withTtl(soa, Math.min(soa.getTTL(), ttl));
    }

    /**
     * Resolves {@code qname}/{@code qtype} inside this zone. A CNAME chain stops at a target that
     * {@code answeredElsewhere} claims (a wide IP): the caller answers that name itself.
     */
    public Answer lookup(Name qname, int qtype, Predicate<Name> answeredElsewhere) {
        Answer answer = new Answer();
        Name name = qname;
        for (int hops = 0; hops <= MAX_CNAME_CHAIN; hops++) {
            Name cut = delegationAbove(name, qtype);
            if (cut != null) {
                RRset ns = rrset(cut, Type.NS);
                answer.authoritative = hops > 0; // a referral is not authoritative; a CNAME before it was
                answer.authority.add(ns);
                addGlue(ns, cut, answer);
                return answer;
            }
            Map<Integer, RRset> node = nodes.get(name);
            Name owner = name;
            if (node == null) {
                if (existing.contains(name)) {
                    return answer.negative(Answer.Kind.NODATA, negativeSoaSet);
                }
                Name wildcard = wildcardFor(name);
                if (wildcard == null) {
                    return answer.negative(Answer.Kind.NXDOMAIN, negativeSoaSet);
                }
                node = nodes.get(wildcard);
                answer.synthesized = true;
                if (hops == 0) {
                    answer.wildcard = wildcard;
                }
            }
            if (qtype == Type.ANY) {
                // RFC 8482: one RRset is enough; prefer the lowest type for a stable answer.
                int type =
                        node.keySet().stream().mapToInt(Integer::intValue).min().orElseThrow();
                answer.answer.add(withOwner(node.get(type), owner));
                return answer;
            }
            RRset set = node.get(qtype);
            if (set != null) {
                answer.answer.add(withOwner(set, owner));
                addTargets(set, answer);
                return answer;
            }
            RRset cname = node.get(Type.CNAME);
            if (cname == null || qtype == Type.CNAME) {
                return answer.negative(Answer.Kind.NODATA, negativeSoaSet);
            }
            answer.answer.add(withOwner(cname, owner));
            Name target = ((org.xbill.DNS.CNAMERecord) cname.first()).getTarget();
            if (!target.subdomain(origin)) {
                return answer; // outside this zone: the resolver follows it
            }
            if (answeredElsewhere.test(target)) {
                answer.pendingTarget = target;
                return answer;
            }
            name = target;
        }
        return answer; // chain too long: give what we have, the resolver chases the rest
    }

    /** The highest zone cut strictly below the apex at or above {@code name}. */
    private Name delegationAbove(Name name, int qtype) {
        int extra = name.labels() - origin.labels();
        for (int strip = extra - 1; strip >= 0; strip--) {
            Name candidate = strip == 0 ? name : new Name(name, strip);
            Map<Integer, RRset> node = nodes.get(candidate);
            if (node != null && node.containsKey(Type.NS)) {
                if (strip == 0 && qtype == Type.DS) {
                    return null; // DS lives on the parent side of the cut
                }
                return candidate;
            }
        }
        return null;
    }

    /** The owner of the wildcard that answers for {@code name} (a name the zone does not hold), or null. */
    private Name wildcardFor(Name name) {
        if (wildcards.isEmpty()) {
            return null;
        }
        // The closest encloser is the longest existing ancestor; only its wildcard may match.
        for (int strip = 1; name.labels() - strip >= origin.labels(); strip++) {
            Name ancestor = new Name(name, strip);
            if (existing.contains(ancestor)) {
                return wildcards.get(ancestor);
            }
        }
        return null;
    }

    private static RRset withOwner(RRset set, Name owner) {
        // Equal names compress to the question, so the query's case shows without a copy.
        if (set.getName().equals(owner)) {
            return set;
        }
        RRset copy = new RRset();
        for (Record r : set.rrs(false)) {
            copy.addRR(r.withName(owner));
        }
        return copy;
    }

    private void addGlue(RRset ns, Name cut, Answer answer) {
        for (Record r : ns.rrs(false)) {
            Name target = r.getAdditionalName();
            if (target != null && target.subdomain(cut)) {
                addAddresses(target, answer);
            }
        }
    }

    private void addTargets(RRset set, Answer answer) {
        int type = set.getType();
        if (type != Type.MX && type != Type.SRV && type != Type.NS) {
            return;
        }
        for (Record r : set.rrs(false)) {
            Name target = r.getAdditionalName();
            if (target != null && target.subdomain(origin)) {
                addAddresses(target, answer);
            }
        }
    }

    private void addAddresses(Name target, Answer answer) {
        for (int type : new int[] {Type.A, Type.AAAA}) {
            RRset glue = rrset(target, type);
            if (glue != null && !answer.additional.contains(glue)) {
                answer.additional.add(glue);
            }
        }
    }

    /** The sections of an answer from this zone. */
    public static final class Answer {
        public enum Kind {
            POSITIVE,
            NODATA,
            NXDOMAIN
        }

        private Kind kind = Kind.POSITIVE;
        private boolean authoritative = true;
        private boolean synthesized;
        private Name wildcard;
        private Name pendingTarget;
        private final List<RRset> answer = new ArrayList<>(2);
        private final List<RRset> authority = new ArrayList<>(1);
        private final List<RRset> additional = new ArrayList<>(2);

        /** A negative answer: {@code soa} is the zone's set, shared (nothing adds to a set once made). */
        private Answer negative(Kind k, RRset soa) {
            kind = k;
            authority.add(soa);
            return this;
        }

        public Kind kind() {
            return kind;
        }

        public boolean authoritative() {
            return authoritative;
        }

        /** True when a wildcard made the answer: it depends on the query name, so is not worth caching. */
        public boolean synthesized() {
            return synthesized;
        }

        /**
         * The owner of the wildcard ({@code *.parent}) that answered the query name itself, or null:
         * the name that answer is rate-limited under, since random names under it are endless.
         */
        public Name wildcard() {
            return wildcard;
        }

        /** A CNAME target the caller must answer (a wide IP), or null. */
        public Name pendingTarget() {
            return pendingTarget;
        }

        public List<RRset> answer() {
            return answer;
        }

        public List<RRset> authority() {
            return authority;
        }

        public List<RRset> additional() {
            return additional;
        }
    }
}
