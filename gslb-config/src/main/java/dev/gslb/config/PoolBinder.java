package dev.gslb.config;

import static java.util.Objects.requireNonNullElse;

import com.fasterxml.jackson.annotation.JsonCreator;
import dev.gslb.dns.method.LoadBalancingMethod;
import dev.gslb.dns.method.MethodRegistry;
import dev.gslb.dns.method.MethodSettings;
import dev.gslb.dns.method.QualityOfService;
import dev.gslb.dns.wideip.CnameMembers;
import dev.gslb.dns.wideip.CnameTarget;
import dev.gslb.dns.wideip.Pool;
import dev.gslb.probe.load.Metric;
import dev.gslb.settings.Bounds;
import dev.gslb.settings.Section;
import dev.gslb.settings.SettingsException;
import dev.gslb.settings.SettingsOverlay;
import dev.gslb.site.VirtualServer;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.xbill.DNS.Name;
import org.xbill.DNS.TextParseException;

/** The {@code pools:} section: the virtual servers (or, in a CNAME pool, the names) of each pool and the methods that choose among them. */
final class PoolBinder extends Sections {
    /** One entry of {@code pools:} as written: its members and methods by name. */
    record PoolEntry(
            String name,
            String type,
            List<PoolMember> members,
            String preferred,
            String alternate,
            String fallback,
            Integer maxAnswers,
            Duration ttl,
            List<InetAddress> fallbackIp,
            SettingsOverlay<QualityOfService.Settings> qos,
            Integer minUpMembers,
            Pool.MinUpAction minUpAction) {
        static final Section<List<PoolEntry>> SECTION = Section.list("pools", PoolEntry.class);
    }

    /** A pool member as written: a name alone, or {@code {name: N, ratio: 2}} (a CNAME pool's names only). */
    record PoolMember(String name, Integer ratio) {
        @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
        PoolMember {}

        @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
        static PoolMember of(String name) {
            return new PoolMember(name, null);
        }
    }

    PoolBinder(Sections shared) {
        super(shared);
    }

    /** After {@link #virtualServers}: the pools name them. */
    void pools() throws SettingsException {
        List<PoolEntry> given = section(PoolEntry.SECTION);
        for (int i = 0; i < given.size(); i++) {
            pool(given.get(i), i);
        }
    }

