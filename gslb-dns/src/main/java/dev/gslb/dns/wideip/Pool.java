package dev.gslb.dns.wideip;

import com.fasterxml.jackson.annotation.JsonCreator;
import dev.gslb.dns.method.LoadBalancingMethod;
import dev.gslb.site.VirtualServer;
import java.net.InetAddress;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * An ordered group of virtual servers and the methods that choose among them (F5's pool):
 * preferred, then alternate, then fallback; the first that decides answers.
 *
 * @param maxAnswers  addresses in one answer (the chosen one first)
 * @param ttl         answer TTL overriding the wide IP's, or -1
 * @param fallbackIps what the fallback-ip method answers (one per family at most)
 * @param minUpMembers fewer candidates than this (available, of the asked type, not set aside
 *     over a limit) and the pool does not answer (F5's minimum up members); 0: no minimum
 * @param minUpAction what then: the next pool, or the wide IP's failure behaviour at once
 * @param cnames      a CNAME pool's names (then {@code members} is empty), or null for a pool of servers
 */
public record Pool(
        String name,
        List<VirtualServer> members,
        List<LoadBalancingMethod> tiers,
        int maxAnswers,
        long ttl,
        List<InetAddress> fallbackIps,
        int minUpMembers,
        MinUpAction minUpAction,
        CnameMembers cnames) {
    public static final List<String> TIER_NAMES = List.of("preferred", "alternate", "fallback");

    /** What a pool with fewer members up than its minimum does. */
    public enum MinUpAction {
        /** The wide IP tries its next pool (F5's default). */
        NEXT_POOL,
        /** The wide IP's failure behaviour answers at once: no other pool, no last resort. */
        FAIL;

        /** As the config writes it: {@code next-pool} or {@code fail}. */
        @JsonCreator
        public static MinUpAction parse(String text) {
            return switch (text) {
                case "next-pool" -> NEXT_POOL;
                case "fail" -> FAIL;
                default ->
                    throw new IllegalArgumentException("min-up-action must be next-pool or fail, not '" + text + "'");
            };
        }

        /** As the config writes it. */
        public String configName() {
            return this == NEXT_POOL ? "next-pool" : "fail";
        }
    }

    /** A pool with no minimum of members up. */
    public Pool(
            String name,
            List<VirtualServer> members,
            List<LoadBalancingMethod> tiers,
            int maxAnswers,
            long ttl,
            List<InetAddress> fallbackIps) {
        this(name, members, tiers, maxAnswers, ttl, fallbackIps, 0, MinUpAction.NEXT_POOL, null);
    }

    public Pool {
        members = members.stream()
                .sorted(Comparator.comparingInt(VirtualServer::order))
                .toList();
        tiers = List.copyOf(tiers);
        fallbackIps = List.copyOf(fallbackIps);
        if (cnames != null) {
            if (cnames.targets().isEmpty() || !members.isEmpty()) {
                throw new IllegalArgumentException("CNAME pool " + name + " needs names as members, and only names");
            }
            tiers.forEach(m -> CnameMembers.check(name, m.name()));
        } else if (members.isEmpty()) {
            throw new IllegalArgumentException("pool " + name + " has no members");
        }
        if (maxAnswers < 1) {
            throw new IllegalArgumentException("pool " + name + ": max-answers must be at least 1");
        }
        if (minUpMembers < 0 || minUpMembers > members.size()) {
            throw new IllegalArgumentException("pool " + name + ": min-up-members must be between 0 and its "
                    + members.size() + " members, not " + minUpMembers);
        }
        Objects.requireNonNull(minUpAction, "min-up-action");
        if (tiers.size() > 1 && tiers.get(1).usesPathMetrics()) {
            throw new IllegalArgumentException(
                    "pool " + name + ": the alternate method " + tiers.get(1).name()
                            + " uses path metrics; an alternate answers LDNS with no metrics yet (F5's rule): use topology,"
                            + " global-availability, round-robin, ...");
        }
    }

    /** A pool of virtual servers with a minimum of members up. */
    public Pool(
            String name,
            List<VirtualServer> members,
            List<LoadBalancingMethod> tiers,
            int maxAnswers,
            long ttl,
            List<InetAddress> fallbackIps,
            int minUpMembers,
            MinUpAction minUpAction) {
        this(name, members, tiers, maxAnswers, ttl, fallbackIps, minUpMembers, minUpAction, null);
    }

    /** A CNAME pool: {@code names} chosen by {@code tiers}, answered with {@code ttl} (-1: the wide IP's). */
    public static Pool cname(String name, List<LoadBalancingMethod> tiers, long ttl, CnameMembers names) {
        return new Pool(name, List.of(), tiers, 1, ttl, List.of(), 0, MinUpAction.NEXT_POOL, names);
    }

    /** A CNAME pool's members (empty for a pool of virtual servers): what {@code Authority} checks. */
    public List<CnameTarget> targets() {
        return cnames == null ? List.of() : cnames.targets();
    }

    /** What the fallback-ip method answers to a query of {@code recordType} (A or AAAA), or null. */
    public InetAddress fallbackFor(int recordType) {
        for (int i = 0; i < fallbackIps.size(); i++) { // indexed: asked per query
            InetAddress a = fallbackIps.get(i);
            if ((a instanceof java.net.Inet4Address) == (recordType == org.xbill.DNS.Type.A)) {
                return a;
            }
        }
        return null;
    }

    /**
     * Whether this pool can answer a query of {@code recordType}: a CNAME pool always; a pool of
     * servers when a member has an address of that type, or a fallback of it. A pool of IPv4 servers
     * is not tried for AAAA, as F5's A pool is never asked for AAAA (a fallback of return-to-dns there
     * would otherwise answer for the whole wide IP).
     */
    public boolean answers(int recordType) {
        if (cnames != null || fallbackFor(recordType) != null) {
            return true;
        }
        for (int i = 0; i < members.size(); i++) { // indexed: asked per query
            if (members.get(i).recordType() == recordType) {
                return true;
            }
        }
        return false;
    }

    /** True when a tier reads measured paths: only then are this pool's LDNS worth probing. */
    public boolean usesPathMetrics() {
        for (int i = 0; i < tiers.size(); i++) { // indexed: asked per query, and an iterator is an object
            if (tiers.get(i).usesPathMetrics()) {
                return true;
            }
        }
        return false;
    }
}
