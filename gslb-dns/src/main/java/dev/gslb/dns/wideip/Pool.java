package dev.gslb.dns.wideip;

import dev.gslb.dns.method.LoadBalancingMethod;
import dev.gslb.site.VirtualServer;
import java.net.InetAddress;
import java.util.Comparator;
import java.util.List;

/**
 * An ordered group of virtual servers and the methods that choose among them (F5's pool):
 * preferred, then alternate, then fallback; the first that decides answers.
 *
 * @param maxAnswers  addresses in one answer (the chosen one first)
 * @param ttl         answer TTL overriding the wide IP's, or -1
 * @param fallbackIps what the fallback-ip method answers (one per family at most)
 * @param cnames      a CNAME pool's names (then {@code members} is empty), or null for a pool of servers
 */
public record Pool(
        String name,
        List<VirtualServer> members,
        List<LoadBalancingMethod> tiers,
        int maxAnswers,
        long ttl,
        List<InetAddress> fallbackIps,
        CnameMembers cnames) {
    public static final List<String> TIER_NAMES = List.of("preferred", "alternate", "fallback");

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
        if (tiers.size() > 1 && tiers.get(1).usesPathMetrics()) {
            throw new IllegalArgumentException(
                    "pool " + name + ": the alternate method " + tiers.get(1).name()
                            + " uses path metrics; an alternate answers LDNS with no metrics yet (F5's rule): use topology,"
                            + " global-availability, round-robin, ...");
        }
    }

    /** A pool of virtual servers. */
    public Pool(
            String name,
            List<VirtualServer> members,
            List<LoadBalancingMethod> tiers,
            int maxAnswers,
            long ttl,
            List<InetAddress> fallbackIps) {
        this(name, members, tiers, maxAnswers, ttl, fallbackIps, null);
    }

    /** A CNAME pool's members (empty for a pool of virtual servers): what {@code Authority} checks. */
    public List<CnameTarget> targets() {
        return cnames == null ? List.of() : cnames.targets();
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
