package dev.gslb.dns.wideip;

import dev.gslb.dns.method.LoadBalancingMethod;
import dev.gslb.dns.method.QueryContext;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A CNAME pool's members (names, not virtual servers) and how one is chosen. Names carry no
 * health, data center, path or load, so only the methods that read none of these may choose
 * (F5's rule for a pool of names): global-availability, round-robin, ratio, static-persistence,
 * and return-to-dns, drop-packet and none, which end or pass the query without choosing. The
 * turns of round-robin and ratio are the pool's own. Choosing allocates nothing.
 */
public final class CnameMembers {
    /** The methods a CNAME pool may use, as the config writes them. */
    public static final List<String> METHODS = List.of(
            "global-availability",
            "round-robin",
            "ratio",
            "static-persistence",
            "return-to-dns",
            "drop-packet",
            "none");
    /** A CNAME pool's tiers when none is written: each name in turn. */
    public static final List<String> DEFAULT_CHAIN = List.of("round-robin", "none", "none");

    private final List<CnameTarget> targets;
    private final long totalRatio;
    private final AtomicLong[] turns = {new AtomicLong(), new AtomicLong(), new AtomicLong()};

    public CnameMembers(List<CnameTarget> targets) {
        this.targets = List.copyOf(targets);
        this.totalRatio = this.targets.stream().mapToLong(CnameTarget::ratio).sum();
    }

    public List<CnameTarget> targets() {
        return targets;
    }

    /** Refuses a method a pool of names cannot run. */
    public static void check(String pool, String method) {
        if (!METHODS.contains(method)) {
            throw new IllegalArgumentException("pool " + pool + " is a CNAME pool: its members are names, with no"
                    + " health, data center, path or load, so " + method + " cannot choose among them; use one of "
                    + METHODS);
        }
    }

    /**
     * The index of the target that {@code m} (the pool's tier {@code tier}) chooses for {@code q},
     * or -1 when it does not choose (a terminal method: its own outcome applies). The network of
     * static-persistence is the client's cut to {@code prefixV4}/{@code prefixV6}.
     */
    int choose(LoadBalancingMethod m, int tier, QueryContext q, int prefixV4, int prefixV6) {
        int n = targets.size();
        return switch (m.name()) {
            case "global-availability" -> 0;
            case "round-robin" -> (int) Math.floorMod(turns[tier].getAndIncrement(), n);
            case "ratio" -> byRatio(tier);
            case "static-persistence" -> {
                q.scopeAtLeast(prefixV4, prefixV6);
                long h = q.networkHi(prefixV4, prefixV6) * 0x9E3779B97F4A7C15L
                        ^ q.networkLo(prefixV4, prefixV6) * 0xC2B2AE3D27D4EB4FL;
                yield (int) Math.floorMod(h ^ (h >>> 31), n);
            }
            default -> -1;
        };
    }

    private int byRatio(int tier) {
        if (totalRatio == 0) {
            return -1;
        }
        long k = Math.floorMod(turns[tier].getAndIncrement(), totalRatio);
        for (int i = 0; i < targets.size(); i++) {
            k -= targets.get(i).ratio();
            if (k < 0) {
                return i;
            }
        }
        return -1;
    }
}
