package dev.gslb.server.maintenance;

import dev.gslb.config.GslbConfig;
import dev.gslb.config.PoolSpec;
import dev.gslb.config.WideIpSpec;
import dev.gslb.site.RuntimeState;
import dev.gslb.site.RuntimeStates;
import dev.gslb.site.RuntimeTarget;
import dev.gslb.site.VirtualServer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The names a runtime state can be set on in one configuration, by kind, and what a change would
 * leave without an enabled member: the checks an operator's change passes before it is made.
 */
final class SiteNames {
    private final Map<RuntimeTarget.Kind, Set<String>> names = new LinkedHashMap<>();
    private final Map<String, PoolSpec> pools = new LinkedHashMap<>();
    private final List<WideIpSpec> wideIps;

    SiteNames(GslbConfig config) {
        for (RuntimeTarget.Kind k : RuntimeTarget.Kind.values()) {
            names.put(k, new LinkedHashSet<>());
        }
        config.dataCenters()
                .forEach(dc -> names.get(RuntimeTarget.Kind.DATACENTER).add(dc.name()));
        config.links()
                .forEach(l -> names.get(RuntimeTarget.Kind.LINK).add(l.link().name()));
        config.site().servers().forEach(vs -> names.get(RuntimeTarget.Kind.VS).add(vs.name()));
        wideIps = config.wideIps();
        for (WideIpSpec w : wideIps) {
            names.get(RuntimeTarget.Kind.WIDEIP)
                    .add(new RuntimeTarget(RuntimeTarget.Kind.WIDEIP, w.name().toString()).name());
            for (PoolSpec p : w.pools()) {
                pools.put(p.name(), p);
                names.get(RuntimeTarget.Kind.POOL).add(p.name());
                p.members().forEach(m -> names.get(RuntimeTarget.Kind.MEMBER).add(p.name() + "/" + m.name()));
            }
        }
    }

    /** The names of a kind, sorted (shell completion). */
    List<String> of(RuntimeTarget.Kind kind) {
        return names.getOrDefault(kind, Set.of()).stream().sorted().toList();
    }

    /** Throws naming the kind, the name and the nearest names of that kind when {@code t} names nothing. */
    void require(RuntimeTarget t) {
        Set<String> known = names.get(t.kind());
        if (!known.contains(t.name())) {
            List<String> near = NearNames.of(t.name(), known);
            throw new IllegalArgumentException("no " + t.kind().word() + " named " + t.name()
                    + (near.isEmpty()
                            ? "; known: " + first(known)
                            : "; did you mean " + String.join(", ", near) + "?"));
        }
    }

    /**
     * The pools (and wide IPs, for a pool) that had an enabled member (pool) before and would
     * have none after {@code t} is set to {@code to}: what asks for --force.
     */
    List<String> leftEmpty(RuntimeStates before, RuntimeTarget t, RuntimeState to, long now) {
        RuntimeStates after = before.with(t, to, "", now);
        List<String> emptied = new ArrayList<>();
        for (PoolSpec p : pools.values()) {
            if (enabledMembers(p, before, now) > 0 && enabledMembers(p, after, now) == 0) {
                emptied.add("pool " + p.name() + " has no enabled member left");
            }
        }
        for (WideIpSpec w : wideIps) {
            long was = w.pools().stream()
                    .filter(p -> enabledMembers(p, before, now) > 0)
                    .count();
            long is = w.pools().stream()
                    .filter(p -> enabledMembers(p, after, now) > 0)
                    .count();
            if (was > 0 && is == 0) {
                emptied.add("wide IP " + w.name() + " has no enabled pool left (its failure behaviour answers)");
            }
        }
        return emptied;
    }

    private static int enabledMembers(PoolSpec p, RuntimeStates s, long now) {
        if (s.inForce(new RuntimeTarget(RuntimeTarget.Kind.POOL, p.name()), now) != null) {
            return 0;
        }
        int n = 0;
        for (VirtualServer vs : p.members()) {
            if (s.on(vs, now) == null && s.inForce(RuntimeTarget.member(p.name(), vs.name()), now) == null) {
                n++;
            }
        }
        return n;
    }

    private static String first(Set<String> known) {
        List<String> some =
                known.stream().sorted(Comparator.naturalOrder()).limit(10).toList();
        return some.isEmpty() ? "none" : String.join(", ", some) + (known.size() > 10 ? ", ..." : "");
    }
}