    private void pool(PoolEntry p, int i) throws SettingsException {
        required(p.name(), "pool", "name", "pools", i);
        required(p.members(), "pool", "members", "pools", i);
        if (p.type() != null && !p.type().equals("address") && !p.type().equals("cname")) {
            throw file.error(
                    "pool type must be address (virtual servers, the default) or cname (names)", "pools", i, "type");
        }
        if ("cname".equals(p.type())) {
            cnamePool(p, i);
            return;
        }
        List<VirtualServer> members = new ArrayList<>();
        for (int m = 0; m < p.members().size(); m++) {
            PoolMember member = p.members().get(m);
            VirtualServer vs = virtualServers.get(member.name());
            if (vs == null) {
                throw file.error(
                        "pool " + p.name() + " names virtual server "
                                + member.name() + ", which is not defined; defined: "
                                + virtualServers.keySet(),
                        "pools",
                        i,
                        "members",
                        m);
            }
            if (member.ratio() != null) {
                throw file.error(
                        "a virtual server's ratio is set on the virtual server (ratio:), not in a pool",
                        "pools",
                        i,
                        "members",
                        m,
                        "ratio");
            }
            members.add(vs);
        }
        if (members.isEmpty()) {
            throw file.error("pool " + p.name() + " has no members", "pools", i);
        }
        List<String> given = Arrays.asList(p.preferred(), p.alternate(), p.fallback());
        MethodSettings own = MethodSettings.DEFAULTS;
        if (p.qos() != null) { // the pool's coefficients over the global ones
            try {
                own = MethodSettings.of(p.qos()
                        .over(section(GslbConfig.LoadBalancing.SECTION)
                                .methods()
                                .orDefault(QualityOfService.Settings.DEFAULTS)));
            } catch (IllegalArgumentException e) {
                throw file.error(e.getMessage(), "pools", i, "qos");
            }
        }
        List<String> methods = new ArrayList<>();
        List<LoadBalancingMethod> trial = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            String method = requireNonNullElse(given.get(t), MethodRegistry.DEFAULT_CHAIN.get(t));
            try {
                trial.add(ConfigLoader.UNBOUND_METHODS.create(method, own));
            } catch (IllegalArgumentException e) {
                throw file.error(e.getMessage(), "pools", i, Pool.TIER_NAMES.get(t));
            }
            methods.add(method);
            loadRead(p, i, t, method, own, members);
        }
        List<InetAddress> fallback = orEmpty(p.fallbackIp());
        long ttl = p.ttl() == null ? -1 : p.ttl().toSeconds();
        int maxAnswers;
        int minUp;
        Pool.MinUpAction action = requireNonNullElse(p.minUpAction(), Pool.MinUpAction.NEXT_POOL);
        try { // the pool's own rules (the alternate tier reads no path metrics), checked where they live
            maxAnswers = Bounds.within("max-answers", requireNonNullElse(p.maxAnswers(), 1), 1, 16);
        } catch (IllegalArgumentException e) {
            throw file.error(e.getMessage(), "pools", i, "max-answers");
        }
        try {
            minUp = Bounds.within("min-up-members", requireNonNullElse(p.minUpMembers(), 0), 0, members.size());
        } catch (IllegalArgumentException e) {
            throw file.error(
                    "pool " + p.name() + " has " + members.size() + " members: " + e.getMessage(),
                    "pools",
                    i,
                    "min-up-members");
        }
        try {
            new Pool(p.name(), members, trial, maxAnswers, ttl, fallback, minUp, action);
        } catch (IllegalArgumentException e) {
            throw file.error(e.getMessage(), "pools", i);
        }
        if (pools.put(
                        p.name(),
                        new PoolSpec(p.name(), members, methods, maxAnswers, ttl, fallback, own, minUp, action, null))
                != null) {
            throw file.error("pool " + p.name() + " is defined twice", "pools", i);
        }
    }

    /**
     * A load method needs its metric measured on every member: a member without a source of it
     * would never be chosen by it, and the method would pass for good. The method is made with
     * the configured settings (dynamic-ratio reads memory or CPU only when its r2 weighs them).
     */
    private void loadRead(PoolEntry p, int i, int tier, String method, MethodSettings own, List<VirtualServer> members)
            throws SettingsException {
        MethodSettings configured =
                section(GslbConfig.LoadBalancing.SECTION).methods().overriddenBy(own);
        Set<Metric> reads =
                ConfigLoader.UNBOUND_METHODS.create(method, configured).readsLoad();
        for (Metric m : reads) {
            for (VirtualServer vs : members) {
                boolean measured = loadTargets.stream()
                        .anyMatch(t -> t.server().equals(vs.name())
                                && t.load() != null
                                && t.load().metrics().contains(m));
                if (!measured) {
                    throw file.error(
                            "pool " + p.name() + ": " + method + " reads " + m.key() + ", but virtual server "
                                    + vs.name() + " has no source under 'load:' that reads it (give it one,"
                                    + " e.g. nginx: URL for connections, or choose another method)",
                            "pools",
                            i,
                            Pool.TIER_NAMES.get(tier));
                }
            }
        }
    }

    /**
     * A CNAME pool ({@code type: cname}): its members are names, answered as a CNAME; only the
     * methods that need no server state may choose ({@link CnameMembers#METHODS}), and keys about
     * addresses or members up (fallback-ip, max-answers, qos, min-up-*) have no meaning here.
     */
    private void cnamePool(PoolEntry p, int i) throws SettingsException {
        for (String key : List.of("fallback-ip", "max-answers", "qos", "min-up-members", "min-up-action")) {
            if (file.has("pools", i, key)) {
                throw file.error(
                        "pool " + p.name() + " is a CNAME pool: " + key + " is for a pool of virtual servers",
                        "pools",
                        i,
                        key);
            }
        }
        List<CnameTarget> targets = new ArrayList<>();
        for (int m = 0; m < p.members().size(); m++) {
            PoolMember member = p.members().get(m);
            try {
                targets.add(new CnameTarget(
                        Name.fromString(member.name(), Name.root),
                        Bounds.within("ratio", requireNonNullElse(member.ratio(), 1), 0, 1_000_000)));
            } catch (TextParseException | IllegalArgumentException | NullPointerException e) {
                throw file.error(
                        "pool " + p.name() + ": member " + member.name() + " is not a domain name: " + e.getMessage(),
                        "pools",
                        i,
                        "members",
                        m);
            }
        }
        List<String> given = Arrays.asList(p.preferred(), p.alternate(), p.fallback());
        List<String> methods = new ArrayList<>();
        List<LoadBalancingMethod> trial = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            String method = requireNonNullElse(given.get(t), CnameMembers.DEFAULT_CHAIN.get(t));
            try {
                CnameMembers.check(p.name(), method);
                trial.add(ConfigLoader.UNBOUND_METHODS.create(method));
            } catch (IllegalArgumentException e) {
                throw file.error(e.getMessage(), "pools", i, Pool.TIER_NAMES.get(t));
            }
            methods.add(method);
        }
        long ttl = p.ttl() == null ? -1 : p.ttl().toSeconds();
        try {
            Pool.cname(p.name(), trial, ttl, new CnameMembers(targets));
        } catch (IllegalArgumentException e) {
            throw file.error(e.getMessage(), "pools", i);
        }
        PoolSpec spec = new PoolSpec(
                p.name(),
                List.of(),
                methods,
                1,
                ttl,
                List.of(),
                MethodSettings.DEFAULTS,
                0,
                Pool.MinUpAction.NEXT_POOL,
                targets);
        if (pools.put(p.name(), spec) != null) {
            throw file.error("pool " + p.name() + " is defined twice", "pools", i);
        }
    }
}
